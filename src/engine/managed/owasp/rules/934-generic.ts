import { rawString } from '../../inputs.js';
import { targetValues } from '../../targets.js';
import { type CrsRule, crsExpression } from '../crs.js';
import { URL_SCHEMES } from './931-rfi.js';
import { wordAlternation } from './alternation.js';

/**
 * CRS 934: generic application attacks. Code for server-side JavaScript (Node.js deserialization and
 * injection, prototype pollution, endless loops), Ruby and Perl; server-side request forgery (cloud
 * metadata, internal hosts, IP addresses written to slip past filters, PHP's data: scheme); template
 * injection; ORM filter injection; unsigned JWTs.
 */

const TAGS_NODE = [
  'application-multi',
  'language-javascript',
  'platform-nodejs',
  'attack-rce',
  'attack-injection-generic',
];
const TAGS_SSRF = ['application-multi', 'language-multi', 'platform-multi', 'attack-ssrf'];

/** What most rules of the family inspect: cookies, arguments and XML, names included. */
const GENERIC_TARGETS = 'REQUEST_COOKIES|REQUEST_COOKIES_NAMES|ARGS_NAMES|ARGS|XML:/*|XML://@*';
/** The same, and the path. */
const GENERIC_TARGETS_AND_PATH =
  'REQUEST_FILENAME|REQUEST_COOKIES|REQUEST_COOKIES_NAMES|ARGS_NAMES|ARGS|XML:/*|XML://@*';

/** File system and child_process methods, as reached through `process.` in injected Node.js code. */
const NODE_METHODS =
  'access|appendFile|chmod|chown|close|copyFile|cp|createReadStream|createWriteStream|exec|execFile|exists|fchmod|fchown|fdatasync|fstat|fsync|futimes|lchmod|link|lstat|lutimes|mkdir|mkdtemp|open|opendir|read|readdir|readFile|readlink|readv|rename|rm|rmdir|spawn|stat|symlink|truncate|unlink|unwatchFile|utimes|watchFile|write|writeFile|writev';

/**
 * Markers of injected or deserialized Node.js code (whitespace is also tested removed, so `\s*` between
 * tokens covers both readings).
 */
const NODE_INJECTION = [
  // node-serialize's and funcster's serialized functions (CVE-2017-5941).
  String.raw`_\$\$ND_FUNC\$\$_|__js_function`,
  // Building and running code.
  String.raw`\beval\s*\(|\bnew\s*Function\s*\(|String\s*\.\s*fromCharCode|function\s*\(\s*\)\s*\{`,
  // Reaching Function through constructors, or the module system.
  String.raw`this\s*\.\s*constructor|constructor\s*[.:]\s*constructor|module\s*\.\s*exports\s*=`,
  String.raw`["'\x60]child_process["'\x60]`,
  String.raw`require\s*\.\s*(?:resolve|main|extensions|cache)\b`,
  String.raw`\b(?:process|require|global|globalThis|mainModule)\s*\[`,
  // The process object: its bindings, environment and modules, and file or process calls through it.
  String.raw`process\s*\.\s*(?:binding|_linkedBinding|constructor|dlopen|env|global|main(?:Module)?|process|require)\b`,
  String.raw`process\s*\.\s*(?:${NODE_METHODS})(?:Sync)?\s*(?:\.\s*(?:call|apply)\s*)?\(`,
  // console used to leak data (`console.log(process.env)`), called or reached by name.
  String.raw`console\s*\.\s*(?:debug|dir|error|info|log|table|trace|warn)\s*(?:\.\s*(?:call|apply)\s*)?\(|console\s*\[\s*["'\x60]`,
].join('|');

/**
 * A `while` whose condition is a constant that is always true: any number of `!` before a falsy literal
 * (`!0`, `!""`, `!!null`), or an even number before a truthy one (`true`, `1`, `this`, `new Date`, `[]`,
 * `{}`, a non-empty string, a built-in such as `String`). `while(!true)` and `while (foo)` pass.
 */
const ENDLESS_LOOP = String.raw`while\s*[(\s]*\(\s*(?:!+\s*(?:false|null|undefined|NaN|[+-]?0|""|''|\x60\x60)|(?:!\s*!\s*)*(?:true|this|[+-]?Infinity|[+-]?[1-9][0-9]*|new\s+[A-Za-z_$]|(?:window|globalThis|String|Boolean|Function|Object|Array|Date|Math|JSON)\b|\{|\[|"[^"]|'[^']|\x60[^\x60]))[^)]*\)`;

/** Hosts written so that a filter comparing names or dotted quads misses them (934120). */
const OBFUSCATED_HOST = [
  // A number with a hex part (0x7f000001, 0xA9.0xFE.0xA9.0xFE) or an octal one (0177.0.0.01).
  String.raw`(?:(?:0x[0-9a-f]+|[0-9]+)\.){0,3}(?:0x[0-9a-f]+|0[0-7]+)(?:\.(?:0x[0-9a-f]+|[0-9]+)){0,3}(?:[/?#:\\]|$)`,
  // A dotless decimal (2852039166) or a short form whose last part spans several bytes (169.254.43518).
  String.raw`(?:[0-9]{7,}|[0-9]{1,3}\.(?:[0-9]{1,3}\.)?[0-9]{4,})(?:[/?#:\\]|$)`,
  // An IPv6 literal, also with an IPv4 tail or a zone ([::1], [::ffff:169.254.169.254], [fe80::1%eth0]).
  String.raw`\[[0-9a-f:.]*:[0-9a-f:.]*(?:%[^\]]*)?\]`,
  // A name spelled with escapes that glibc's resolver drops (\l\o\c\a\l\h\o\s\t).
  String.raw`\\+[a-z0-9]\\+[a-z0-9]`,
  // An authority that URL parsers split differently: a space, & or # before an @ (a.com:80 &@b.com).
  String.raw`[^/\s@]*[\s&#][^/]*@`,
  // Enclosed alphanumerics (①②⑦, ⓛⓞⓒⓐⓛ) and ideographic or fullwidth full stops, which name
  // resolution folds to digits, letters and dots.
  String.raw`[^/?#\s]*(?:\xe2(?:\x91[\xa0-\xbf]|\x92[\x80-\xbf]|\x93[\x80-\xbf])|\xe3\x80\x82|\xef\xbc\x8e|\xef\xbd\xa1)`,
].join('|');

/** Django-style ORM lookups (`field__lookup`) that filter on what a caller should not see. */
const ORM_LOOKUPS =
  'i?startswith|i?endswith|i?exact|i?contains|i?regex|isnull|in|range|gte?|lte?|has_(?:any_)?keys?|contained_by';

/** A lookup at the end of a parameter name, or of a JSON key in a body (`"a__b": …`). */
const ORM_END = String.raw`(?:$|"\s*:)`;

/** The JWT of a Bearer header, after `Bearer` (the header's whitespace removed), Base64-decoded. */
const JWT_HEADER = (() => {
  const [header] = targetValues('REQUEST_HEADERS:Authorization');
  return `waf_transform("base64Decode", substring(waf_transform("removeWhitespace", ${header})[*], 6))`;
})();

/**
 * Inside a template expression that 934200 leaves alone, up to its closing `stop`: no `(`, `*` nor `_` (so
 * no `__`), and arithmetic between two numbers (`7+7`, `9 - 2`, `8/2`; `9%4` but in ERB, where `%` closes).
 */
const arithmeticOnly = (stop: string, operators: string) =>
  String.raw`[^${stop}(*_]*?\d\s*[${operators}]\s*\d[^${stop}(*_]*`;

/**
 * 934175, the number CRS first gave 934200: template expressions that compute, as 934200 does not read
 * them. Arithmetic without `*` in Jinja/Twig, Ruby or EL and ERB ({{7+7}}, #{9-2}, <%= 8/2 %>), and
 * Spring EL and Thymeleaf's `${…}` and `*{…}` computing, calling or reaching internals (${7*7},
 * ${T(java.lang.Runtime)}, *{''.__class__}). A `${name}` placeholder passes.
 */
const TEMPLATE_LEFTOVERS = [
  String.raw`\{\{${arithmeticOnly('}', '-+/%')}\}\}`,
  String.raw`#\{${arithmeticOnly('}', '-+/%')}\}`,
  String.raw`<%=?${arithmeticOnly('%', '-+/')}%>`,
  String.raw`[$*]\{[^{}]*(?:[(*]|__|\d\s*[-+/%]\s*\d)[^{}]*\}`,
].join('|');

/** 934130; 934131, its CRS 4.0 release-candidate sibling, tests what it leaves. */
const PROTOTYPE_POLLUTION: CrsRule = {
  id: 934130,
  description: 'JavaScript Prototype Pollution',
  paranoiaLevel: 1,
  severity: 'critical',
  tags: [
    'application-multi',
    'language-javascript',
    'platform-multi',
    'attack-rce',
    'attack-injection-generic',
  ],
  targets: GENERIC_TARGETS,
  transformations: 'none,urlDecodeUni,jsDecode',
  multiMatch: true,
  // `__proto__`, or a constructor's prototype by property or index (`a[constructor][prototype]`),
  // mostly in parameter names that a merge turns into object paths.
  test: { regex: String.raw`__proto__|constructor\s*(?:\.|\]?\s*\[)\s*["'\x60]?\s*prototype` },
};

/** 934200; 934175, its number before CRS renumbered it, tests what it leaves. */
const TEMPLATE_INJECTION: CrsRule = {
  id: 934200,
  description: 'Server-Side Template Injection (SSTI) Attack',
  paranoiaLevel: 1,
  severity: 'critical',
  tags: ['application-multi', 'platform-multi', 'attack-ssti', 'attack-injection-generic'],
  targets: GENERIC_TARGETS,
  transformations: 'none,urlDecodeUni',
  // A template expression that computes or calls (`(`, `*`) or reaches Python's internals (`__`):
  // {{7*7}}, {{''.__class__}}, #{7*7}, <%= system('id') %>. A plain {{name}} or <%= title %> passes.
  test: {
    regex: String.raw`\{\{[^}]*(?:[(*]|__)[^}]*\}|#\{[^}]*(?:[(*]|__)[^}]*\}|<%=?[^%]*(?:[(*]|__)[^%]*%>`,
  },
};

export const GENERIC_RULES: readonly CrsRule[] = [
  {
    id: 934100,
    description: 'Node.js Injection Attack 1/2',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: TAGS_NODE,
    targets: GENERIC_TARGETS_AND_PATH,
    transformations:
      'none,urlDecodeUni,jsDecode,removeWhitespace,base64Decode,urlDecodeUni,jsDecode,removeWhitespace',
    multiMatch: true,
    test: { regex: NODE_INJECTION },
  },
  {
    id: 934110,
    description:
      'Possible Server Side Request Forgery (SSRF) Attack: Cloud provider metadata URL in Parameter',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: TAGS_SSRF,
    targets: GENERIC_TARGETS_AND_PATH,
    transformations: 'none',
    test: { phrases: 'ssrf-cloud-metadata' },
  },
  {
    id: 934190,
    description:
      'Possible Server Side Request Forgery (SSRF) Attack: Scheme-less localhost or internal hostname detected',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: TAGS_SSRF,
    targets: GENERIC_TARGETS_AND_PATH,
    transformations: 'none',
    // Frameworks that add `http://` to a bare host name fetch `localhost/admin` just the same.
    test: { phrases: 'ssrf-internal-hosts' },
  },
  PROTOTYPE_POLLUTION,
  {
    id: 934150,
    description: 'Ruby Injection Attack',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: ['application-multi', 'language-ruby', 'platform-multi', 'attack-rce', 'attack-injection-generic'],
    targets: GENERIC_TARGETS,
    transformations: 'none',
    // Ruby's ways to start a process, called with parentheses or with a string.
    test: {
      regex: String.raw`\b(?:Process\s*\.\s*spawn|Kernel\s*\.\s*(?:exec|spawn|system|open)|IO\s*\.\s*popen|Open3\s*\.\s*(?:popen[23e]?|capture[23e]?|pipeline\w*))\s*[("'%\x60]`,
    },
  },
  {
    id: 934160,
    description: 'Node.js DoS attack',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: TAGS_NODE,
    targets: GENERIC_TARGETS_AND_PATH,
    transformations: 'none,urlDecodeUni,jsDecode,base64Decode,urlDecodeUni,jsDecode,replaceComments',
    multiMatch: true,
    // Node.js runs one thread: an endless loop stops the whole server.
    test: { regex: ENDLESS_LOOP },
  },
  {
    id: 934170,
    description: 'PHP data scheme attack',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: ['application-multi', 'language-php', 'platform-multi', 'attack-ssrf'],
    targets: GENERIC_TARGETS_AND_PATH,
    transformations: 'none,urlDecodeUni',
    // A value that is a data: URI of text or code (PHP's include and fopen open `data:text/plain,<?php…`;
    // PHP needs no `//`). Images, sound, video and fonts are what applications legitimately take as data:
    // URIs (avatars, uploads), and PHP runs no code from them unless another file includes it.
    test: {
      regex: String.raw`(?i)^(?:json\.)?data:(?:\*|(?:text|application|message|multipart|model|x-[\w.+-]*|\*)/[\w.+*-]+)(?:[;,]|$)`,
    },
  },
  TEMPLATE_INJECTION,
  {
    // CRS main before 934200 took its place: what 934200 leaves (TEMPLATE_LEFTOVERS), and only when it
    // has not matched, so that one template expression scores once at level 1.
    id: 934175,
    description: 'Server-Side Template Injection (SSTI) Attack',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: TEMPLATE_INJECTION.tags,
    targets: GENERIC_TARGETS,
    transformations: 'none,urlDecodeUni',
    test: { regex: TEMPLATE_LEFTOVERS },
    and: `not (${crsExpression(TEMPLATE_INJECTION)})`,
  },
  {
    id: 934230,
    description: 'JWT alg:none Attack Detected',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: ['application-multi', 'language-multi', 'platform-multi', 'attack-generic', 'attack-jwt'],
    targets: 'REQUEST_HEADERS:Authorization',
    transformations: 'none',
    // A Bearer JWT whose header asks for no signature ("alg":"none"), so that any claims are accepted.
    expression: `any(${targetValues('REQUEST_HEADERS:Authorization')[0]}[*] matches ${rawString(String.raw`(?i)^bearer\s+eyJ[-\w]+\.`)})`,
    and: `any(${JWT_HEADER}[*] matches ${rawString(String.raw`(?i)\balg\W*:\W*none\b`)})`,
  },
  {
    id: 934101,
    description: 'Node.js Injection Attack 2/2',
    paranoiaLevel: 2,
    severity: 'critical',
    tags: TAGS_NODE,
    targets: GENERIC_TARGETS_AND_PATH,
    transformations: 'none,urlDecodeUni,jsDecode,base64Decode,urlDecodeUni,jsDecode',
    multiMatch: true,
    // Process, file and socket methods called on an object (`lol(x).spawn(`, `fs.write(`), and loading a
    // module or starting a process by a bare call: `require(`, or `spawn (` with a string argument
    // ("spawn (create) worlds" is prose).
    test: {
      regex: String.raw`\.(?:close|exists|fork|open|read|spawn|watch|write)(?:Sync)?\s*\(|\b(?:require|spawn|fork)(?:\(|\s+\(\s*["'\x60])`,
    },
  },
  {
    id: 934120,
    description: 'Possible Server Side Request Forgery (SSRF) Attack: URL Parameter using IP Address',
    paranoiaLevel: 2,
    severity: 'critical',
    tags: TAGS_SSRF,
    targets: 'REQUEST_COOKIES|REQUEST_COOKIES_NAMES|REQUEST_FILENAME|ARGS_NAMES|ARGS|XML:/*|XML://@*',
    transformations: 'none',
    // A URL whose host is an obfuscated address or name (OBFUSCATED_HOST).
    test: { regex: `(?i)(?:${wordAlternation(URL_SCHEMES)}):/{0,2}(?:${OBFUSCATED_HOST})` },
  },
  {
    // CRS 4.0's release candidates: an object's constructor reached by index (`x[constructor][y]`), also
    // Base64-encoded; only when 934130 has not matched, so that `a[constructor][prototype]` scores once.
    id: 934131,
    description: 'JavaScript Prototype Pollution',
    paranoiaLevel: 2,
    severity: 'critical',
    tags: PROTOTYPE_POLLUTION.tags,
    targets: 'REQUEST_COOKIES|!REQUEST_COOKIES:/__utm/|REQUEST_COOKIES_NAMES|ARGS_NAMES|ARGS|XML:/*',
    transformations: 'none,urlDecodeUni,base64Decode',
    multiMatch: true,
    test: { regex: String.raw`\[\s*["'\x60]?\s*constructor\s*["'\x60]?\s*\]` },
    and: `not (${crsExpression(PROTOTYPE_POLLUTION)})`,
  },
  {
    id: 934140,
    description: 'Perl Injection Attack',
    paranoiaLevel: 2,
    severity: 'critical',
    tags: ['application-multi', 'language-perl', 'platform-multi', 'attack-rce', 'attack-injection-generic'],
    targets: GENERIC_TARGETS,
    transformations: 'none',
    // Code run inside an interpolated string: "@{[ system 'id' ]}".
    test: { regex: String.raw`@+\{\s*\[` },
  },
  {
    id: 934180,
    description: 'SSTI Attack',
    paranoiaLevel: 2,
    severity: 'critical',
    tags: ['application-multi', 'platform-multi', 'attack-ssti', 'attack-injection-generic'],
    targets: GENERIC_TARGETS,
    transformations: 'none',
    // Template statements ({% … %}, <% … %>), and expressions that compute, with the braces spread apart
    // ({ { 7*7 } }) as some engines still read them.
    test: {
      regex: String.raw`\{%[^%}]*%\}|<%=?[^%>]*%>|\{\s*\{[^{}]*(?:[(*]|__)[^{}]*\}\s*\}`,
    },
  },
  {
    id: 934220,
    description: 'ORM Lookup Operator Injection via Nested Traversal',
    paranoiaLevel: 2,
    severity: 'critical',
    tags: ['application-multi', 'platform-multi', 'attack-injection-generic'],
    targets: 'ARGS_NAMES|REQUEST_BODY',
    transformations: 'none,urlDecodeUni',
    // A lookup through relations (`user__profile__email__startswith`): filters on other tables' fields.
    test: { regex: String.raw`\w__[^"&=,\s]*__(?:${ORM_LOOKUPS})${ORM_END}` },
  },
  {
    id: 934210,
    description: 'ORM Lookup Operator Injection',
    paranoiaLevel: 3,
    severity: 'critical',
    tags: ['application-multi', 'platform-multi', 'attack-injection-generic'],
    targets: 'ARGS_NAMES|REQUEST_BODY',
    transformations: 'none,urlDecodeUni',
    // Any lookup (`password__startswith`), which filter libraries also accept legitimately: level 3.
    test: { regex: String.raw`\w__(?:${ORM_LOOKUPS})${ORM_END}` },
  },
];
