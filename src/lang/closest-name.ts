/**
 * Name suggestions for typos: the parser suggests an operator for a misspelt one, the checker a field or
 * function, the CLI an option or a key. In lang, the lowest layer, so that every other can use it.
 */

/** The known name closest to a misspelt one, when it is close enough to be a likely typo. */
export function closestName(name: string, candidates: Iterable<string>): string | undefined {
  if (name.length < 4) return undefined; // any short name is "close" to some other short name
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(name.length / 4)) + 1;
  for (const candidate of candidates) {
    if (Math.abs(candidate.length - name.length) >= bestDistance) continue;
    const distance = editDistance(name.toLowerCase(), candidate);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min(substitution, (previous[j] as number) + 1, (current[j - 1] as number) + 1));
    }
    previous = current;
  }
  return previous[b.length] as number;
}
