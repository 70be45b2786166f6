import { PHRASE_LISTS } from '../../../../scheme/waf-phrase-lists/index.js';
import type { CrsRule } from '../crs.js';
import { wordAlternation } from './alternation.js';

/**
 * CRS 933: PHP injection. PHP code in a parameter — an open tag, a call of a function, a variable
 * function, a superglobal, a serialized object — or a php.ini directive, a PHP stream wrapper, a PHP
 * script or session file uploaded.
 *
 * The function rules fire on calls, not on names: prose that mentions `phpinfo` or "the system (Linux)"
 * passes; `phpinfo()`, `system ('id')` and `system/**\/('id')` are caught.
 */

const TAGS = ['application-multi', 'language-php', 'platform-multi', 'attack-injection-php'];

/** What most rules of the family inspect. */
const PHP_TARGETS = 'REQUEST_COOKIES|REQUEST_COOKIES_NAMES|ARGS_NAMES|ARGS|XML:/*';
/** The same, and the path: function calls are also sent in path segments. */
const PHP_TARGETS_AND_PATH = 'REQUEST_COOKIES|REQUEST_COOKIES_NAMES|REQUEST_FILENAME|ARGS_NAMES|ARGS|XML:/*';
/** Uploaded file names: multipart parts, and the headers AJAX uploaders send the name in. */
const UPLOAD_TARGETS =
  'FILES|REQUEST_HEADERS:X-Filename|REQUEST_HEADERS:X_Filename|REQUEST_HEADERS:X.Filename|REQUEST_HEADERS:X-File-Name';

/** A PHP comment between a name and its `(`: `/* … *\/`, or `//` or `#` to the end of the line. */
const COMMENT = String.raw`/\*(?s:.)*?\*/|(?://|#)[^\n]*\n`;

/**
 * The argument list of a call, `(…)`, not `(s)`: "file(s)" and "system(s)" are prose.
 */
const ARGUMENTS = String.raw`\((?:[^)s][^)]*|s[^)]+)?\)`;

/**
 * What separates a function name from the `(` of its call. Code writes them together (`eval(`); an
 * attacker hides the call with line breaks, tabs, runs of spaces or comments (`exec\t(`,
 * `exec/*x*\/(`); prose puts one space (`the file (PDF)`), so after one space the arguments must look like
 * code: empty, or starting with a variable, a string, a call or an array. A name written as a string or in
 * parentheses is called right after it: `"system"(…)`, `('system')(…)`, `(system)(…)`.
 */
const CALL = [
  String.raw`(?:(?:\s*["'])+\s*\)?|\))${ARGUMENTS}`,
  String.raw`\s*(?:[\t\n\v\f\r]|\x20\x20|${COMMENT})(?:\s|${COMMENT})*${ARGUMENTS}`,
  ARGUMENTS,
  String.raw`\x20\(\s*(?:\)|[$"'\x60@(\[\\][^)]*\))`,
].join('|');

/**
 * What may come before a called function's name: not a letter, digit or `_` (the name is a word), and
 * not a `.` right after a name, which makes it a method of a JavaScript or Python object (`fs.readFile(`,
 * `re.exec(`). PHP's concatenation (`'.system('id').'`, `x().system(…)`) still counts.
 */
const BEFORE_NAME = String.raw`(?:^|[^\w.]|(?:^|\W)\.)`;

/**
 * Functions whose call in a parameter is PHP code at work: code evaluation and process execution, file
 * writes and reads, and the small helpers obfuscated payloads are built from (`chr`, `ord`, `substr`…).
 */
const CALLED_FUNCTIONS = [
  'assert',
  'assert_options',
  'create_function',
  'eval',
  'exec',
  'system',
  'passthru',
  'popen',
  'proc_open',
  'shell_exec',
  'pcntl_exec',
  'dl',
  'file',
  'fopen',
  'fputs',
  'fwrite',
  'file_put_contents',
  'readfile',
  'unlink',
  'mkdir',
  'opendir',
  'glob',
  'tmpfile',
  'stat',
  'filegroup',
  'fileowner',
  'imagegif',
  'imagejpeg',
  'imagepng',
  'imagewbmp',
  'imagewebp',
  'imagexbm',
  'chr',
  'ord',
  'md5',
  'substr',
  'rtrim',
  'unpack',
  'usort',
  'uasort',
  'uksort',
  'printf',
  'strip_tags',
  'is_a',
  'prev',
  'exp',
];

/**
 * Short, common functions (maths, dates, arrays, strings, files) whose call is PHP but which plenty of
 * other languages and texts also write: paranoia level 3.
 */
const COMMON_FUNCTIONS = [
  'abs',
  'acos',
  'asin',
  'atan',
  'basename',
  'ceil',
  'checkdate',
  'chroot',
  'compact',
  'constant',
  'copy',
  'cos',
  'cosh',
  'count',
  'crypt',
  'current',
  'date',
  'decoct',
  'define',
  'defined',
  'dir',
  'end',
  'explode',
  'extract',
  'fileatime',
  'filectime',
  'fileinode',
  'filemtime',
  'fileperms',
  'filesize',
  'filetype',
  'flock',
  'floor',
  'flush',
  'hash',
  'header',
  'idate',
  'implode',
  'join',
  'key',
  'link',
  'log',
  'mail',
  'max',
  'min',
  'next',
  'pack',
  'pi',
  'pos',
  'pow',
  'rand',
  'range',
  'readlink',
  'rename',
  'reset',
  'round',
  'serialize',
  'shuffle',
  'sin',
  'sizeof',
  'sleep',
  'sort',
  'split',
  'sqrt',
  'symlink',
  'syslog',
  'tan',
  'time',
  'touch',
  'trim',
  'ucfirst',
  'uniqid',
  'virtual',
];

/** Directives of php.ini that change what PHP runs, includes, reveals or allows. */
const INI_DIRECTIVES = [
  'allow_url_fopen',
  'allow_url_include',
  'always_populate_raw_post_data',
  'asp_tags',
  'auto_append_file',
  'auto_detect_line_endings',
  'auto_globals_jit',
  'auto_prepend_file',
  'browscap',
  'default_charset',
  'default_mimetype',
  'default_socket_timeout',
  'disable_classes',
  'disable_functions',
  'display_errors',
  'display_startup_errors',
  'doc_root',
  'docref_ext',
  'docref_root',
  'enable_dl',
  'enable_post_data_reading',
  'engine',
  'error_append_string',
  'error_log',
  'error_prepend_string',
  'error_reporting',
  'exit_on_timeout',
  'expose_php',
  'extension',
  'extension_dir',
  'file_uploads',
  'hard_timeout',
  'html_errors',
  'ignore_repeated_errors',
  'ignore_repeated_source',
  'ignore_user_abort',
  'implicit_flush',
  'include_path',
  'input_encoding',
  'internal_encoding',
  'log_errors',
  'log_errors_max_len',
  'magic_quotes_gpc',
  'magic_quotes_runtime',
  'magic_quotes_sybase',
  'max_execution_time',
  'max_file_uploads',
  'max_input_nesting_level',
  'max_input_time',
  'max_input_vars',
  'max_multipart_body_parts',
  'memory_limit',
  'open_basedir',
  'output_buffering',
  'output_encoding',
  'output_handler',
  'post_max_size',
  'precision',
  'realpath_cache_size',
  'realpath_cache_ttl',
  'register_argc_argv',
  'register_globals',
  'register_long_arrays',
  'report_memleaks',
  'request_order',
  'safe_mode',
  'safe_mode_exec_dir',
  'safe_mode_gid',
  'safe_mode_include_dir',
  'sendmail_from',
  'sendmail_path',
  'serialize_precision',
  'short_open_tag',
  'smtp',
  'smtp_port',
  'sys_temp_dir',
  'track_errors',
  'unserialize_callback_func',
  'unserialize_max_depth',
  'upload_max_filesize',
  'upload_tmp_dir',
  'user_agent',
  'user_dir',
  'variables_order',
  'xmlrpc_error_number',
  'xmlrpc_errors',
  'zend_extension',
];

/**
 * Directives of a section whose name is an ordinary word (`session`, `date`, `mail`…), by section: only
 * the directives themselves, so that `session.user = …` in a script does not count.
 */
const INI_SECTION_DIRECTIVES: Readonly<Record<string, readonly string[]>> = {
  arg_separator: ['input', 'output'],
  assert: ['active', 'bail', 'callback', 'exception', 'quiet_eval', 'warning'],
  cgi: [
    'check_shebang_line',
    'discard_path',
    'fix_pathinfo',
    'force_redirect',
    'nph',
    'redirect_status_env',
    'rfc2616_headers',
  ],
  com: ['allow_dcom', 'autoregister_casesensitive', 'autoregister_typelib', 'code_page', 'typelib_file'],
  curl: ['cainfo'],
  date: ['default_latitude', 'default_longitude', 'sunrise_zenith', 'sunset_zenith', 'timezone'],
  exif: ['decode_unicode_intel', 'decode_unicode_motorola', 'encode_jis', 'encode_unicode'],
  fastcgi: ['impersonate', 'logging'],
  filter: ['default', 'default_flags'],
  highlight: ['bg', 'comment', 'default', 'html', 'keyword', 'string'],
  iconv: ['input_encoding', 'internal_encoding', 'output_encoding'],
  intl: ['default_locale', 'error_level', 'use_exceptions'],
  ldap: ['max_links'],
  mail: ['add_x_header', 'force_extra_parameters', 'log', 'mixed_lf_and_crlf'],
  openssl: ['cafile', 'capath'],
  session: [
    'auto_start',
    'bug_compat_42',
    'bug_compat_warn',
    'cache_expire',
    'cache_limiter',
    'cookie_domain',
    'cookie_httponly',
    'cookie_lifetime',
    'cookie_path',
    'cookie_samesite',
    'cookie_secure',
    'entropy_file',
    'entropy_length',
    'gc_divisor',
    'gc_maxlifetime',
    'gc_probability',
    'hash_bits_per_character',
    'hash_function',
    'lazy_write',
    'name',
    'referer_check',
    'save_handler',
    'save_path',
    'serialize_handler',
    'sid_bits_per_character',
    'sid_length',
    'trans_sid_hosts',
    'trans_sid_tags',
    'upload_progress.cleanup',
    'upload_progress.enabled',
    'upload_progress.freq',
    'upload_progress.min_freq',
    'upload_progress.name',
    'upload_progress.prefix',
    'use_cookies',
    'use_only_cookies',
    'use_strict_mode',
    'use_trans_sid',
  ],
  soap: ['wsdl_cache', 'wsdl_cache_dir', 'wsdl_cache_enabled', 'wsdl_cache_limit', 'wsdl_cache_ttl'],
  sql: ['safe_mode'],
};

/** Sections only PHP's extensions have: any directive of theirs. */
const INI_SECTIONS = [
  'apc',
  'bcmath',
  'ibase',
  'mbstring',
  'mssql',
  'mysql',
  'mysqli',
  'mysqlnd',
  'oci8',
  'odbc',
  'opcache',
  'pcre',
  'pdo_mysql',
  'pdo_odbc',
  'pgsql',
  'phar',
  'sqlite3',
  'sybct',
  'url_rewriter',
  'user_ini',
  'xdebug',
  'zend',
  'zlib',
];

const INI_NAME = [
  wordAlternation([
    ...INI_DIRECTIVES,
    ...Object.entries(INI_SECTION_DIRECTIVES).flatMap(([section, names]) =>
      names.map((name) => `${section}.${name}`),
    ),
  ]),
  `(?:${wordAlternation(INI_SECTIONS)})\\.[a-z0-9_.]+`,
].join('|');

/** Indexes of $_SERVER that give a script what the client sent or where it runs (case as PHP writes them). */
const SERVER_INDEXES = [
  'AUTH_TYPE',
  'DOCUMENT_ROOT',
  'GATEWAY_INTERFACE',
  'HTTP_ACCEPT',
  'HTTP_ACCEPT_CHARSET',
  'HTTP_ACCEPT_ENCODING',
  'HTTP_ACCEPT_LANGUAGE',
  'HTTP_CONNECTION',
  'HTTP_COOKIE',
  'HTTP_HOST',
  'HTTP_KEEP_ALIVE',
  'HTTP_REFERER',
  'HTTP_USER_AGENT',
  'HTTP_X_FORWARDED_FOR',
  'ORIG_PATH_INFO',
  'PATH_INFO',
  'PATH_TRANSLATED',
  'PHP_AUTH_DIGEST',
  'PHP_AUTH_PW',
  'PHP_AUTH_USER',
  'PHP_SELF',
  'QUERY_STRING',
  'REMOTE_ADDR',
  'REMOTE_HOST',
  'REMOTE_PORT',
  'REMOTE_USER',
  'REQUEST_METHOD',
  'REQUEST_SCHEME',
  'REQUEST_TIME',
  'REQUEST_TIME_FLOAT',
  'REQUEST_URI',
  'SCRIPT_FILENAME',
  'SCRIPT_NAME',
  'SERVER_ADDR',
  'SERVER_ADMIN',
  'SERVER_NAME',
  'SERVER_PORT',
  'SERVER_PROTOCOL',
  'SERVER_SIGNATURE',
  'SERVER_SOFTWARE',
];

/** An index or a comment between a variable and the `(` that calls it: `['a']`, `[$b[1]]`, `{0}`, `/**\/`. */
const ACCESS = String.raw`\[(?:[^\[\]]|\[[^\]]*\])*\]|\{[^}]*\}|${COMMENT}`;

/** A variable function call (933180); see the rule. */
const VARIABLE_CALL = [
  String.raw`\$+(?:[a-zA-Z_\x7f-\xff][\w\x7f-\xff]*|\s*\{[^}]+\})`,
  String.raw`(?:(?:(?:\s|${ACCESS})*(?:${ACCESS}|[\t\n\v\f\r]|\x20\x20)(?:\s|${ACCESS})*)?\(.*\)`,
  String.raw`|\x20\((?:[^a-zA-Z)].*)?\))`,
].join('');

/**
 * A call of a PHP function through something else than its name (933210, 933211), on a value whose
 * comments and whitespace are gone: `(system)('id')`, `(sy.(st).em)(…)`, `(string)"system"(…)`,
 * `[system][0](…)`, `"\x73ystem"(…)`, `$y(…)`. `end` is what must follow the call's `)`.
 */
function indirectCall(end: string): string {
  const call = String.raw`\(.*\)${end}`;
  // The expression's `(` is not the argument list of a call before it (`queue.shift()()` in a script).
  const start = String.raw`(?:^|[^\w)\]])`;
  return [
    // A parenthesised expression (optionally a quoted name after it) called: `(x)(…)`, `(x)"y"(…)`.
    String.raw`${start}\(.+\)(?:["'][\w-]+["'])?${call}`,
    // A cast to string and what it casts, called: `(string)"sys"."tem"(…)`, `(string){[system][0]}(…)`.
    String.raw`${start}\([^)]*string[^)]*\)[\w"'.\[\]{}-]+${call}`,
    // An index, a variable or a quoted name called: `[0](…)`, `{0}(…)`, `$f['a'](…)`, `"\x73ystem"(…)`.
    String.raw`(?:\[\d+\]|\{\d+\}|\$[\w\x7f-\xff]+(?:\[[^\]]*\]|\{[^}]*\})*|["'][\w\\-]+["'])${call}`,
  ].join('|');
}

export const PHP_RULES: readonly CrsRule[] = [
  {
    id: 933100,
    description: 'PHP Injection Attack: PHP Open Tag Found',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: TAGS,
    targets: PHP_TARGETS,
    transformations: 'none',
    // `<?`, `<?php`, `<?=`, but not an XML declaration (`<?xml version=…`; a broken `<?xml:`, `<?xml (`
    // is PHP); the BBCode `[php]` and Smarty `{php}` tags that run their content.
    test: {
      regex: String.raw`(?i)<\?(?:$|[^x]|x(?:$|[^m]|m(?:$|[^l]|l(?:$|\S|\s+(?:$|[^a-z])))))|\[[/\\]?php\]|\{/?php\}`,
    },
  },
  {
    id: 933110,
    description: 'PHP Injection Attack: PHP Script File Upload Found',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: TAGS,
    targets: UPLOAD_TARGETS,
    transformations: 'none,lowercase',
    // A file name with an extension PHP runs, and trailing dots that some servers strip (`a.php..`).
    test: { regex: String.raw`\.(?:php\d*|phtml|phar|phps|pht|phpt)\.*$` },
  },
  {
    id: 933120,
    description: 'PHP Injection Attack: Configuration Directive Found',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: TAGS,
    targets: PHP_TARGETS,
    // Lower-cased rather than matched with (?i): a long list of words is many times faster to search
    // without case folding.
    transformations: 'none,normalizePath,lowercase',
    // `directive=value` (also `directive = value`, not `==`), the directive a word of its own: not a
    // property (`.name`), a variable (`$name`), a member (`->name`) or part of an attribute (`data-name`).
    test: { regex: String.raw`(?:^|[^\w.$>-])(?:${INI_NAME})\s*=[^=]` },
  },
  {
    id: 933130,
    description: 'PHP Injection Attack: Variables Found',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: TAGS,
    targets: PHP_TARGETS,
    transformations: 'none,normalizePath,urlDecodeUni',
    test: { phrases: 'php-variables' },
  },
  {
    id: 933135,
    description: 'PHP Injection Attack: Variable Access Found',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: TAGS,
    targets: PHP_TARGETS_AND_PATH,
    transformations: 'none',
    // A variable variable or complex expression: `${'name'}`, `$ {$a}`, `${ CONSTANT }`, `${'a'.'b'}`.
    // Not an empty `${}`, nor a placeholder of a template (`Hi ${firstName}`, `${user.name}`): a name
    // or a path of names right inside the braces.
    test: {
      regex: String.raw`\$(?:\s+\{\s*[^\s{}]|\{\s+[^\s{}]|\{[^\s{}\w]|\{[\w.]*[^\w.\s{}])[^{}]*\}`,
    },
  },
  {
    id: 933140,
    description: 'PHP Injection Attack: I/O Stream Found',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: TAGS,
    targets: PHP_TARGETS,
    transformations: 'none',
    // php://input reads the request body as code, php://filter reads source files base64-encoded…
    test: { regex: `(?i)php://(?:std(?:in|out|err)|input|output|fd|memory|temp|filter)` },
  },
  {
    id: 933200,
    description: 'PHP Injection Attack: Wrapper scheme detected',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: TAGS,
    targets: PHP_TARGETS,
    transformations: 'none,utf8toUnicode,urlDecodeUni,removeNulls,cmdLine',
    // PHP's stream wrappers that unpack archives, run commands or open remote shells
    // (`compress.zlib://` and `compress.bzip2://` end in `zlib://` and `bzip2://`).
    test: {
      regex: String.raw`(?i)(?:bzip2|expect|glob|ogg|phar|rar|ssh2(?:\.(?:shell|sftp|scp|exec|tunnel))?|zip|zlib)://`,
    },
  },
  {
    id: 933150,
    description: 'PHP Injection Attack: High-Risk PHP Function Name Found',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: TAGS,
    targets: PHP_TARGETS_AND_PATH,
    transformations: 'none',
    // A function of the list, even inside a longer word (`FOOgzinflate(`), followed by its `(` — after
    // whitespace, comments or `=` — so that prose naming a function does not count.
    test: {
      regex: String.raw`(?i)(?:${wordAlternation(PHRASE_LISTS['php-functions-high-risk'] ?? [])})(?:\s|${COMMENT})*=?\s*\(`,
    },
  },
  {
    id: 933160,
    description: 'PHP Injection Attack: High-Risk PHP Function Call Found',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: TAGS,
    targets: PHP_TARGETS_AND_PATH,
    transformations: 'none',
    // A function of the list as a whole word, maybe quoted or parenthesised, and its call (CALL).
    test: { regex: `(?i)${BEFORE_NAME}(?:${wordAlternation(CALLED_FUNCTIONS)})(?:${CALL})` },
  },
  {
    id: 933170,
    description: 'PHP Injection Attack: Serialized Object Injection',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: TAGS,
    targets: 'REQUEST_COOKIES|REQUEST_COOKIES_NAMES|REQUEST_HEADERS|ARGS_NAMES|ARGS|XML:/*',
    transformations: 'none',
    // An object in PHP's serialization format, `O:8:"stdClass":1:{…}` (`C:` for custom serialization):
    // unserialize() builds it and runs its magic methods.
    test: { regex: String.raw`[oOcC]:\d+:".+?":\d+:\{.*\}` },
  },
  {
    id: 933180,
    description: 'PHP Injection Attack: Variable Function Call Found',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: TAGS,
    targets: PHP_TARGETS_AND_PATH,
    transformations: 'none',
    // A variable called as a function: `$f(…)`, `$$f(…)`, `${'f'}(…)`, `$a['b'](…)`, `$a{0}(…)`, with
    // indexes, comments or whitespace between the variable and its `(`. After a single space the
    // arguments must not start with a letter: "$USD (approx. 20)" is prose.
    test: { regex: VARIABLE_CALL },
  },
  {
    id: 933210,
    description: 'PHP Injection Attack: Variable Function Call Found',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: TAGS,
    targets: PHP_TARGETS_AND_PATH,
    transformations: 'none,urlDecodeUni,replaceComments,removeWhitespace',
    // A call through an expression, ended as a statement (`);`), so that "(a) test (b)" in prose passes.
    test: { regex: indirectCall(';') },
  },
  {
    id: 933220,
    description: 'PHP Injection Attack: PHP Session File Upload Attempt',
    paranoiaLevel: 2,
    severity: 'critical',
    tags: TAGS,
    targets: `FILES_NAMES|${UPLOAD_TARGETS}`,
    transformations: 'none,lowercase',
    // A file named as PHP names its session files (`sess_` and the session id), which a later request
    // can load as a session by sending that id in its cookie (CVE-2025-54236, "Session Reaper").
    test: { regex: String.raw`(?:^|[/\\])sess_[a-z0-9,-]{20,256}$` },
  },
  {
    id: 933151,
    description: 'PHP Injection Attack: Medium-Risk PHP Function Name Found',
    paranoiaLevel: 2,
    severity: 'critical',
    tags: TAGS,
    targets: PHP_TARGETS_AND_PATH,
    transformations: 'none',
    test: { calls: 'php-functions-a-j' },
  },
  {
    id: 933152,
    description: 'PHP Injection Attack: Medium-Risk PHP Function Name Found',
    paranoiaLevel: 2,
    severity: 'critical',
    tags: TAGS,
    targets: PHP_TARGETS_AND_PATH,
    transformations: 'none',
    test: { calls: 'php-functions-k-q' },
  },
  {
    id: 933153,
    description: 'PHP Injection Attack: Medium-Risk PHP Function Name Found',
    paranoiaLevel: 2,
    severity: 'critical',
    tags: TAGS,
    targets: PHP_TARGETS_AND_PATH,
    transformations: 'none',
    test: { calls: 'php-functions-r-z' },
  },
  {
    id: 933131,
    description: 'PHP Injection Attack: Variables Found',
    paranoiaLevel: 3,
    severity: 'critical',
    tags: TAGS,
    targets: PHP_TARGETS,
    transformations: 'none,normalizePath,urlDecodeUni',
    // Indexes of $_SERVER, which developers also use as parameter names: paranoia level 3.
    test: { regex: wordAlternation(SERVER_INDEXES) },
  },
  {
    id: 933161,
    description: 'PHP Injection Attack: Low-Value PHP Function Call Found',
    paranoiaLevel: 3,
    severity: 'critical',
    tags: TAGS,
    targets: PHP_TARGETS_AND_PATH,
    transformations: 'none',
    test: {
      regex: `(?i)${BEFORE_NAME}(?:${wordAlternation([...COMMON_FUNCTIONS, ...CALLED_FUNCTIONS])})(?:${CALL})`,
    },
  },
  {
    id: 933111,
    description: 'PHP Injection Attack: PHP Script File Upload Found',
    paranoiaLevel: 3,
    severity: 'critical',
    tags: TAGS,
    targets: UPLOAD_TARGETS,
    transformations: 'none,lowercase',
    // A PHP extension followed by another one (`shell.php.jpg`), which Apache's AddType may still run.
    test: { regex: String.raw`\.(?:php\d*|phtml)\.` },
  },
  {
    id: 933190,
    description: 'PHP Injection Attack: PHP Closing Tag Found',
    paranoiaLevel: 3,
    severity: 'critical',
    tags: TAGS,
    targets: PHP_TARGETS,
    transformations: 'none,urlDecodeUni',
    test: { operator: 'contains', literal: '"?>"' },
  },
  {
    id: 933211,
    description: 'PHP Injection Attack: Variable Function Call Found',
    paranoiaLevel: 3,
    severity: 'critical',
    tags: TAGS,
    targets: PHP_TARGETS_AND_PATH,
    transformations: 'none,urlDecodeUni,replaceComments,removeWhitespace',
    // 933210 without the `;`: an application that wraps the input in a statement adds it.
    test: { regex: indirectCall('') },
  },
];
