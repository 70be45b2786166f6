import { rawString } from '../../inputs.js';
import type { CrsRule } from '../crs.js';
import {
  ALTERABLE,
  ARGS_COOKIES,
  anyOf,
  callOf,
  SQL_ONLY_FUNCTIONS,
  SQLI_TAGS,
  STORED_PROCEDURES,
  transformed,
  words,
} from './942-sqli.js';

/**
 * CRS 942: SQL injection, paranoia levels 2 to 4 (level 1 is in 942-sqli.ts). These rules look for
 * fragments of SQL — an operator, a quote closing a string before a keyword, a function name before `(`,
 * a comment — that an injection is made of but that ordinary input sometimes contains too, which is why
 * they only run at the higher levels.
 */

/** Without Matomo's referrer cookie, whose value is a JSON array of URLs (CRS excludes it the same way). */
const ARGS_COOKIES_NO_PK =
  'REQUEST_COOKIES|!REQUEST_COOKIES:/_pk_ref/|REQUEST_COOKIES_NAMES|ARGS_NAMES|ARGS|XML:/*';

/** A quote of any of SQL's three kinds. */
const Q = `["'\\x60]`;

/** SQL's logical and comparison words, which join an injected condition to the query's. */
const LOGIC = String.raw`(?:\b(?:n?and|x?x?or|not|div|like|between)\b|\|\||&&)`;

/**
 * Functions an attacker calls that are also ordinary words or short common names (`left(`, `count(`,
 * `char(`, `if(`, `version(`): SQLite's core functions, SQL's aggregates and generic scalar functions.
 */
const GENERIC_FUNCTIONS = [
  'abs',
  'acos',
  'acosh',
  'asinh',
  'atanh',
  'avg',
  'bin',
  'cast',
  'ceil',
  'ceiling',
  'changes',
  'char',
  'charset',
  'chr',
  'convert',
  'cos',
  'cosh',
  'count',
  'date',
  'day',
  'decode',
  'default',
  'degrees',
  'dump',
  'elt',
  'encode',
  'encrypt',
  'exp',
  'extract',
  'field',
  'first',
  'floor',
  'format',
  'glob',
  'hour',
  'if',
  'in',
  'insert',
  'interval',
  'is',
  'last',
  'left',
  'length',
  'likelihood',
  'likely',
  'ln',
  'local',
  'log',
  'lower',
  'max',
  'min',
  'minute',
  'mod',
  'month',
  'now',
  'password',
  'pi',
  'position',
  'pow',
  'power',
  'printf',
  'quarter',
  'quote',
  'radians',
  'random',
  'repeat',
  'replace',
  'reverse',
  'right',
  'round',
  'schema',
  'second',
  'sign',
  'sin',
  'sinh',
  'space',
  'std',
  'sum',
  'tan',
  'tanh',
  'time',
  'timestamp',
  'total',
  'trim',
  'trunc',
  'truncate',
  'typeof',
  'unicode',
  'unlikely',
  'upper',
  'user',
  'values',
  'version',
  'week',
  'year',
];

/**
 * 942130 and 942131: two operands (words, numbers, quoted or parenthesised) around a comparison. The first
 * operand is not a tag name (`<p>Hi`, `</b>x` are HTML, not `p > Hi`).
 */
const comparison = (operators: string) =>
  String.raw`(?i)(?:^|[^</\w])[\s'"\x60()]*?\b(\w+)\b[\s'"\x60()]*?(?:${operators})[\s'"\x60()]*?\b(\w+)\b`;
const EQUALITY = comparison(String.raw`<=>|sounds\s+like|r?like|glob|regexp|=`);
const INEQUALITY = comparison(String.raw`<=|>=|<>|!<|!>|!=|<|>|\^|is\s+not|not\s+r?like|not\s+regexp`);

/** The special characters of 942420–942432, as byte ranges: ~ ! @ # $ % ^ & * ( ) - + = { } [ ] | : ; " ' ` < > */
const SPECIAL_BYTES = '33-43,45,58-62,64,91,93,94,96,123-126';

/** A rule counting special characters in each value: at least `threshold` of them. */
function specialCharacters(
  id: number,
  targets: string,
  what: string,
  threshold: number,
  level: 2 | 3 | 4,
): CrsRule {
  return {
    id,
    description: `Restricted SQL Character Anomaly Detection (${what}): # of special characters exceeded (${threshold})`,
    paranoiaLevel: level,
    severity: 'warning',
    tags: SQLI_TAGS,
    targets,
    transformations: 'urlDecodeUni',
    expression: `any(waf_count_bytes(${transformed(targets, 'urlDecodeUni')}[*], "${SPECIAL_BYTES}")[*] ge ${threshold})`,
  };
}

const ARGS_ONLY = 'ARGS_NAMES|ARGS|XML:/*';
const WITH_HEADERS_NO_PK =
  'REQUEST_COOKIES|!REQUEST_COOKIES:/_pk_ref/|REQUEST_COOKIES_NAMES|REQUEST_HEADERS|ARGS_NAMES|ARGS|XML:/*';
const COOKIES_ONLY = 'REQUEST_COOKIES|!REQUEST_COOKIES:/_pk_ref/|REQUEST_COOKIES_NAMES';

/**
 * A string left open, then `and`/`or`: the first opening quote of its kind (an odd one) that a word follows
 * is followed by and/or. Strings opened before it (pairs of quotes) must not start with a word, so prose
 * quoting words ('susan' … ' and) is not read as a string closed early.
 */
const openQuoteThenLogic = (quote: string) =>
  String.raw`^(?:[^${quote}]*${quote}\s*(?:[^\s\w${quote}][^${quote}]*)?${quote})*[^${quote}]*${quote}\s*(?:and|or)\b`;

/**
 * 942440: comment syntax, whole or started. MySQL's `#` after a value (`1#`, `'#`, `) #`) and followed by
 * more text, not the `#` of C#, `{#if}` templates or a Markdown `## heading`.
 */
const COMMENT = String.raw`/\*|\*/|[';]--|--[\s\x0b]|--[^-\n]*-|[\d'"\x60) \t]#.*?\s|\x00`;

export const SQLI_RULES_PL2_PL4: readonly CrsRule[] = [
  {
    // CRS 3.0 to 3.2: a value that starts with a quote or `;`, or ends with a quote — what a tester sends
    // first to see whether a string breaks the query (`'`, `"; x`, `admin'`). Mostly a warning.
    id: 942110,
    description: 'SQL Injection Attack: Common Injection Testing Detected',
    paranoiaLevel: 2,
    severity: 'warning',
    tags: SQLI_TAGS,
    targets: 'REQUEST_COOKIES|!REQUEST_COOKIES:/__utm/|REQUEST_COOKIES_NAMES|ARGS_NAMES|ARGS|XML:/*',
    transformations: 'urlDecodeUni',
    test: { regex: String.raw`^\s*["'\x60;]|["'\x60]\s*$` },
  },
  {
    id: 942120,
    description: 'SQL Injection Attack: SQL Operator Detected',
    paranoiaLevel: 2,
    severity: 'critical',
    tags: SQLI_TAGS,
    targets: 'ARGS_NAMES|ARGS|REQUEST_FILENAME|XML:/*',
    transformations: 'utf8toUnicode,urlDecodeUni',
    test: {
      regex: anyOf([
        String.raw`!=|==|&&|\|\||->|>=|>>|<<|<=|<>`,
        String.raw`\b(?:xor|regexp|rlike|ilike|isnull|notnull)\b`,
        // collate with a quoted or a well-known collation: collate nocase, collate "utf8mb4_bin"
        String.raw`\bcollate\W*(?:U&)?["'\x60]|\bcollate\W+(?:binary|nocase|rtrim|\w*_\w*)\b`,
        String.raw`\b(?:un)?likely\s*\(|\blikelihood\s*\(`,
        String.raw`\bnot\s+between\s+(?:0|["'\x60][^"'\x60]*["'\x60])\s+and\b`,
        String.raw`\bis\s+null\b|\blike\s+null\b|\blike\s+\w+\s+escape\b`,
        // in (1,2) / in ('a') / in ( select …)
        String.raw`(?:^|\W)in[\s+]*\([\s\d"'\x60][^()]*\)`,
        String.raw`[!<=>]\s*all\s*\(`,
      ]),
    },
  },
  {
    id: 942130,
    description: 'SQL Injection Attack: SQL Boolean-based attack detected',
    paranoiaLevel: 2,
    severity: 'critical',
    tags: SQLI_TAGS,
    targets: ARGS_ONLY,
    transformations: 'urlDecodeUni,replaceComments',
    // A tautology: the same operand on both sides of an equality (1=1, 'a'='a', x like x).
    expression: `any(waf_captures_equal(${transformed(ARGS_ONLY, 'urlDecodeUni,replaceComments')}[*], ${rawString(EQUALITY)}))`,
  },
  {
    id: 942131,
    description: 'SQL Injection Attack: SQL Boolean-based attack detected',
    paranoiaLevel: 2,
    severity: 'critical',
    tags: SQLI_TAGS,
    targets: ARGS_ONLY,
    transformations: 'urlDecodeUni,replaceComments',
    multiMatch: true,
    // Always true the other way: different operands on both sides of an inequality (1!=2, 'a'<>'b').
    expression: (() => {
      const values = transformed(ARGS_ONLY, 'urlDecodeUni,replaceComments', true);
      return `any(${values}[*] matches ${rawString(INEQUALITY)} and not waf_captures_equal(${values}[*], ${rawString(INEQUALITY)}))`;
    })(),
  },
  {
    id: 942150,
    description: 'SQL Injection Attack: SQL function name detected',
    paranoiaLevel: 2,
    severity: 'critical',
    tags: SQLI_TAGS,
    targets: ARGS_COOKIES,
    transformations: 'urlDecodeUni',
    // Generic function names, SQLite's, any json… function, and those of 942151 again.
    test: {
      regex: String.raw`(?i)\b(?:json(?:_\w+)?|${words([...GENERIC_FUNCTIONS.filter((name) => name !== 'is'), ...SQL_ONLY_FUNCTIONS])})\W*\(`,
    },
  },
  {
    id: 942180,
    description: 'Detects basic SQL authentication bypass attempts 1/3',
    paranoiaLevel: 2,
    severity: 'critical',
    tags: SQLI_TAGS,
    targets: ARGS_COOKIES,
    transformations: 'urlDecodeUni',
    test: {
      regex: anyOf([
        // a comment opened before a quote (polyglots): /*'  /*`
        String.raw`/\*+${Q}`,
        String.raw`\d${Q}\s+${Q}\s+\d`,
        String.raw`^admin\s*${Q}`,
        // a string closed, then the statement ended or continued: ';  ' like '  ' print
        String.raw`${Q}\s*;`,
        String.raw`${Q}\s*(?:like|print)\W+["'\x60(\w]`,
        String.raw`[\s"'\x60(]\s*glob\W+["'\x60(\w]`,
        String.raw`${Q}\s*\b(?:x?or|and|div|like|between)\b[\w\s-]*[()+,<=>-]\s*["'\x60\d]`,
        String.raw`${Q}\s*(?:[<>~]+|[^\w\s]?=|[+=]+)\s*${Q}`,
        String.raw`\sis\s*0\W`,
        String.raw`\bwhere\s[\s\w.,-]+\s=`,
      ]),
    },
  },
  {
    id: 942200,
    description: 'Detects MySQL comment-/space-obfuscated injections and backtick termination',
    paranoiaLevel: 2,
    severity: 'critical',
    tags: SQLI_TAGS,
    targets:
      'REQUEST_COOKIES|REQUEST_COOKIES_NAMES|REQUEST_HEADERS:User-Agent|REQUEST_HEADERS:Referer|ARGS_NAMES|ARGS|XML:/*',
    transformations: 'urlDecodeUni',
    test: {
      regex: anyOf([
        // a name closed by a quote after a comma: ,name"=  ,col`)
        String.raw`,[\w\s]*${Q}\s*(?:[=;)]|$|--|#)`,
        // a list of SQL values: 'a', 'b'  'x', 0x1a  'x', (5)  ),'y'
        String.raw`['\x60]\s*,\s*(?:['\x60(]|0x[\da-f]|[-+]?\d)`,
        String.raw`[)\d]\s*,\s*['\x60]`,
        String.raw`\Wselect\b.+?\bfrom\b`,
        // MySQL's space() padding: select(space(1))
        String.raw`\b(?:alter|create|truncate|update|rename|delete|desc|drop|insert|select|load)\s*\(\s*space\s*\(`,
      ]),
    },
  },
  {
    id: 942210,
    description: 'Detects chained SQL injection attempts 1/2',
    paranoiaLevel: 2,
    severity: 'critical',
    tags: SQLI_TAGS,
    targets: ARGS_COOKIES,
    transformations: 'urlDecodeUni',
    test: {
      regex: anyOf([
        // a further condition: and x = '  || (a == "  or 1=(
        String.raw`(?:&&|\|\||\b(?:and|between|div|like|nand|not|or|xor|xxor)\b)[\s(]+\w+[\s)]*[!+=]+[\s\d]*["'\x60()=]`,
        String.raw`\d\s*(?:and|between|div|like|or|xor)\s*\d+\s*[+-]`,
        String.raw`\d\s+group\s+by.+\(`,
        String.raw`/\w+;?\s+(?:and|between|div|having|like|or|xor|select)\W`,
        // a statement after a terminator or a comment: ;drop  --alter  ; update users
        String.raw`(?:[#;]|--)\s*(?:alter|drop|(?:insert|update)\s*\w{2,})`,
        String.raw`@.*?=\s*\(\s*select\b`,
        String.raw`\Wset\s*@\w`,
      ]),
    },
  },
  {
    id: 942260,
    description: 'Detects basic SQL authentication bypass attempts 2/3',
    paranoiaLevel: 2,
    severity: 'critical',
    tags: SQLI_TAGS,
    targets: ARGS_COOKIES,
    transformations: 'urlDecodeUni',
    test: {
      regex: anyOf([
        String.raw`${Q}\s*${LOGIC}\s+[\w\s]+=\s*\w+\s*having\s`,
        String.raw`${Q}\s*like\W*["'\x60\d]`,
        String.raw`\w\s+like\s+${Q}`,
        String.raw`like\s*${Q}%`,
        String.raw`\bselect\s+[\w\s"'\x60(),.\[\]-]+?\bfrom\s`,
      ]),
    },
  },
  {
    id: 942300,
    description: 'Detects MySQL comments, conditions and ch(a)r injections',
    paranoiaLevel: 2,
    severity: 'critical',
    tags: SQLI_TAGS,
    targets: ARGS_COOKIES,
    transformations: 'urlDecodeUni',
    test: {
      regex: anyOf([
        String.raw`\)\s*when\s*\d+\s*then\b`,
        // a string closed, then a comment or a brace: '#  '--  '{  (not "#fff" or href="#top")
        String.raw`${Q}\s*(?:#(?:\W|$)|--|\{)`,
        String.raw`/\*!\s?\d+`,
        String.raw`\b(?:binary|cha?r)\s*\(\s*\d`,
        String.raw`\b(?:and|nand|not|or|xor|xxor|div|like|between|regexp|rlike)\s+\w+\(`,
        String.raw`(?:\|\||&&)\s*\w+\(`,
      ]),
    },
  },
  {
    id: 942310,
    description: 'Detects chained SQL injection attempts 2/2',
    paranoiaLevel: 2,
    severity: 'critical',
    tags: SQLI_TAGS,
    targets: ARGS_COOKIES,
    transformations: 'urlDecodeUni',
    test: {
      regex: anyOf([
        String.raw`\(\s*select\s*\w+\s*\(|\bcoalesce\s*\(|\border\s+by\s+if\w*\s*\(`,
        String.raw`\*/from`,
        String.raw`\+\s*\d+\s*\+\s*@`,
        String.raw`\w${Q}\s*(?:[+=@|-]\s*)+[(\d]`,
        String.raw`@@\w+\s*[^\w\s]`,
        String.raw`\W!+${Q}\w`,
        String.raw`${Q};\s*(?:if|while|begin)\b`,
        String.raw`${Q}[\s\d]+=\s*\d`,
        String.raw`[\s(]case\b\W.*?\bwhen[\s(]`,
      ]),
    },
  },
  {
    id: 942330,
    description: 'Detects classic SQL injection probings 1/3',
    paranoiaLevel: 2,
    severity: 'critical',
    tags: SQLI_TAGS,
    targets: ARGS_COOKIES,
    transformations: 'urlDecodeUni',
    test: {
      regex: anyOf([
        String.raw`${Q}\s*\b(?:x?or|div|like|between|and)\b\s*["'\x60]?\d`,
        // escaped characters of a quote, # or =, as text: \x27
        String.raw`\\x(?:2[37]|3d)`,
        // a lone quote: ' or x'
        `^.?${Q}$`,
        // a value that starts with a number or a string and goes on with a condition: 1 or 1-  \"a" and x(
        String.raw`^["'\\]*(?:[\d"']+|[^"']+["'])\s*${LOGIC}\s*[\w"'][!&()+,.@-]`,
        String.raw`[^\w\s]\w+\s*[-|]\s*${Q}\s*\w`,
        String.raw`@\w+\s+(?:and|x?or|div|like|between)\b\s*["'\d]+`,
        String.raw`[^\s\w:]\s*\d\W+[^\w\s]\s*${Q}.`,
        String.raw`\Winformation_schema|\btable_name\W`,
      ]),
    },
  },
  {
    id: 942340,
    description: 'Detects basic SQL authentication bypass attempts 3/3',
    paranoiaLevel: 2,
    severity: 'critical',
    tags: SQLI_TAGS,
    targets: ARGS_COOKIES,
    transformations: 'urlDecodeUni',
    test: {
      regex: anyOf([
        String.raw`\bin\s*\(+\s*select\b`,
        String.raw`(?:\b(?:n?and|x?x?or|not|div|like|between)\s+|\|\||&&)[\s\w+]+(?:regexp\s*\(|sounds\s+like\s*${Q}|[=\d]+x)`,
        // PostgreSQL after a closed string: ' or array[…]  ' or true  ' or x ~ y  ' and x not similar to y
        String.raw`${Q}\s*${LOGIC}\s*(?:array\s*\[|true\b|false\b|\w+\s*!?~|\w+\s+(?:not\s+)?similar\s+to\b)`,
        String.raw`${Q}\s*[%&<=>^]+\d+\s*(?:and|x?or|div|like|between)\s*=`,
        String.raw`\bexcept\s+(?:select\b|values\s*\()`,
      ]),
    },
  },
  {
    id: 942361,
    description: 'Detects basic SQL injection based on keyword alter or union',
    paranoiaLevel: 2,
    severity: 'critical',
    tags: SQLI_TAGS,
    targets: ARGS_COOKIES,
    transformations: 'urlDecodeUni',
    // The value opens with punctuation or digits, then ALTER or UNION: `1' union`, `') alter`.
    test: { regex: String.raw`(?i)^(?:json\.)?[^a-zA-Z_]+\s*\b(?:alter|union)\b` },
  },
  {
    id: 942362,
    description: 'Detects concatenated basic SQL injection and SQLLFI attempts',
    paranoiaLevel: 2,
    severity: 'critical',
    tags: SQLI_TAGS,
    targets: ARGS_COOKIES,
    transformations: 'urlDecodeUni',
    // 942360's shapes, looser: any symbol before an alias, a bare statement keyword after leading punctuation.
    test: {
      regex: anyOf([
        String.raw`(?:alter|create|truncate|update|rename|delete|desc|insert|select|load)\s+(?:char|group_concat|load_file)\s?\(?|end\s*\);`,
        String.raw`[\s(]load_file\s*\(`,
        String.raw`${Q}\s+regexp\W`,
        String.raw`[^a-zA-Z_\s.,]\s+as\b\s*["'\x60\w]+\s*\bfrom\b`,
        String.raw`^(?:json\.)?[^a-zA-Z_]+\s*(?:create\s+\w|(?:delete|desc|drop|insert|select|load|rename|truncate|update)\b|union\s*(?:all|select|distinct)\b|alter\s*(?:${ALTERABLE.join('|')})\b)`,
      ]),
    },
  },
  {
    id: 942370,
    description: 'Detects classic SQL injection probings 2/3',
    paranoiaLevel: 2,
    severity: 'critical',
    tags: SQLI_TAGS,
    targets:
      'REQUEST_COOKIES|REQUEST_COOKIES_NAMES|REQUEST_HEADERS:Referer|REQUEST_HEADERS:User-Agent|ARGS_NAMES|ARGS|XML:/*',
    transformations: 'urlDecodeUni',
    test: {
      regex: anyOf([
        String.raw`${Q}\s*\*.*?\b(?:x?or|div|like|between|and|id)\W+${Q}\d`,
        String.raw`${Q}\s*(?:x?or|div|like|between|and)\s\D+[\w-]+\D*\d`,
        // a string closed, then symbols and another quote or a comment: ' = # '   '? # = --
        String.raw`['\x60]\s*[^\w\s?]+\s*[^\w\s]+\s*['\x60]`,
        String.raw`['\x60]\s*[^\w\s]+\s*[^a-zA-Z\s].*?(?:#|--)`,
        String.raw`${Q}[^*\n]*\*\s*\d`,
        String.raw`\^${Q}`,
        String.raw`[%()*+<>-][\w-]+[^\w\s]+['\x60][^,]`,
      ]),
    },
  },
  {
    id: 942380,
    description: 'SQL Injection Attack',
    paranoiaLevel: 2,
    severity: 'critical',
    tags: SQLI_TAGS,
    targets: ARGS_COOKIES_NO_PK,
    transformations: 'urlDecodeUni',
    test: {
      regex: anyOf([
        String.raw`\bhaving\b\s*(?:\d{1,10}\s*[<=>]|'[^=]{1,10}'[\s'<=>?\[]*)`,
        String.raw`\bexecute(?:\s*\(|\s{1,5}[\w.$]{1,5})`,
        String.raw`\bexists\s*\(\s*select\b`,
        String.raw`\bcreate\s+table\b[^(\n]*\(`,
        String.raw`\blike\W*char\W*\(`,
        String.raw`\bselect\b.*?\bcase\b`,
        String.raw`\bfrom\b.*?limit`,
        String.raw`\border\s+by\b`,
        String.raw`\bexists\s(?:\s*select\b|select\S*(?:if\s?\(|ifnull\s?\(|top|concat)|system\s?\(|having\s+\d+|'[^=]{1,10}')`,
      ]),
    },
  },
  {
    id: 942390,
    description: 'SQL Injection Attack',
    paranoiaLevel: 2,
    severity: 'critical',
    tags: SQLI_TAGS,
    targets: ARGS_COOKIES_NO_PK,
    transformations: 'urlDecodeUni',
    // OR / XOR and a number or a short string compared: or 1=1, ' or 'a'<, xor 5>, or 88
    test: {
      regex: String.raw`(?i)\bx?or\b\s?(?:\d{1,10}|["'][^=]{1,10}["'])\s?[<=>]+|\bor\s+(?:\d{1,10}|'[^=]{1,10}')|\bxor\s*(?:\d{1,10}|'[^=]{1,10}')|'\s+x?or\s+[^\s!+\-<=>]+(?:\s+[^\s!+\-<=>]+)?\s*[!+\-<=>]`,
    },
  },
  {
    id: 942400,
    description: 'SQL Injection Attack',
    paranoiaLevel: 2,
    severity: 'critical',
    tags: SQLI_TAGS,
    targets: ARGS_COOKIES_NO_PK,
    transformations: 'urlDecodeUni',
    // AND and a number or a short string compared: and 1=1, and '5', and'a'='a'
    test: {
      regex: String.raw`(?i)\band\b(?:\s+(?:\d{1,10}\s*[<=>]|'[^=]{1,10}')|\s?(?:\d{1,10}|["'][^=]{1,10}["'])\s?[<=>]+)`,
    },
  },
  {
    id: 942410,
    description: 'SQL Injection Attack',
    paranoiaLevel: 2,
    severity: 'critical',
    tags: SQLI_TAGS,
    targets: ARGS_COOKIES_NO_PK,
    transformations: 'urlDecodeUni',
    // Any SQL function call, the generic names included.
    test: { regex: callOf([...SQL_ONLY_FUNCTIONS, ...GENERIC_FUNCTIONS]) },
  },
  {
    id: 942470,
    description: 'SQL Injection Attack',
    paranoiaLevel: 2,
    severity: 'critical',
    tags: SQLI_TAGS,
    targets: ARGS_COOKIES_NO_PK,
    transformations: 'urlDecodeUni',
    // Server objects an injection reaches for: SQL Server's extended procedures, Oracle's packages, types.
    test: {
      regex:
        '(?i)xp_(?:cmdshell|dirtree|fileexist|fixeddrives|subdirs|regread|regwrite|regdelete(?:key|value)|regenum(?:keys|values)|regaddmultistring|regremovemultistring|servicecontrol|availablemedia|enumdsn|enumgroups|loginconfig|logininfo|makecab|msver|ntsec|terminate|execresultset|filelist|sprintf|sscanf|instance_regread)|sp_(?:oacreate|oamethod|oagetproperty|addextendedproc|dropextendedproc|configure|execute|makewebtask|password|prepare|replwritetovarbin|sqlexec|addlogin|addsrvrolemember|help|is_srvrolemember|linkedservers|send_dbmail)|open(?:rowset|datasource|query|owa_util)|dbms_(?:java|pipe|lock|xmlgen|ldap|utility|output)|utl_(?:http|file|inaddr|tcp|smtp)|dba_users|tbcreator|autonomous_transaction|n?varchar|sql_variant|sql_longvarchar|current_user',
    },
  },
  {
    id: 942480,
    description: 'SQL Injection Attack',
    paranoiaLevel: 2,
    severity: 'critical',
    tags: SQLI_TAGS,
    targets: WITH_HEADERS_NO_PK,
    transformations: 'urlDecodeUni',
    // Pairs of keywords that make a statement, and names only an attacker quotes. The pairs with at most 100
    // characters between them are a second pattern, which runs only on values holding one of their words.
    expression: (() => {
      const values = transformed(WITH_HEADERS_NO_PK, 'urlDecodeUni');
      const pairs = [
        String.raw`\bdbms_\w+\.`,
        String.raw`\bdelete\W+from\b|\binner\W+join\b|\binsert\W+into\b|\binto\W+(?:dump|out)file\b`,
        String.raw`\boverlay\s*\([^)]*?\bplacing\b`,
        String.raw`\bload\W+data\b.*?\binfile\b`,
        String.raw`\bsys_context\b|\butl_inaddr\b|@@version\b|\bprint\W+@@|\bcollation\W+\(a`,
        String.raw`;\W*(?:drop|shutdown)\b`,
        "'(?:dbo|msdasql|sa|sqloledb)'",
      ];
      const near = [
        String.raw`\bgroup\s+by\b.{0,100}?\bhaving\b`,
        String.raw`\bselect\b.{0,100}?(?:\b(?:dump|count|length|top)\b.*?\bfrom\b|\bdata_type\b|\bfrom\b.*?\bwhere\b|\binstr\b|\bto_char\b|\bto_number\b)`,
        String.raw`\bunion\b.{0,100}?\bselect\b`,
      ];
      const regex = (branches: string[]) => rawString(`(?i)${branches.join('|')}`);
      return `any(${values}[*] matches ${regex(pairs)} or ${values}[*] matches ${regex(near)})`;
    })(),
  },
  specialCharacters(942430, ARGS_ONLY, 'args', 12, 2),
  {
    id: 942440,
    description: 'SQL Comment Sequence Detected',
    paranoiaLevel: 2,
    severity: 'critical',
    tags: SQLI_TAGS,
    targets: ARGS_COOKIES_NO_PK,
    transformations: 'urlDecodeUni',
    // A comment, unless the value is one token of letters, digits and `_ - . / =`: JSON Web Tokens, click ids
    // (fbclid, gclid) and signed session cookies (data--digest) hold "--" by chance, and a comment cannot
    // hide anything in a value without a quote, a space or a parenthesis.
    expression: (() => {
      const values = transformed(ARGS_COOKIES_NO_PK, 'urlDecodeUni');
      return `any(${values}[*] matches ${rawString(COMMENT)} and not ${values}[*] matches ${rawString(String.raw`^[\w./=-]+$`)})`;
    })(),
  },
  {
    id: 942450,
    description: 'SQL Hex Encoding Identified',
    paranoiaLevel: 2,
    severity: 'critical',
    tags: SQLI_TAGS,
    targets: ARGS_COOKIES_NO_PK,
    transformations: 'urlDecodeUni',
    // 0x414243, and the string forms X'414243' and b'01000001'.
    test: { regex: String.raw`(?i)\b0x[\da-f]{3,}|\bx'[\da-f]{4,}'|\bb'[01]{8,}'` },
  },
  {
    id: 942510,
    description: 'SQLi bypass attempt by ticks or backticks detected',
    paranoiaLevel: 2,
    severity: 'critical',
    tags: SQLI_TAGS,
    targets: ARGS_COOKIES,
    transformations: 'urlDecodeUni',
    // A keyword or short expression in backticks (`if`, `select 1`), or a base64 blob in them.
    test: { regex: String.raw`\x60(?:[\w\s=+{}()<@-]{2,29}|[A-Za-z0-9+/]{4,}={0,2})\x60` },
  },
  {
    id: 942520,
    description: 'Detects basic SQL authentication bypass attempts 4.0/4',
    paranoiaLevel: 2,
    severity: 'critical',
    tags: SQLI_TAGS,
    targets: ARGS_COOKIES,
    transformations: 'urlDecodeUni',
    // A string closed, then an operator: x'||  x'=  id'is not  'sounds like. Symbols only after a single
    // quote or a backtick (SQL's string quotes): after a double quote they are HTML (`">`) or JSON (`"/`).
    test: {
      regex: String.raw`(?i)${Q}\s*(?:is\s+not|not\s+(?:like|glob|between|in|null|regexp|match)|mod|div|sounds\s+like)\b|['\x60]\s*[%&*+\-/<=>^|]`,
    },
  },
  {
    id: 942521,
    description: 'Detects basic SQL authentication bypass attempts 4.1/4',
    paranoiaLevel: 2,
    severity: 'critical',
    tags: SQLI_TAGS,
    targets: 'REQUEST_HEADERS:User-Agent|REQUEST_HEADERS:Referer|ARGS_NAMES|ARGS|XML:/*',
    transformations: 'urlDecodeUni',
    // An odd quote — a string left open — followed by and/or: a'or'a, parents' and yours.
    test: {
      regex: `(?i)${openQuoteThenLogic("'")}|${openQuoteThenLogic('"')}|${openQuoteThenLogic('\\x60')}`,
    },
  },
  {
    id: 942522,
    description: 'Detects basic SQL authentication bypass attempts 4.1/4',
    paranoiaLevel: 2,
    severity: 'critical',
    tags: SQLI_TAGS,
    targets: ARGS_ONLY,
    transformations: 'urlDecodeUni',
    // An escaped quote the application unescapes, then and/or: \' or 1, \"or"1
    test: { regex: String.raw`(?i)\\["'\x60](?:.*?["'\x60])?\s*(?:and|or)\b` },
  },
  {
    id: 942101,
    description: 'SQL Injection Attack Detected via libinjection',
    paranoiaLevel: 2,
    severity: 'critical',
    tags: SQLI_TAGS,
    targets: 'REQUEST_BASENAME|REQUEST_FILENAME',
    transformations: 'utf8toUnicode,urlDecodeUni,removeNulls',
    test: { detect: 'sqli' },
  },
  {
    id: 942152,
    description: 'SQL Injection Attack: SQL function name detected',
    paranoiaLevel: 2,
    severity: 'critical',
    tags: SQLI_TAGS,
    targets: 'REQUEST_HEADERS:Referer|REQUEST_HEADERS:User-Agent',
    transformations: 'urlDecodeUni',
    test: {
      regex: callOf([
        ...SQL_ONLY_FUNCTIONS,
        'convert',
        'degrees',
        'elt',
        'left',
        'likelihood',
        'likely',
        'lower',
        'position',
        'quarter',
        'space',
        'unlikely',
      ]),
    },
  },
  {
    id: 942321,
    description: 'Detects MySQL and PostgreSQL stored procedure/function injections',
    paranoiaLevel: 2,
    severity: 'critical',
    tags: SQLI_TAGS,
    targets: 'REQUEST_HEADERS:Referer|REQUEST_HEADERS:User-Agent',
    transformations: 'urlDecodeUni',
    test: { regex: STORED_PROCEDURES() },
  },
  {
    id: 942251,
    description: 'Detects HAVING injections',
    paranoiaLevel: 3,
    severity: 'critical',
    tags: SQLI_TAGS,
    targets: ARGS_COOKIES,
    transformations: 'urlDecodeUni',
    test: { regex: String.raw`(?i)\W+\d*\s*\bhaving\b\s*[^\s-]` },
  },
  {
    id: 942490,
    description: 'Detects classic SQL injection probings 3/3',
    paranoiaLevel: 3,
    severity: 'critical',
    tags: SQLI_TAGS,
    targets: ARGS_COOKIES,
    transformations: 'urlDecodeUni',
    // A string closed, a symbol, a number, and later another quote or number: '=1'  ' ', 10  `>65
    test: { regex: String.raw`${Q}[\s\d]*[^\w\s]\W*\d\W*.*?["'\x60\d]` },
  },
  specialCharacters(942420, COOKIES_ONLY, 'cookies', 8, 3),
  specialCharacters(942431, ARGS_ONLY, 'args', 6, 3),
  {
    id: 942460,
    description: 'Meta-Character Anomaly Detection Alert - Repetitive Non-Word Characters',
    paranoiaLevel: 3,
    severity: 'warning',
    tags: SQLI_TAGS,
    targets: 'ARGS',
    // Four ASCII punctuation, space or control characters in a row: ')));', "'--'", '....'. Bytes of
    // UTF-8 letters (non-Latin text) are not punctuation.
    test: { regex: String.raw`[\x00-\x2f\x3a-\x40\x5b-\x5e\x60\x7b-\x7f]{4}` },
  },
  {
    id: 942511,
    description: 'SQLi bypass attempt by ticks detected',
    paranoiaLevel: 3,
    severity: 'critical',
    tags: SQLI_TAGS,
    targets: ARGS_COOKIES,
    transformations: 'urlDecodeUni',
    test: { regex: String.raw`'(?:[\w\s=+{}()<@-]{2,29}|[A-Za-z0-9+/]{4,}={0,2})'` },
  },
  {
    id: 942530,
    description: 'SQLi query termination detected',
    paranoiaLevel: 3,
    severity: 'critical',
    tags: SQLI_TAGS,
    targets: ARGS_COOKIES,
    transformations: 'urlDecodeUni',
    test: { operator: 'contains', literal: `"';"` },
  },
  specialCharacters(942421, COOKIES_ONLY, 'cookies', 3, 4),
  specialCharacters(942432, ARGS_ONLY, 'args', 2, 4),
];
