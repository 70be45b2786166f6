import type { CrsRule } from '../crs.js';

/**
 * CRS 930: local file inclusion. A path that climbs out of the directory the application meant (`../`,
 * written in any of the encodings servers and frameworks decode), the names of operating-system files an
 * attacker reads that way, and requests for files that must never be served from a web root.
 */

const TAGS = ['application-multi', 'language-multi', 'platform-multi', 'attack-lfi'];

/**
 * A `%` as it reaches a server that decodes once more than the WAF: `%`, or `%25` (double encoding), any
 * number of times.
 */
const PCT = '%(?:25)*';

/**
 * One dot of a traversal, as written on the wire: `.` (an IIS trick adds `%00`, `%01` or `?` after it), the
 * hex literal `0x2e`, `%2e` (also double-encoded, or with a percent-encoded digit: `%%32%65`), `%u002e` and
 * the Unicode look-alikes that decoders fold to a dot (U+FF0E fullwidth full stop, U+2024 one dot
 * leader), and overlong UTF-8 (`%c0%ae`, `%e0%80%ae`, … and the lax `%c0.`), also as raw bytes.
 */
const DOT = [
  String.raw`\.(?:%0[01]|\?)?`,
  '0x2e',
  `${PCT}(?:2|%32)(?:e|%[46]5)`,
  `${PCT}u(?:002e|ff0e|2024)`,
  `${PCT}c0(?:\\.|${PCT}[0-9a-f]e)`,
  `${PCT}(?:e0|f0${PCT}80|f8${PCT}80${PCT}80|fc${PCT}80${PCT}80${PCT}80)${PCT}80${PCT}ae`,
  String.raw`\xc0\xae`,
  String.raw`\xe0\x80\xae`,
].join('|');

/**
 * One separator of a traversal: `/` or `\`, `0x2f`/`0x5c`, `%2f`/`%5c` (double-encoded, or with a
 * percent-encoded digit), `%u002f`/`%u005c` and their look-alikes (U+2215 division slash, U+2216 set minus,
 * U+FF0F and U+FF3C fullwidth forms, and the code points old IIS versions folded to a slash), overlong
 * UTF-8 (`%c0%af`, `%c1%9c`, longer forms) with the invalid hex digits lax decoders accept (`%c0%qf`,
 * `%c1%pc`), also as raw bytes.
 */
const SEP = [
  String.raw`[/\\]`,
  '0x(?:2f|5c)',
  `${PCT}(?:(?:2|%32)(?:f|%[46]6)|(?:5|%35)(?:c|%[46]3))`,
  `${PCT}u(?:002f|005c|2215|2216|ff0f|ff3c|efc8|f025)`,
  `${PCT}c0${PCT}(?:[0-9a-f]f|5c|qf|9v)`,
  `${PCT}c1${PCT}(?:[0-9a-f]c|af|pc|8s)`,
  `${PCT}(?:e0|f0${PCT}80|f8${PCT}80${PCT}80|fc${PCT}80${PCT}80${PCT}80)${PCT}80${PCT}af`,
  `${PCT}e0${PCT}81${PCT}9c`,
  String.raw`\xc0\xaf|\xc1\x9c`,
].join('|');

/** Two or three dots between separators (`/../`, `\...\`, `%2f%2e%2e%5c`); a value may also start with them. */
const ENCODED_TRAVERSAL = `(?i)(?:^|=|${SEP})(?:${DOT})(?:${DOT})(?:${DOT})?(?:${SEP})`;

/** Where CRS looks for a traversal: the request line's URI as sent, every argument and header, files. */
const TRAVERSAL_TARGETS = 'REQUEST_URI_RAW|ARGS|REQUEST_HEADERS|!REQUEST_HEADERS:Referer|FILES|XML:/*';

export const LFI_RULES: readonly CrsRule[] = [
  {
    id: 930100,
    description: 'Path Traversal Attack (/../) or (/.../)',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: TAGS,
    targets: TRAVERSAL_TARGETS,
    transformations: 'none',
    // On the value as sent, so that each encoding is seen as written.
    test: { regex: ENCODED_TRAVERSAL },
  },
  {
    id: 930110,
    description: 'Path Traversal Attack (/../) or (/.../)',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: TAGS,
    targets: TRAVERSAL_TARGETS,
    transformations: 'none,utf8toUnicode,urlDecodeUni,removeNulls,cmdLine',
    multiMatch: true,
    // Decoded, and tested after each step (cmdLine drops `\` and turns `;` into a space): two or more dots
    // with a separator on both sides, or at the start of a value or of a `name=value` inside one. `;` is
    // one for Tomcat (`/..;/`). A name that only contains dots (`foo../`, `/..foo`, a bare `/..`) is not a
    // traversal.
    test: { regex: String.raw`(?:^|[/;=\\])\.{2,}[/;\\]` },
  },
  {
    id: 930120,
    description: 'OS File Access Attempt',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: TAGS,
    targets: 'REQUEST_COOKIES|REQUEST_COOKIES_NAMES|ARGS_NAMES|ARGS|XML:/*',
    transformations: 'none,utf8toUnicode,urlDecodeUni,normalizePathWin',
    test: { phrases: 'lfi-os-files' },
  },
  {
    id: 930130,
    description: 'Restricted File Access Attempt',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: TAGS,
    targets: 'REQUEST_FILENAME',
    transformations: 'none,utf8toUnicode,urlDecodeUni,normalizePathWin',
    test: { phrases: 'lfi-restricted-files' },
  },
  {
    id: 930140,
    description: 'Restricted File Access Attempt: AI Coding Assistant Artifact',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: TAGS,
    targets: 'REQUEST_FILENAME',
    transformations: 'none,utf8toUnicode,urlDecodeUni,normalizePathWin',
    test: { phrases: 'lfi-ai-artifacts' },
  },
  {
    id: 930121,
    description: 'OS File Access Attempt in REQUEST_HEADERS',
    paranoiaLevel: 2,
    severity: 'critical',
    tags: TAGS,
    targets: 'REQUEST_HEADERS:Referer|REQUEST_HEADERS:User-Agent',
    transformations: 'none,utf8toUnicode,urlDecodeUni,normalizePathWin',
    test: { phrases: 'lfi-os-files' },
  },
];
