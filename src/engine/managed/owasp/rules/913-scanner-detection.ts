import type { CrsRule } from '../crs.js';

/**
 * CRS 913: scanner detection. Security scanners and attack tools announce themselves in their User-Agent
 * unless told otherwise; those that do are caught by name (src/scheme/waf-phrase-lists/
 * scanner-user-agents.json). Names are written specifically enough not to match ordinary clients: `vega/`
 * (the scanner's product token), not `vega`, which also occurs in `veganism.social`; no `grabber`, which
 * yum's `urlgrabber` and feed crawlers carry.
 */
export const SCANNER_DETECTION_RULES: readonly CrsRule[] = [
  {
    id: 913100,
    description: 'Found User-Agent associated with security scanner',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: [
      'application-multi',
      'language-multi',
      'platform-multi',
      'attack-reputation-scanner',
      'PCI/6.5.10',
    ],
    targets: 'REQUEST_HEADERS:User-Agent',
    test: { phrases: 'scanner-user-agents' },
  },
];
