import type { CrsRule } from '../crs.js';

/**
 * CRS 913: scanner detection. Security scanners and attack tools announce themselves in their User-Agent
 * unless told otherwise; those that do are caught by name (src/scheme/waf-phrase-lists/
 * scanner-user-agents.json). Names are written specifically enough not to match ordinary clients: `vega/`
 * (the scanner's product token), not `vega`, which also occurs in `veganism.social`; no `grabber`, which
 * yum's `urlgrabber` and feed crawlers carry.
 *
 * CRS v4 keeps 913100 only. The other rules are those of the releases that had them: CRS 3.3 split
 * scanners by where they show (913110 headers, 913120 probe paths) and other automated clients by kind
 * (913101 HTTP libraries, 913102 crawlers) at paranoia level 2; the 91313x rules of CRS's v4 development
 * tree graded User-Agents from security scanners (913130) through agents a site does not want (913131) to
 * every automated agent (913132). Each list is a file of src/scheme/waf-phrase-lists/.
 */

const TAGS = ['application-multi', 'language-multi', 'platform-multi'];
/** The tags of a reputation rule of one kind (`scanner`, `scripting`, `crawler`). */
const reputation = (kind: string): string[] => [...TAGS, `attack-reputation-${kind}`, 'PCI/6.5.10'];

const USER_AGENT = 'REQUEST_HEADERS:User-Agent';

/** A User-Agent names something of one of the phrase lists (which ignore ASCII case). */
const userAgentIn = (lists: readonly string[]) =>
  lists.map((list) => `any(waf_phrases(http.request.headers["user-agent"][*], "${list}"))`).join(' or ');

export const SCANNER_DETECTION_RULES: readonly CrsRule[] = [
  {
    id: 913100,
    description: 'Found User-Agent associated with security scanner',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: reputation('scanner'),
    targets: USER_AGENT,
    test: { phrases: 'scanner-user-agents' },
  },
  {
    id: 913110,
    description: 'Found request header associated with security scanner',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: reputation('scanner'),
    // Headers a scanner adds to mark its requests (Acunetix's licence headers, WebInspect's memos), by name
    // or in a value.
    targets: 'REQUEST_HEADERS_NAMES|REQUEST_HEADERS',
    transformations: 'lowercase',
    test: { phrases: 'scanner-headers' },
  },
  {
    id: 913120,
    description: 'Found request filename/argument associated with security scanner',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: reputation('scanner'),
    // The files a scanner asks for to learn how the site answers a missing page (`/nessustest`), and the
    // markers it leaves in arguments.
    targets: 'REQUEST_FILENAME|ARGS',
    transformations: 'lowercase',
    test: { phrases: 'scanner-urls' },
  },
  {
    id: 913130,
    description: 'Found User-Agent associated with security scanner',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: reputation('scanner'),
    targets: USER_AGENT,
    transformations: 'lowercase',
    test: { phrases: 'scanner-user-agents' },
  },
  {
    id: 913101,
    description: 'Found User-Agent associated with scripting/generic HTTP client',
    paranoiaLevel: 2,
    severity: 'critical',
    tags: reputation('scripting'),
    // Clients that leave their library's User-Agent: scripts and tools, or applications nobody configured.
    targets: USER_AGENT,
    transformations: 'lowercase',
    test: { phrases: 'scripting-user-agents' },
  },
  {
    id: 913102,
    description: 'Found User-Agent associated with web crawler/bot',
    paranoiaLevel: 2,
    severity: 'critical',
    tags: reputation('crawler'),
    targets: USER_AGENT,
    transformations: 'lowercase',
    test: { phrases: 'crawler-user-agents' },
  },
  {
    id: 913131,
    description: 'Found User-Agent associated with non-acceptable automated agent',
    paranoiaLevel: 2,
    severity: 'critical',
    tags: reputation('scanner'),
    // Scanners, and the agents no site asks for: site rippers, address harvesters, content extractors.
    expression: userAgentIn(['scanner-user-agents', 'bad-bot-user-agents']),
  },
  {
    id: 913132,
    description: 'Found User-Agent associated with automated agent',
    paranoiaLevel: 3,
    severity: 'critical',
    tags: reputation('scanner'),
    // Every automated agent named in a list, the welcome ones (search engines, SEO crawlers) included.
    expression: userAgentIn([
      'scanner-user-agents',
      'bad-bot-user-agents',
      'crawler-user-agents',
      'search-engine-user-agents',
    ]),
  },
];
