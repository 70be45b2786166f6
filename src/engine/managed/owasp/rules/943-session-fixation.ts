import type { CrsRule } from '../crs.js';

/**
 * CRS 943: session fixation. An attacker plants a session id of their choosing — in a cookie set from
 * injected HTML or script, or in a session-id parameter of a link they get the victim to follow.
 */

const TAGS = ['application-multi', 'language-multi', 'platform-multi', 'attack-fixation'];

/** Parameter names that carry a session id in common server platforms (Java, ASP.NET, PHP, ColdFusion…). */
const SESSION_ID_NAMES = [
  'jsessionid',
  'aspsessionid',
  'asp.net_sessionid',
  'phpsession',
  'phpsessid',
  'weblogicsession',
  'session_id',
  'session-id',
  'cfid',
  'cftoken',
  'cfsid',
  'jservsession',
  'jwsession',
];

const sessionIdName = `any(waf_transform("lowercase", waf.args.names)[*] in {${SESSION_ID_NAMES.map((name) => `"${name}"`).join(' ')}})`;

export const SESSION_FIXATION_RULES: readonly CrsRule[] = [
  {
    id: 943100,
    description: 'Possible Session Fixation Attack: Setting Cookie Values in HTML',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: TAGS,
    targets: 'REQUEST_COOKIES|!REQUEST_COOKIES:/__utm/|REQUEST_COOKIES_NAMES|ARGS_NAMES|ARGS|XML:/*',
    transformations: 'urlDecodeUni',
    // Script that writes a cookie with an expiry or a domain, or a meta tag that sets one.
    test: {
      regex: String.raw`(?i)\.cookie\b.*?;\W*?(?:expires|domain)\W*?=|\bhttp-equiv\W+set-cookie\b`,
    },
  },
  {
    id: 943110,
    description: 'Possible Session Fixation Attack: SessionID Parameter Name with Off-Domain Referer',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: TAGS,
    // A session id in a link from another site: the Referer's host does not end with this Host.
    expression: sessionIdName,
    and: `http.referer matches r"^(?:ht|f)tps?://[^/]*?/" and not waf_ends_with(waf_url_host(http.referer), http.host)`,
  },
  {
    id: 943120,
    description: 'Possible Session Fixation Attack: SessionID Parameter Name with No Referer',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: TAGS,
    expression: sessionIdName,
    and: 'not any(lower(http.request.headers.names[*])[*] eq "referer")',
  },
];
