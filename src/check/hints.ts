/** Codes and friendlier explanations for literal mistakes, and name suggestions for typos. */

export function codeForLiteralProblem(message: string): string {
  if (message === 'unrecognised input') return 'unrecognised-input';
  if (
    message === 'expected digit' ||
    message.includes('radix 10') ||
    message.includes('radix 8') ||
    message.startsWith('number too')
  )
    return 'invalid-integer';
  if (message.includes('IP address') || message.includes('network') || message.startsWith('host part'))
    return 'invalid-ip';
  if (message === 'incompatible range bounds') return 'invalid-range';
  if (
    message.includes('characters, but found') ||
    message.includes('byte separator') ||
    message.includes('radix 16')
  )
    return 'invalid-bytes';
  return 'invalid-string';
}

/** A friendlier explanation of the literal mistakes people make most. */
export function literalHint(message: string, text: string): string | undefined {
  const first = text.charAt(0);
  if (first === '"' && message === 'expected digit')
    return 'integers are written without quotes: tcp.dstport eq 443';
  if (first === '"' && message === 'expected IP address character')
    return 'IP addresses are written without quotes: ip.src eq 192.0.2.1';
  if (message.startsWith("couldn't parse address") && text.includes('/'))
    return 'a CIDR range can only be used in a set: ip.src in {192.0.2.0/24}';
  if (message === 'host part of address was not zero')
    return 'a CIDR range starts at its network address, e.g. 10.0.0.0/8 rather than 10.0.0.1/8';
  if (first === "'") return 'strings are written in double quotes';
  return undefined;
}

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
