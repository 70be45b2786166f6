import { describe, expect, it } from 'vitest';
import { validate } from '../../src/index.js';
import { quickFixFor } from '../../web/src/editor/quick-fixes.js';

// The playground's quick fixes, read from the library's diagnostics: applying one must give an expression
// without that diagnostic.

function fixed(source: string): { label: string; result: string } | undefined {
  const [diagnostic] = validate(source, { plan: 'enterprise' }).diagnostics;
  if (!diagnostic) return undefined;
  const fix = quickFixFor(source, diagnostic);
  if (!fix) return undefined;
  const result = source.slice(0, diagnostic.span.start) + fix.replacement + source.slice(diagnostic.span.end);
  return { label: fix.label, result };
}

describe('quick fixes', () => {
  it('replaces a deprecated field with its replacement', () => {
    expect(fixed('ip.geoip.country eq "FR"')).toEqual({
      label: 'Use ip.src.country',
      result: 'ip.src.country eq "FR"',
    });
  });

  it('lower-cases a header name used as a map key', () => {
    const fix = fixed('http.request.headers["User-Agent"][0] eq "x"');
    expect(fix?.result).toBe('http.request.headers["user-agent"][0] eq "x"');
    expect(validate(fix?.result ?? '').diagnostics).toEqual([]);
  });

  it('takes the suggestion for a misspelt name', () => {
    expect(fixed('http.request.uri.pth eq "/"')).toEqual({
      label: 'Change to http.request.uri.path',
      result: 'http.request.uri.path eq "/"',
    });
    expect(fixed('lowr(http.host) eq "a"')?.result).toBe('lower(http.host) eq "a"');
  });

  it('writes the value in the case Cloudflare gives it, and removes a repeated set item', () => {
    expect(fixed('http.request.method eq "get"')?.result).toBe('http.request.method eq "GET"');
    const fix = fixed('ip.src in {192.0.2.1 192.0.2.1}');
    expect(fix?.label).toBe('Remove the repeated item');
    expect(validate(fix?.result ?? '').diagnostics).toEqual([]);
  });

  it('offers nothing where the hint names no change', () => {
    expect(fixed('http.request.uri.path eq "/" and ip.src eq 1.2.3.4.5')).toBeUndefined();
  });
});
