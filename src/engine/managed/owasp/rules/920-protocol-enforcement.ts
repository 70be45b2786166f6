import { quotedString, rawString } from '../../inputs.js';
import { targetValues } from '../../targets.js';
import type { CrsRule } from '../crs.js';

/**
 * CRS 920: protocol enforcement. Most of these rules are not patterns over arguments but checks of the
 * request's shape: its request line, method and protocol version, the framing headers (Content-Length,
 * Transfer-Encoding), Range, Host, Accept and User-Agent, the Content-Type and its charset, the bytes and
 * encodings in what the application will decode, and the sizes and counts of arguments. What a site allows
 * (methods, content types, charsets, versions, extensions, headers) is CRS's default policy, written out
 * below as the facts it is.
 */

const TAGS = ['application-multi', 'language-multi', 'platform-multi', 'attack-protocol'];

/** The Rules-language array of CRS targets after transformations, for rules written as whole expressions. */
const transformed = (targets: string, transformations = 'none') =>
  `waf_transform(${quotedString(transformations)}, ${targetValues(targets).join(', ')})`;

/**
 * ModSecurity's @validateByteRange: the rule matches when some byte of a (transformed) target lies outside
 * the allowed ranges (`waf_bytes_within`).
 */
const byteOutside = (targets: string, transformations: string, ranges: string) =>
  `any(not waf_bytes_within(${transformed(targets, transformations)}[*], "${ranges}"))`;

const header = (name: string) => `http.request.headers["${name}"]`;
const hasHeader = (name: string) => `has_key(http.request.headers, "${name}")`;
const set = (items: readonly string[]) => `{${items.map(quotedString).join(' ')}}`;

/**
 * Checks that depend on HTTP/1 framing (a Host header, Content-Length or Transfer-Encoding on a POST) apply
 * to requests that say they are HTTP/1.0 or 1.1: HTTP/2 and 3 carry the authority and the body length in
 * the protocol itself, and a sample request that gives no version says nothing about its framing.
 */
const HTTP1 = 'http.request.version in {"HTTP/1.0" "HTTP/1.1"}';

/** CRS's default `tx.allowed_request_content_type` (crs-setup rule 900220). */
const ALLOWED_CONTENT_TYPES = [
  'application/x-www-form-urlencoded',
  'multipart/form-data',
  'text/xml',
  'application/xml',
  'application/soap+xml',
  'application/json',
];

/** CRS's default `tx.allowed_request_content_type_charset` (crs-setup rule 900280). */
export const ALLOWED_CHARSETS = ['utf-8', 'iso-8859-1', 'iso-8859-15', 'windows-1252'];

/** CRS's default `tx.allowed_http_versions` (crs-setup rule 900230). */
const ALLOWED_HTTP_VERSIONS = ['HTTP/1.0', 'HTTP/1.1', 'HTTP/2', 'HTTP/2.0', 'HTTP/3', 'HTTP/3.0'];

/**
 * CRS's default `tx.restricted_extensions` (crs-setup rule 900240): backups, configuration, databases,
 * logs, keys and certificates, source and project files of the .NET world, and Windows executables and
 * scripts, none of which a site should serve as they are.
 */
const RESTRICTED_EXTENSIONS = [
  'ani',
  'application',
  'asa',
  'asax',
  'ascx',
  'backup',
  'bak',
  'bat',
  'cdx',
  'cer',
  'cfg',
  'cmd',
  'com',
  'compositefont',
  'config',
  'conf',
  'crt',
  'cs',
  'csproj',
  'csr',
  'dat',
  'db',
  'dbf',
  'dist',
  'dll',
  'dos',
  'dpkg-dist',
  'drv',
  'gadget',
  'hta',
  'htr',
  'htw',
  'ida',
  'idc',
  'idq',
  'inc',
  'inf',
  'ini',
  'jse',
  'key',
  'licx',
  'lnk',
  'log',
  'mdb',
  'msc',
  'ocx',
  'old',
  'pass',
  'pdb',
  'pfx',
  'pif',
  'pem',
  'pol',
  'prf',
  'printer',
  'pwd',
  'rdb',
  'rdp',
  'reg',
  'resources',
  'resx',
  'scr',
  'sct',
  'shs',
  'sql',
  'swp',
  'sys',
  'tlb',
  'tmp',
  'ttf',
  'url',
  'vb',
  'vbe',
  'vbs',
  'vbproj',
  'vsdisco',
  'vxd',
  'webinfo',
  'ws',
  'wsc',
  'wsf',
  'wsh',
  'xsd',
  'xsx',
];

/**
 * Archives and compressed files (920441, 920550): a backup of the site or its database left in the web root
 * is what scanners look for, and what a site rarely serves from a path named like one.
 */
const ARCHIVE_EXTENSIONS = [
  '7z',
  'bz',
  'bz2',
  'cab',
  'cpio',
  'gz',
  'gzip',
  'lz',
  'lzh',
  'lzma',
  'rar',
  'tar',
  'tbz',
  'tbz2',
  'tgz',
  'txz',
  'xz',
  'zip',
  'zst',
];

/** Office documents and exports (920442): sites serve them, but often not to whoever guesses a name. */
const DOCUMENT_EXTENSIONS = [
  'csv',
  'doc',
  'docx',
  'odp',
  'ods',
  'odt',
  'pdf',
  'ppt',
  'pptx',
  'rtf',
  'xls',
  'xlsx',
];

/** Data and configuration exports a backup plugin or a build leaves behind (920550, with the archives). */
const EXPORT_EXTENSIONS = ['json', 'wpress', 'xml', 'yaml', 'yml'];

/** The file name ends with one of the extensions, ASCII case ignored. */
const extensionIn = (extensions: readonly string[]) => `(?i)\\.(?:${extensions.join('|')})$`;

/** The parameter names a Content-Type may carry (920470). */
const CONTENT_TYPE_PARAMETERS = [
  'action',
  'boundary',
  'charset',
  'component',
  'start',
  'start-info',
  'type',
  'version',
];

/**
 * What reads as an escape but is none: `%` and two letters or digits that are not both hex (`%1G`,
 * `%w2`), in a value already decoded once, where the client encoded a broken escape (`%25zz`) or sent one
 * raw. Decoders disagree on those. A `%` before a space, punctuation or the end (`100%`, `12%25+off`) is
 * a percent sign the client did not encode, which every decoder leaves as it is: CRS 4.8's rules, which
 * validated every `%`, fired on such text in ordinary queries and were withdrawn for it.
 */
const BROKEN_ESCAPE = '%(?:[g-zG-Z][0-9a-zA-Z]|[0-9a-fA-F][g-zG-Z])';

/**
 * CRS's default `tx.restricted_headers_basic` (crs-setup rule 900250): headers that change how a server
 * reads the request (Content-Encoding, WebDAV's If and Lock-Token, Content-Range), the httpoxy `Proxy`
 * header, method overrides, and Next.js's internal middleware header (CVE-2025-29927).
 */
const RESTRICTED_HEADERS_BASIC = [
  'content-encoding',
  'proxy',
  'lock-token',
  'content-range',
  'if',
  'x-http-method-override',
  'x-http-method',
  'x-method-override',
  'x-middleware-subrequest',
];

/** CRS's default `tx.restricted_headers_extended` (crs-setup rule 900255): charset negotiation. */
const RESTRICTED_HEADERS_EXTENDED = ['accept-charset'];

/**
 * CRS's size limits (crs-setup rules 900300–900350) are unset by default, so the rules that use them never
 * fire until a site sets them; these are the values crs-setup suggests, which the rules here apply.
 */
const MAX_NUM_ARGS = 255;
const ARG_NAME_LENGTH = 100;
const ARG_LENGTH = 400;
const TOTAL_ARG_LENGTH = 64000;
const MAX_FILE_SIZE = 1048576;
const COMBINED_FILE_SIZES = 1048576;

/**
 * A well-formed request line: a method of 3 to 10 letters, an origin-form target (optionally after a
 * scheme and authority) whose path starts with `/`, then the protocol; or `CONNECT host:port`, or
 * `OPTIONS *`. Spaces only as separators, no `#` in the path, no `-` in the protocol.
 */
const REQUEST_LINE = String.raw`(?i)^(?:connect\s+(?:\d{1,3}\.){3}\d{1,3}\.?(?::\d+)?|connect\s+[\w.-]+:\d+|options\s+\*|[a-z]{3,10}\s+(?:\w{3,7}://[\w./-]+(?::\d+)?)?/[^?#\s]*(?:\?[^#\s]*)?(?:#\S*)?)\s+[\w./]+$`;

/**
 * A multipart file name or field name a parser reads the same way a WAF does: none of the forbidden
 * characters (`'` `"` `;` `=` `\`, which end or escape a Content-Disposition parameter), except the `;` that
 * closes a named HTML entity of a Latin letter with a diacritic (`&eacute;`, `&ccedil;`, `&scaron;`…) or
 * `&amp;` `&apos;` `&nbsp;` `&oslash;`, which forms send for such names.
 */
const multipartName = (forbidden: string) =>
  `(?i)^(?:[^${forbidden}]|&(?:[acegilnorsuz]acute|[aeiou]grave|[aino]tilde|[cdelnrstz]caron|[cgklnrst]cedil|[aeiouy]uml|[aceghijosuwy]circ|[au]ring|amp|apos|nbsp|oslash);)*$`;

/**
 * A Content-Type CRS accepts: a media type of word characters and `/ . + * -`, then parameters from a
 * fixed set of names (those of RFC 2045/2387/7578 and SOAP), with at most one space around `=` and values
 * of quotes, word characters and `. ( ) + , / : = ? < > @ # * -`.
 */
const CONTENT_TYPE = String.raw`^[\w/.+*-]+(?:\s?;\s*(?:action|boundary|charset|component|start(?:-info)?|type|version)\s?=\s?['"\w.()+,/:=?<>@#*-]+)*$`;

/** Characters an Accept or Content-Type parameter name is made of. */
const PARAMETER_NAME_CHAR = String.raw`[^\s;,="]`;

/**
 * Any parameter name but `charset`, without look-ahead: a name that leaves the word `charset` at some
 * letter, stops short of it, or runs past it.
 */
function nameOtherThan(word: string): string {
  const branches: string[] = [];
  for (let i = 0; i < word.length; i++) {
    const leave = `[^\\s;,="${word[i]}]${PARAMETER_NAME_CHAR}*`;
    branches.push(i === 0 ? leave : `${word.slice(0, i)}(?:${leave})?`);
  }
  branches.push(`${word}${PARAMETER_NAME_CHAR}+`);
  return `(?:${branches.join('|')})`;
}

/**
 * A media range list as Accept carries it (RFC 9110 §12.5.1), in which a `charset` parameter names an
 * allowed charset: `type/subtype` or `*`, each with `;` parameters (a trailing `;` tolerated), separated by
 * commas. A `charset` that is not allowed, or a value that breaks the grammar, leaves it unmatched. Written
 * for lower-cased values; 922110 reads the Content-Type of multipart parts with it, ignoring case.
 */
export const MEDIA_RANGES = (() => {
  const token = String.raw`[^!"(),/:;<=>?\[\\\]{}\s]+`;
  const charsets = ALLOWED_CHARSETS.join('|');
  const charset = String.raw`charset\s*=\s*(?:"(?:${charsets})"|(?:${charsets}))`;
  const other = String.raw`${nameOtherThan('charset')}\s*=\s*(?:"[^"]*"|[^\s;,"]*)`;
  const range = String.raw`(?:\*|${token}/${token})(?:\s*;\s*(?:${charset}|${other}))*(?:\s*;)?`;
  return String.raw`^\s*(?:${range}(?:\s*,\s*${range})*)?\s*$`;
})();

/** A Range header of at least `count` byte ranges (`bytes=0-1,5-9,…`): one `-` per range. */
const rangesAtLeast = (count: number) => String.raw`(?i)^bytes=(?:[\d\s,]*-){${count}}`;

/** The first `N-M` pair of a Range header: M smaller than N means an invalid last byte. */
const firstRangeReversed = (name: string) => {
  const pair = rawString(String.raw`(\d+)-(\d+)`);
  return `waf_less_than(waf_capture(${header(name)}[0], ${pair}, 2), waf_capture(${header(name)}[0], ${pair}, 1))`;
};

/**
 * User-Agents that may leave Accept out (browser engines: 920300) or send it empty (those and the mobile
 * app frameworks whose builds say Business or Enterprise: 920310).
 */
const BROWSER_ENGINE = '(?i)applewebkit|android';
const EMPTY_ACCEPT_CLIENT = '(?i)applewebkit|android|business|enterprise|entreprise';

export const PROTOCOL_ENFORCEMENT_RULES: readonly CrsRule[] = [
  {
    id: 920100,
    description: 'Invalid HTTP Request Line',
    paranoiaLevel: 1,
    severity: 'warning',
    tags: TAGS,
    targets: 'REQUEST_LINE',
    test: { not: { regex: REQUEST_LINE } },
  },
  {
    id: 920120,
    description: 'Attempted multipart/form-data bypass',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: TAGS,
    targets: 'FILES|FILES_NAMES',
    transformations: 'urlDecodeUni',
    test: { not: { regex: multipartName(String.raw`'";=\\`) } },
  },
  {
    id: 920122,
    description: 'Attempted multipart/form-data bypass',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: TAGS,
    // Before CRS 4.6, 920120 and 920122 shared this test: quotes, `;` and `=` outside the HTML entities
    // forms send. 4.6 merged them into 920120 and added the backslash, which this one leaves alone.
    targets: 'FILES|FILES_NAMES',
    transformations: 'urlDecodeUni',
    test: { not: { regex: multipartName(`'";=`) } },
  },
  {
    id: 920160,
    description: 'Content-Length HTTP header is not numeric',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: TAGS,
    targets: 'REQUEST_HEADERS:Content-Length',
    test: { not: { regex: String.raw`^\d+$` } },
  },
  {
    id: 920170,
    description: 'GET or HEAD Request with Body Content',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: TAGS,
    // A Content-Length that announces a body: anything but empty or 0.
    targets: 'REQUEST_HEADERS:Content-Length',
    test: { not: { operator: 'in', literal: '{"" "0"}' } },
    and: 'http.request.method in {"GET" "HEAD"}',
  },
  {
    id: 920171,
    description: 'GET or HEAD Request with Transfer-Encoding',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: TAGS,
    expression: `http.request.method in {"GET" "HEAD"} and ${hasHeader('transfer-encoding')}`,
  },
  {
    id: 920180,
    description: 'POST without Content-Length and Transfer-Encoding headers',
    paranoiaLevel: 1,
    severity: 'warning',
    tags: TAGS,
    // A sample request carries no implicit header (docs/request.md): one written with a body stands for a
    // client that sent its length. What is left is a POST with neither a length header nor a body.
    expression: `${HTTP1} and http.request.method eq "POST" and not ${hasHeader('content-length')} and not ${hasHeader('transfer-encoding')} and http.request.body.size eq 0`,
  },
  {
    id: 920181,
    description: 'Content-Length and Transfer-Encoding headers present',
    paranoiaLevel: 1,
    severity: 'warning',
    tags: TAGS,
    // Request smuggling: front end and back end may each believe a different one. Cloudflare's edge sees
    // both headers as sent (a server such as Apache httpd drops Content-Length before its WAF runs).
    expression: `${hasHeader('transfer-encoding')} and ${hasHeader('content-length')}`,
  },
  {
    id: 920190,
    description: 'Range: Invalid Last Byte Value',
    paranoiaLevel: 1,
    severity: 'warning',
    tags: TAGS,
    // CRS reads Range; its earlier releases, and its tests, also read the obsolete Request-Range.
    expression: `${firstRangeReversed('range')} or ${firstRangeReversed('request-range')}`,
  },
  {
    id: 920660,
    description: 'Obsolete Request-Range header detected',
    paranoiaLevel: 1,
    severity: 'warning',
    tags: TAGS,
    expression: hasHeader('request-range'),
  },
  {
    id: 920210,
    description: 'Multiple/Conflicting Connection Header Data Found',
    paranoiaLevel: 1,
    severity: 'warning',
    tags: TAGS,
    targets: 'REQUEST_HEADERS:Connection',
    // Two connection options where one is expected: `keep-alive,close`, `close, close`.
    test: { regex: String.raw`\b(?:keep-alive|close),\s?(?:keep-alive|close)\b` },
  },
  {
    id: 920220,
    description: 'URL Encoding Abuse Attack Attempt',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: TAGS,
    // An escape that is still broken once the target is decoded (`%25zz` reads `%zz`), before the last
    // `/` of the path or in the query. The last segment is 920221's.
    targets: 'REQUEST_URI_RAW',
    transformations: 'urlDecodeUni',
    test: {
      regex: String.raw`(?s)^[^?]*${BROKEN_ESCAPE}[^?]*/|\?.*${BROKEN_ESCAPE}`,
    },
  },
  {
    id: 920221,
    description: 'URL Encoding Abuse Attack Attempt',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: TAGS,
    // The last path segment, unless it looks like a file name (an extension after its last dot), which
    // may hold a `%` of its own (`50%off.png`).
    expression: (() => {
      const basename = `${transformed('REQUEST_BASENAME', 'urlDecodeUni')}[*]`;
      return `any(${basename} matches ${rawString(BROKEN_ESCAPE)} and not ${basename} matches ${rawString(String.raw`\.[^\s.]+$`)})`;
    })(),
  },
  {
    id: 920250,
    description: 'UTF8 Encoding Abuse Attack Attempt',
    paranoiaLevel: 1,
    severity: 'warning',
    tags: TAGS,
    // CRS validates UTF-8 only when a site sets tx.crs_validate_utf8_encoding (crs-setup rule 900950,
    // default off); these rules apply it. Overlong forms (%c0%af), truncated sequences and code points above
    // U+10FFFF hide characters from byte-wise checks.
    expression: `any(not waf_valid_utf8(${transformed('REQUEST_FILENAME|ARGS|ARGS_NAMES')}[*]))`,
  },
  {
    id: 920260,
    description: 'Unicode Full/Half Width Abuse Attack Attempt',
    paranoiaLevel: 1,
    severity: 'warning',
    tags: ['application-multi', 'language-multi', 'platform-iis', 'platform-windows', 'attack-protocol'],
    targets: 'REQUEST_URI|REQUEST_BODY',
    // IIS's %uFFxx: full-width forms that IIS folds to ASCII (%uff0f is `/`).
    test: { regex: '(?i)%uff[0-9a-f]{2}' },
  },
  {
    id: 920270,
    description: 'Invalid character in request (null character)',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: TAGS,
    expression: byteOutside('REQUEST_URI_RAW|REQUEST_HEADERS|ARGS|ARGS_NAMES', 'urlDecodeUni', '1-255'),
  },
  {
    id: 920280,
    description: 'Request Missing a Host Header',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: TAGS,
    expression: `${HTTP1} and not ${hasHeader('host')}`,
  },
  {
    id: 920290,
    description: 'Empty Host Header',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: TAGS,
    targets: 'REQUEST_HEADERS:Host',
    test: { operator: 'eq', literal: '""' },
  },
  {
    id: 920310,
    description: 'Request Has an Empty Accept Header',
    paranoiaLevel: 1,
    severity: 'notice',
    tags: TAGS,
    // OPTIONS requests need no Accept; without a User-Agent, 920311 applies.
    targets: 'REQUEST_HEADERS:Accept',
    test: { operator: 'eq', literal: '""' },
    and: `http.request.method ne "OPTIONS" and any(not ${header('user-agent')}[*] matches ${rawString(EMPTY_ACCEPT_CLIENT)})`,
  },
  {
    id: 920311,
    description: 'Request Has an Empty Accept Header',
    paranoiaLevel: 1,
    severity: 'notice',
    tags: TAGS,
    targets: 'REQUEST_HEADERS:Accept',
    test: { operator: 'eq', literal: '""' },
    and: `http.request.method ne "OPTIONS" and not ${hasHeader('user-agent')}`,
  },
  {
    id: 920330,
    description: 'Empty User Agent Header',
    paranoiaLevel: 1,
    severity: 'notice',
    tags: TAGS,
    targets: 'REQUEST_HEADERS:User-Agent',
    test: { operator: 'eq', literal: '""' },
  },
  {
    id: 920340,
    description: 'Content-Type header missing from request with non-zero Content-Length',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: TAGS,
    targets: 'REQUEST_HEADERS:Content-Length',
    test: { operator: 'ne', literal: '"0"' },
    and: `not ${hasHeader('content-type')}`,
  },
  {
    id: 920341,
    description: 'Request containing content requires Content-Type header',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: TAGS,
    // CRS 3.3's critical sibling of 920340, when that one was a notice: without a Content-Type no body
    // processor reads the body, and the rules that inspect arguments see none.
    targets: 'REQUEST_HEADERS:Content-Length',
    test: { operator: 'ne', literal: '"0"' },
    and: `not ${hasHeader('content-type')}`,
  },
  {
    id: 920350,
    description: 'Host header is a numeric IP address',
    paranoiaLevel: 1,
    severity: 'warning',
    tags: TAGS,
    targets: 'REQUEST_HEADERS:Host',
    // IPv4 (digits and dots), IPv6 in brackets, or IPv6 without them (two colons at least, so that a name
    // made of hex letters with a port, `cafe:8080`, is not one), with an optional port.
    test: {
      regex: String.raw`(?i)^(?:[\d.]+|\[[\da-f:.]+\]|[\da-f]*:[\da-f]*:[\da-f:.]*)(?::\d+)?$`,
    },
  },
  {
    id: 920380,
    description: 'Too many arguments in request',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: TAGS,
    expression: `len(waf.args.names) gt ${MAX_NUM_ARGS}`,
  },
  {
    id: 920360,
    description: 'Argument name too long',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: TAGS,
    expression: `any(len(waf.args.names[*])[*] gt ${ARG_NAME_LENGTH})`,
  },
  {
    id: 920370,
    description: 'Argument value too long',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: TAGS,
    expression: `any(len(waf.args.values[*])[*] gt ${ARG_LENGTH})`,
  },
  {
    id: 920390,
    description: 'Total arguments size exceeded',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: TAGS,
    expression: `waf.args.combined_size gt ${TOTAL_ARG_LENGTH}`,
  },
  {
    id: 920400,
    description: 'Uploaded file size too large',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: TAGS,
    // CRS compares the Content-Length a multipart upload declares; the body's own size is what it declares.
    expression: `waf.request.body.processor eq "MULTIPART" and http.request.body.size gt ${MAX_FILE_SIZE}`,
  },
  {
    id: 920410,
    description: 'Total uploaded files size too large',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: TAGS,
    expression: `waf.files.combined_size gt ${COMBINED_FILE_SIZES}`,
  },
  {
    id: 920470,
    description: 'Illegal Content-Type header',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: TAGS,
    targets: 'REQUEST_HEADERS:Content-Type',
    transformations: 'lowercase',
    test: { not: { regex: CONTENT_TYPE } },
  },
  {
    id: 920471,
    description: 'Illegal Content-Type header',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: TAGS,
    // A parameter given twice (`charset=utf-8;charset=utf-7`): the body parser and the WAF may each take a
    // different one.
    targets: 'REQUEST_HEADERS:Content-Type',
    transformations: 'lowercase',
    test: {
      regex: `(?s)${CONTENT_TYPE_PARAMETERS.map((name) => String.raw`;\s*${name}\s*=.*;\s*${name}\s*=`).join('|')}`,
    },
  },
  {
    id: 920420,
    description: 'Request content type is not allowed by policy',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: TAGS,
    targets: 'REQUEST_HEADERS:Content-Type',
    transformations: 'lowercase',
    // The media type is what comes before the first `;` or space; a value that has none names no type.
    test: {
      not: {
        regex: `^(?:$|;|(?:${ALLOWED_CONTENT_TYPES.map((type) => type.replaceAll('+', '\\+')).join('|')})(?:[;\\s]|$))`,
      },
    },
  },
  {
    id: 920480,
    description: 'Request content type charset is not allowed by policy',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: TAGS,
    // The first charset of the Content-Type, quotes aside (920530 catches a second one).
    expression: (() => {
      const contentType = `${header('content-type')}[0]`;
      const charset = rawString(String.raw`(?i)charset\s*=\s*["']?([^;"'\s]+)`);
      return `${contentType} matches ${charset} and not lower(waf_capture(${contentType}, ${charset}, 1)) in ${set(ALLOWED_CHARSETS)}`;
    })(),
  },
  {
    id: 920530,
    description: 'Multiple charsets detected in content type header',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: TAGS,
    targets: 'REQUEST_HEADERS:Content-Type',
    transformations: 'lowercase',
    // Two charsets, wherever the second hides (another parameter, a quoted boundary): parsers disagree on
    // which one counts.
    test: { regex: 'charset.*?charset' },
  },
  {
    id: 920640,
    description: 'Content-Type header missing from request with body',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: TAGS,
    // An empty Content-Type says no more than a missing one.
    expression: `http.request.body.size gt 0 and not any(${header('content-type')}[*] ne "")`,
  },
  {
    id: 920430,
    description: 'HTTP protocol version is not allowed by policy',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: TAGS,
    targets: 'REQUEST_PROTOCOL',
    test: { not: { operator: 'in', literal: set(ALLOWED_HTTP_VERSIONS) } },
  },
  {
    id: 920440,
    description: 'URL file extension is restricted by policy',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: TAGS,
    targets: 'REQUEST_BASENAME',
    transformations: 'urlDecodeUni',
    // The text after the last dot of the file name.
    test: { regex: `(?i)\\.(?:${RESTRICTED_EXTENSIONS.join('|')})$` },
  },
  {
    id: 920500,
    description: 'Attempt to access a backup or working file',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: TAGS,
    targets: 'REQUEST_FILENAME',
    transformations: 'urlDecodeUni',
    // An editor's backup copy: a file name with an extension, then `~` (`index.php~`), at the end of the
    // path or before a further segment; `/~user/` has no extension before its `~`.
    test: { regex: String.raw`\.[^.~]+~(?:/.*)?$` },
  },
  {
    id: 920450,
    description: 'HTTP header is restricted by policy',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: TAGS,
    targets: 'REQUEST_HEADERS_NAMES',
    transformations: 'lowercase',
    test: { operator: 'in', literal: set(RESTRICTED_HEADERS_BASIC) },
  },
  {
    id: 920520,
    description: 'Accept-Encoding header exceeded sensible length',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: TAGS,
    // Every coding there is fits in 100 bytes; more is the HTTP.sys overflow of CVE-2022-21907.
    expression: `any(len(${header('accept-encoding')}[*])[*] gt 100)`,
  },
  {
    id: 920600,
    description: 'Illegal Accept header: charset parameter',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: TAGS,
    targets: 'REQUEST_HEADERS:Accept',
    transformations: 'lowercase',
    // A response in a charset the site's filters do not read (IBM EBCDIC code pages, UTF-16…) can smuggle
    // what they look for.
    test: { not: { regex: MEDIA_RANGES } },
  },
  {
    id: 920601,
    description: 'Illegal Accept-Charset header',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: TAGS,
    // Browsers stopped sending Accept-Charset long ago; a server that picks the response's charset from
    // it can be made to answer in one the site's filters do not read (920600's concern, by another header).
    expression: hasHeader('accept-charset'),
  },
  {
    id: 920540,
    description: 'Possible Unicode character bypass detected',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: TAGS,
    targets: 'REQUEST_URI|REQUEST_HEADERS|ARGS|ARGS_NAMES',
    // A JavaScript `\uXXXX` escape, which a back end may decode after the WAF has looked. A JSON body's
    // parser decodes these itself, so JSON requests are left alone, as CRS does with a rule of its own that
    // logs nothing and only removes this one (920539, numbered 920541 before): here it is this condition.
    test: { regex: String.raw`(?i)\\u[0-9a-f]{4}` },
    and: 'waf.request.body.processor ne "JSON"',
  },
  {
    id: 920610,
    description: 'Raw (unencoded) fragment in request URI',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: TAGS,
    // Clients never send the fragment; a literal `#` in the target is meant for a parser, not a browser.
    targets: 'REQUEST_URI_RAW',
    test: { operator: 'contains', literal: '"#"' },
  },
  {
    id: 920620,
    description: 'Multiple Content-Type Request Headers',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: TAGS,
    // Each reader may pick a different one. Cloudflare sees repeated headers as sent (a server such as
    // Apache httpd joins them into one before its WAF runs).
    expression: `len(${header('content-type')}) gt 1`,
  },
  {
    id: 920200,
    description: 'Range: Too many fields (6 or more)',
    paranoiaLevel: 2,
    severity: 'warning',
    tags: TAGS,
    // Many small ranges make a server do much work for one request (Apache Killer); PDF readers ask for
    // many ranges legitimately (920201, 920202). CRS reads Range; its tests also send Request-Range.
    targets: 'REQUEST_HEADERS:Range|REQUEST_HEADERS:Request-Range',
    test: { regex: rangesAtLeast(6) },
    and: 'not ends_with(waf.request.basename, ".pdf")',
  },
  {
    id: 920201,
    description: 'Range: Too many fields for pdf request (63 or more)',
    paranoiaLevel: 2,
    severity: 'warning',
    tags: TAGS,
    targets: 'REQUEST_HEADERS:Range|REQUEST_HEADERS:Request-Range',
    test: { regex: rangesAtLeast(63) },
    and: `any(ends_with(${transformed('REQUEST_BASENAME', 'urlDecodeUni')}[*], ".pdf"))`,
  },
  {
    id: 920230,
    description: 'Multiple URL Encoding Detected',
    paranoiaLevel: 2,
    severity: 'warning',
    tags: TAGS,
    // Arguments are decoded once; an escape left after that was encoded twice.
    targets: 'ARGS',
    test: { regex: '%[0-9a-fA-F]{2}' },
  },
  {
    id: 920271,
    description: 'Invalid character in request (non printable characters)',
    paranoiaLevel: 2,
    severity: 'critical',
    tags: TAGS,
    expression: byteOutside(
      'REQUEST_URI_RAW|REQUEST_HEADERS|ARGS|ARGS_NAMES',
      'urlDecodeUni',
      '9,10,13,32-126,128-255',
    ),
  },
  {
    id: 920320,
    description: 'Missing User Agent Header',
    paranoiaLevel: 2,
    severity: 'notice',
    tags: TAGS,
    expression: `not ${hasHeader('user-agent')}`,
  },
  {
    id: 920121,
    description: 'Attempted multipart/form-data bypass',
    paranoiaLevel: 2,
    severity: 'critical',
    tags: TAGS,
    targets: 'FILES_NAMES|FILES',
    transformations: 'urlDecodeUni',
    test: { regex: `['";=\\\\]` },
  },
  {
    id: 920451,
    description: 'HTTP header is restricted by policy',
    paranoiaLevel: 2,
    severity: 'critical',
    tags: TAGS,
    targets: 'REQUEST_HEADERS_NAMES',
    transformations: 'lowercase',
    test: { operator: 'in', literal: set(RESTRICTED_HEADERS_EXTENDED) },
  },
  {
    id: 920240,
    description: 'URL Encoding Abuse Attack Attempt',
    paranoiaLevel: 2,
    severity: 'warning',
    tags: TAGS,
    // A url-encoded body with a `%` that starts no escape: parsers disagree on what it stands for.
    expression:
      'waf.request.body.processor eq "URLENCODED" and waf.request.body contains "%" and not waf_valid_url_encoding(waf.request.body)',
  },
  {
    id: 920650,
    description: 'HTTP method override attempt via _method parameter',
    paranoiaLevel: 2,
    severity: 'critical',
    tags: TAGS,
    // Frameworks (Rails, Laravel, Symfony) take `_method` for the method, past method restrictions and
    // CSRF checks. CRS's tx.allow_method_override_parameter is off by default, so the rule is on.
    expression: (() => {
      const overrides = transformed('ARGS:_method', 'urlDecodeUni,lowercase');
      return `any(${overrides}[*] matches r"^[a-z]{3,10}$") and not has_value(${overrides}, lower(http.request.method))`;
    })(),
  },
  {
    id: 920441,
    description: 'URL file extension is restricted by policy',
    paranoiaLevel: 2,
    severity: 'critical',
    tags: TAGS,
    targets: 'REQUEST_BASENAME',
    transformations: 'urlDecodeUni',
    test: { regex: extensionIn(ARCHIVE_EXTENSIONS) },
  },
  {
    id: 920550,
    description: 'URL file extension is restricted by policy',
    paranoiaLevel: 2,
    severity: 'critical',
    tags: TAGS,
    // Archives, backups of site builders (`.wpress`) and data or configuration exports: what scanners ask
    // for by the thousand. The name is decoded, so an escaped dot (`backup%2ezip`) is one.
    targets: 'REQUEST_BASENAME',
    transformations: 'urlDecodeUni',
    test: { regex: extensionIn([...ARCHIVE_EXTENSIONS, ...EXPORT_EXTENSIONS]) },
  },
  {
    id: 920630,
    description: 'Encoded slash in request path',
    paranoiaLevel: 2,
    severity: 'critical',
    tags: TAGS,
    // `%2F` in the path, which a server may decode into a separator after the WAF and the router have read
    // one segment (`/..%2F..%2Fetc`); in the query it is ordinary.
    targets: 'REQUEST_FILENAME',
    test: { regex: '(?i)%2f' },
  },
  {
    id: 920272,
    description: 'Invalid character in request (outside of printable chars below ascii 127)',
    paranoiaLevel: 3,
    severity: 'critical',
    tags: TAGS,
    expression: byteOutside(
      'REQUEST_URI_RAW|REQUEST_HEADERS|ARGS|ARGS_NAMES|REQUEST_BODY',
      'urlDecodeUni',
      '32-36,38-126',
    ),
  },
  {
    id: 920300,
    description: 'Request Missing an Accept Header',
    paranoiaLevel: 3,
    severity: 'notice',
    tags: TAGS,
    expression: `not ${hasHeader('accept')} and not http.request.method in {"OPTIONS" "CONNECT"} and any(not ${header('user-agent')}[*] matches ${rawString(BROWSER_ENGINE)})`,
  },
  {
    id: 920490,
    description:
      "Request header x-up-devcap-post-charset detected in combination with prefix 'UP' to User-Agent",
    paranoiaLevel: 3,
    severity: 'critical',
    tags: ['language-aspnet', 'platform-windows', 'attack-protocol'],
    // ASP.NET reads a form in the charset this Openwave header names when the User-Agent starts with UP.
    targets: 'REQUEST_HEADERS:User-Agent',
    test: { regex: '(?i)^up' },
    and: hasHeader('x-up-devcap-post-charset'),
  },
  {
    id: 920510,
    description: 'Invalid Cache-Control request header',
    paranoiaLevel: 3,
    severity: 'critical',
    tags: ['application-multi', 'language-multi', 'platform-multi', 'attack-protocol', 'header-allowlist'],
    targets: 'REQUEST_HEADERS:Cache-Control',
    // Only the request directives of RFC 9111 §5.2.1, one to seven of them, separated by commas.
    test: {
      not: {
        regex: String.raw`^(?:(?:max-age=\d+|min-fresh=\d+|no-cache|no-store|no-transform|only-if-cached|max-stale(?:=\d+)?)(?:\s*,\s*|$)){1,7}$`,
      },
    },
  },
  {
    id: 920521,
    description: 'Illegal Accept-Encoding header',
    paranoiaLevel: 3,
    severity: 'critical',
    tags: TAGS,
    targets: 'REQUEST_HEADERS:Accept-Encoding',
    transformations: 'lowercase',
    // At least one content coding there is, or nothing at all.
    test: {
      not: {
        regex: String.raw`^$|br|compress|deflate|gzip|identity|\*|aes128gcm|exi|zstd`,
      },
    },
  },
  {
    id: 920442,
    description: 'URL file extension is restricted by policy',
    paranoiaLevel: 3,
    severity: 'critical',
    tags: TAGS,
    targets: 'REQUEST_BASENAME',
    transformations: 'urlDecodeUni',
    test: { regex: extensionIn(DOCUMENT_EXTENSIONS) },
  },
  {
    id: 920202,
    description: 'Range: Too many fields for pdf request (6 or more)',
    paranoiaLevel: 4,
    severity: 'warning',
    tags: TAGS,
    targets: 'REQUEST_HEADERS:Range|REQUEST_HEADERS:Request-Range',
    test: { regex: rangesAtLeast(6) },
    and: `any(ends_with(${transformed('REQUEST_BASENAME', 'urlDecodeUni')}[*], ".pdf"))`,
  },
  {
    id: 920273,
    description: 'Invalid character in request (outside of very strict set)',
    paranoiaLevel: 4,
    severity: 'critical',
    tags: TAGS,
    // Letters, digits and `& , - . : = _` only.
    expression: byteOutside(
      'ARGS|ARGS_NAMES|REQUEST_BODY',
      'urlDecodeUni',
      '38,44-46,48-58,61,65-90,95,97-122',
    ),
  },
  {
    id: 920274,
    description: 'Invalid character in request headers (outside of very strict set)',
    paranoiaLevel: 4,
    severity: 'critical',
    tags: TAGS,
    // Letters, digits, space and `" & * + , - . / : ; = _`, in every header but those whose values
    // legitimately hold more (credentials, cookies, addresses, URLs, client hints, signatures).
    expression: byteOutside(
      'REQUEST_HEADERS|!REQUEST_HEADERS:Authorization|!REQUEST_HEADERS:Cookie|!REQUEST_HEADERS:From|!REQUEST_HEADERS:Referer|!REQUEST_HEADERS:Sec-CH-UA|!REQUEST_HEADERS:Sec-CH-UA-Mobile|!REQUEST_HEADERS:Sec-Fetch-User|!REQUEST_HEADERS:Signature-Input|!REQUEST_HEADERS:User-Agent',
      'urlDecodeUni',
      '32,34,38,42-59,61,65-90,95,97-122',
    ),
  },
  {
    id: 920275,
    description: 'Invalid character in request headers (outside of very strict set)',
    paranoiaLevel: 4,
    severity: 'critical',
    tags: TAGS,
    // Structured-header booleans: `?0` or `?1`.
    targets: 'REQUEST_HEADERS:Sec-Fetch-User|REQUEST_HEADERS:Sec-CH-UA-Mobile',
    transformations: 'urlDecodeUni',
    test: { not: { regex: String.raw`^(?:\?[01])?$` } },
  },
  {
    id: 920276,
    description: 'Invalid character in request headers (outside of very strict set)',
    paranoiaLevel: 4,
    severity: 'critical',
    tags: TAGS,
    // Client hints, credentials, signatures and proxy headers, whose values hold quotes, parentheses, `;`,
    // `=` or `~` (920274's set is too strict for them), held to printable ASCII without the `%` of an escape,
    // the `<` `>` of markup and the `{` `}` of a template. User-Agent, Referer and Cookie legitimately hold
    // all of these and are left out.
    targets:
      'REQUEST_HEADERS:Authorization|REQUEST_HEADERS:From|REQUEST_HEADERS:Sec-CH-UA|REQUEST_HEADERS:Sec-CH-UA-Mobile|REQUEST_HEADERS:Sec-CH-UA-Model|REQUEST_HEADERS:Sec-CH-UA-Platform|REQUEST_HEADERS:Sec-CH-UA-Platform-Version|REQUEST_HEADERS:Sec-CH-UA-Full-Version|REQUEST_HEADERS:Sec-CH-UA-Full-Version-List|REQUEST_HEADERS:Sec-CH-UA-Arch|REQUEST_HEADERS:Sec-CH-UA-Bitness|REQUEST_HEADERS:Sec-Fetch-User|REQUEST_HEADERS:Signature-Input|REQUEST_HEADERS:Via|REQUEST_HEADERS:Forwarded',
    test: { not: { regex: String.raw`^[\x20-\x24\x26-\x3b\x3d\x3f-\x7a\x7c\x7e]*$` } },
  },
  {
    id: 920460,
    description: 'Abnormal character escapes in request',
    paranoiaLevel: 4,
    severity: 'critical',
    tags: TAGS,
    targets: 'REQUEST_URI|REQUEST_HEADERS|ARGS|ARGS_NAMES',
    transformations: 'htmlEntityDecode,lowercase',
    // A backslash before a letter or digit it does not make special (`\c`, `\d`, `\p`): shells and some
    // decoders drop it, so `cat /etc/pa\ssw\d` still reads the file. `\\` is an escaped backslash.
    test: { regex: String.raw`(?:^|[^\\])\\[cdeghijklmpqwxyz1-9]` },
  },
];
