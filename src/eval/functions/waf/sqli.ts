// TEMPORARY STUB (replaced by branch waf-sqli)
export function detectSqli(input: string): { fingerprint: string } | undefined {
  return /union\s+select|'\s*or\s*'?\d/i.test(input) ? { fingerprint: 's&sos' } : undefined;
}
