import type { CrsRule } from '../crs.js';

/**
 * CRS 921: protocol attacks. Values that carry protocol syntax into places where a front end and a back
 * end may read it differently: a second request line (request smuggling), line breaks followed by header
 * names (response splitting, header injection), an LDAP filter closed early, a content type hidden in a
 * parameter, repeated or malformed parameter names (HTTP parameter pollution).
 */

const TAGS = ['application-multi', 'language-multi', 'platform-multi', 'attack-protocol'];

/** Methods of HTTP and WebDAV that can open a smuggled request line. */
const METHODS = [
  'get',
  'post',
  'head',
  'options',
  'connect',
  'put',
  'delete',
  'trace',
  'track',
  'patch',
  'propfind',
  'proppatch',
  'mkcol',
  'copy',
  'move',
  'lock',
  'unlock',
];

export const PROTOCOL_ATTACK_RULES: readonly CrsRule[] = [
  {
    id: 921110,
    description: 'HTTP Request Smuggling Attack',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: TAGS,
    targets: 'ARGS_NAMES|ARGS|REQUEST_BODY|XML:/*',
    transformations: 'htmlEntityDecode,lowercase',
    // A request line inside a value: method, target, protocol (`GET /admin HTTP/1.1`). The method is not
    // bounded on its left, since a line break or any glued text may precede it.
    test: { regex: String.raw`(?:${METHODS.join('|')})\s+\S+\s+http/\d` },
  },
  {
    id: 921120,
    description: 'HTTP Response Splitting Attack',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: TAGS,
    targets: 'REQUEST_COOKIES|REQUEST_COOKIES_NAMES|ARGS_NAMES|ARGS|XML:/*',
    transformations: 'lowercase',
    // A line break, then a response header that takes control of the response, with a value.
    test: {
      regex: String.raw`[\r\n]\W*?(?:content-(?:type|length)|set-cookie|location):\s*\w`,
    },
  },
  {
    id: 921130,
    description: 'HTTP Response Splitting Attack',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: TAGS,
    targets: 'REQUEST_COOKIES|REQUEST_COOKIES_NAMES|ARGS_NAMES|ARGS|XML:/*',
    transformations: 'htmlEntityDecode,lowercase',
    // The start of a forged response: a status line's protocol, or an HTML document's opening tags.
    test: { regex: String.raw`\bhttp/\d|<(?:html|meta)\b` },
  },
  {
    id: 921140,
    description: 'HTTP Header Injection Attack via headers',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: TAGS,
    targets: 'REQUEST_HEADERS_NAMES|REQUEST_HEADERS',
    transformations: 'urlDecodeUni',
    test: { regex: String.raw`[\r\n]` },
  },
  {
    id: 921150,
    description: 'HTTP Header Injection Attack via payload (CR/LF detected)',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: TAGS,
    targets: 'ARGS_NAMES',
    test: { regex: String.raw`[\r\n]` },
  },
  {
    id: 921160,
    description: 'HTTP Header Injection Attack via payload (CR/LF and header-name detected)',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: TAGS,
    targets: 'ARGS_GET_NAMES|ARGS_GET',
    transformations: 'lowercase',
    // Line breaks, then a header a redirect or a proxy trusts (or a folded line), then its colon.
    test: {
      regex: String.raw`[\r\n]+(?:\s|location|refresh|(?:set-)?cookie|(?:x-)?(?:forwarded-(?:for|host|server)|host|via|remote-ip|remote-addr|originating-ip))\s*:`,
    },
  },
  {
    id: 921190,
    description: 'HTTP Splitting (CR/LF in request filename detected)',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: TAGS,
    // A line break in the path ends the request line early for a FastCGI or proxy back end (CVE-2019-11043).
    targets: 'REQUEST_FILENAME',
    transformations: 'urlDecodeUni',
    test: { regex: String.raw`[\r\n]` },
  },
  {
    id: 921200,
    description: 'LDAP Injection Attack',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: ['application-multi', 'language-ldap', 'platform-multi'],
    targets: 'REQUEST_COOKIES|REQUEST_COOKIES_NAMES|ARGS_NAMES|ARGS|XML:/*',
    transformations: 'htmlEntityDecode',
    // A value meant to sit inside an LDAP filter that closes it (`)`) and opens another clause: an
    // attribute test `(uid=*`, a logical operator `(|`, `)(&`, or `!(sn=`. The text before the `)` holds no
    // filter syntax, so a whole filter a user types (`(&(a=b)(c=d))`) is left alone.
    test: {
      regex: String.raw`^[^:()&|!<>~]*\)\s*(?:\(\s*[^,()=&|!<>~]+?\s*[<>~]?=|\(\s*[&|!]|\)\s*\(\s*[&|!]|[&|!]\s*\(\s*[^,()=&|!<>~]+?\s*[<>~]?=)`,
    },
  },
  {
    id: 921421,
    description: 'Content-Type header: Dangerous content type outside the mime type declaration',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: TAGS,
    targets: 'REQUEST_HEADERS:Content-Type',
    transformations: 'lowercase',
    // A JSON or XML type after the media type (`…urlencoded;boundary="application/json"`), where a rule
    // that picks a body parser by searching the header would find it.
    test: {
      regex: String.raw`^[^\s,;]+[\s,;].*?(?:application/(?:[^\s,;]+\+)?json|(?:application/(?:soap\+)?|text/)xml)`,
    },
  },
  {
    id: 921240,
    description: 'mod_proxy attack attempt detected',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: ['application-multi', 'language-multi', 'platform-apache', 'attack-protocol'],
    // Apache mod_proxy's `unix:/socket|http://target` form, which sends the request to any back end
    // (CVE-2021-40438).
    targets: 'REQUEST_URI_RAW',
    transformations: 'urlDecodeUni,lowercase',
    test: { regex: String.raw`unix:[^|]*\|` },
  },
  {
    id: 921250,
    description: 'Old Cookies V1 usage attempt detected',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: ['application-multi', 'language-multi', 'attack-protocol'],
    // RFC 2109 cookies (`$Version=1`) let a quoted value swallow the cookies after it (cookie sandwich).
    targets: 'REQUEST_COOKIES:/\\x22?\\x24Version/',
    transformations: 'lowercase',
    test: { operator: 'eq', literal: '"1"' },
  },
  {
    id: 921151,
    description: 'HTTP Header Injection Attack via payload (CR/LF detected)',
    paranoiaLevel: 2,
    severity: 'critical',
    tags: TAGS,
    targets: 'ARGS_GET',
    test: { regex: String.raw`[\r\n]` },
  },
  {
    id: 921422,
    description: 'Content-Type header: Dangerous content type outside the mime type declaration',
    paranoiaLevel: 2,
    severity: 'critical',
    tags: TAGS,
    targets: 'REQUEST_HEADERS:Content-Type',
    transformations: 'lowercase',
    // Stricter than 921421: any media-type word, or a `/` or `+` between words, after the media type.
    test: {
      regex: String.raw`^[^\s,;]+[\s,;].*?(?:\b(?:text|multipart|application|audio|video|image|css|csv|vnd|related|pdf|plain|json|soap|csp|xml|x-www-form-urlencoded|form-data|x-amf|octet|report|stream)\b|\w[/+]\w)`,
    },
  },
  {
    id: 921260,
    description: 'Excessive HTTP Request Header Count',
    paranoiaLevel: 2,
    severity: 'critical',
    tags: TAGS,
    // Browsers send a dozen or two; more than 64 floods the parsers of servers and proxies (CVE-2026-49975).
    expression: 'len(waf.headers.names) gt 64',
  },
  {
    id: 921270,
    description: 'Excessive Cookie Count',
    paranoiaLevel: 2,
    severity: 'critical',
    tags: TAGS,
    expression: 'len(waf.cookies.names) gt 64',
  },
  {
    id: 921280,
    description: 'Query parameter in request path before query string',
    paranoiaLevel: 2,
    severity: 'critical',
    tags: TAGS,
    // `/api/orders&status=paid`: a parameter where the query should start, which a rule reading the query
    // does not see and a lenient router or back end still takes as one.
    targets: 'REQUEST_FILENAME',
    test: { regex: '&[^&=/]*=' },
  },
  {
    id: 921500,
    description: 'Nonstandard URL-encoded characters in path',
    paranoiaLevel: 2,
    severity: 'critical',
    tags: TAGS,
    // An escaped letter, digit, `- . _ ~` or `/` in the path: no encoder escapes them, but escaping them
    // hides `/phpinfo.php` from a rule that reads the path undecoded, and `.%2e/` is the traversal of
    // CVE-2021-41773.
    targets: 'REQUEST_FILENAME',
    test: { regex: '(?i)%(?:2[d-f]|3[0-9]|[46][1-9a-f]|[57][0-9a]|5f|7e)' },
  },
  {
    id: 921230,
    description: 'HTTP Range Header detected',
    paranoiaLevel: 3,
    severity: 'critical',
    tags: TAGS,
    expression: 'has_key(http.request.headers, "range")',
  },
  {
    id: 921180,
    description: 'HTTP Parameter Pollution',
    paranoiaLevel: 3,
    severity: 'critical',
    tags: TAGS,
    // An argument name given more than once, in the query and the body together: servers keep the first,
    // the last or all of them.
    expression: 'any(len(waf.args[*])[*] gt 1)',
  },
  {
    id: 921300,
    description: 'Ampersand in request path before query string',
    paranoiaLevel: 3,
    severity: 'critical',
    tags: TAGS,
    // Stricter than 921280: any `&` in the path, file names such as `terms&conditions.pdf` included.
    targets: 'REQUEST_FILENAME',
    test: { operator: 'contains', literal: '"&"' },
  },
  {
    id: 921210,
    description: 'HTTP Parameter Pollution after detecting bogus char after parameter array',
    paranoiaLevel: 3,
    severity: 'critical',
    tags: TAGS,
    targets: 'ARGS_NAMES',
    // Text after an array subscript (`foo[1]a`, `foo[1]a[2]`): PHP and others read such names differently.
    test: { regex: String.raw`\][^\]]+(?:$|\[)` },
  },
  {
    id: 921220,
    description: 'HTTP Parameter Pollution possible via array notation',
    paranoiaLevel: 4,
    severity: 'critical',
    tags: TAGS,
    targets: 'ARGS_NAMES',
    test: { regex: String.raw`\[` },
  },
];
