// Loads one of the page's own scripts on demand (RE2's runtime, the zone engine) with a <script> element:
// same origin, so a strict Content-Security-Policy allows it, and it works on a page opened from disk,
// where `import()` of a module would not. Resolves with the global the script defines.

export function loadScript<T>(baseUrl: string, file: string, global: string): Promise<T> {
  const globals = globalThis as unknown as Record<string, T | undefined>;
  const defined = globals[global];
  if (defined) return Promise.resolve(defined);
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = new URL(file, baseUrl).href;
    script.onload = () => {
      const value = globals[global];
      if (value) resolve(value);
      else reject(new Error(`${file} did not define ${global}`));
    };
    script.onerror = () => {
      script.remove(); // so that a later attempt adds a fresh element
      reject(new Error(`could not load ${script.src}`));
    };
    document.head.append(script);
  });
}
