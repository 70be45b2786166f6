import { type CompiledRegex, re2RegexEngine } from '../../../regex/index.js';
import { asciiLower, type Value } from '../../../scheme/values.js';
import { byteRanges, transformationChain, WAF_PHRASE_LISTS } from '../../../scheme/waf-functions.js';
import { RecentMap } from '../../recent.js';
import { TextScanner } from '../../text-scan.js';
import {
  builtFrom,
  type CallContext,
  type FunctionImplementation,
  type FunctionRuntime,
  isBytes,
  plain,
} from '../runtime.js';
import { detectSqli } from './sqli.js';
import { asTarget, chainOf, transformed, transformedSteps } from './transform-cache.js';
import { detectXss } from './xss.js';

/**
 * The functions only managed rules may use (src/scheme/waf-functions.ts): a WAF's transformations and
 * detectors over what it inspects.
 *
 * Many rules transform the same targets the same way (the Core Rule Set decodes every argument with
 * `urlDecodeUni` in dozens of rules). A call with the same transformations of the same targets is computed
 * once per request (the compiler keeps it in the request's context: src/eval/context.ts), and the
 * transformed values of each target after each prefix of a chain are shared among chains that begin alike
 * (./transform-cache.ts): a zone's managed rules transform each target once per request.
 */

function transformRuntime(kind: 'each' | 'steps'): FunctionRuntime {
  const transform = kind === 'steps' ? transformedSteps : transformed;
  return {
    prepare: ([chainLiteral]) => {
      const chainOfArgument = builtFrom(chainLiteral, (text) =>
        isBytes(text) ? chainOf(transformationChain(text)) : undefined,
      );
      return (args) => {
        const chain = chainOfArgument(args[0]);
        if (!chain) return undefined;
        // The checker types every target Bytes or Array<Bytes>: a missing field is the only other value.
        let only: readonly string[] | undefined;
        let all: string[] | undefined;
        // By index, not by a rest parameter: a copy of the arguments for each of some 500 calls a request.
        for (let at = 1; at < args.length; at++) {
          const target = args[at];
          const values =
            typeof target === 'string'
              ? asTarget(target)
              : Array.isArray(target)
                ? (target as string[])
                : undefined;
          if (!values || values.length === 0) continue;
          const part = transform(values, chain);
          if (only === undefined) only = part;
          else {
            all ??= only.slice();
            for (let i = 0; i < part.length; i++) all.push(part[i] as string);
          }
        }
        // One target: its transformed array itself (shared with every chain that begins alike).
        return (all ?? only ?? []) as string[];
      };
    },
  };
}

/** A regex built once from a literal pattern (or from the argument), with the engine the compiler passes. */
function regexFrom(
  patternLiteral: Value | undefined,
  context: CallContext | undefined,
): (argument: Value | undefined) => CompiledRegex | undefined {
  const engine = context?.regexEngine ?? re2RegexEngine;
  return builtFrom(patternLiteral, (pattern) => (isBytes(pattern) ? engine.compile(pattern) : undefined));
}

/**
 * Members of a Map<Array<Bytes>> selected by a regex over their names: the values of the members it
 * matches, or (`except`) of those it does not. (A request computes each such call once, so rules
 * excluding the same members transform the same array: src/eval/context.ts.)
 */
function membersRuntime(select: 'values' | 'except'): FunctionRuntime {
  return {
    prepare: ([, patternLiteral], context) => {
      const regexOf = regexFrom(patternLiteral, context);
      return ([map, patternArgument]) => {
        const test = regexOf(patternArgument);
        if (!(map instanceof Map) || !test) return undefined;
        const out: string[] = [];
        for (const [name, items] of map) {
          const keep = test.test(name) === (select === 'values');
          if (!keep) continue;
          if (Array.isArray(items)) for (const item of items) if (isBytes(item)) out.push(item);
        }
        return out;
      };
    },
  };
}

/** A phrase list's matcher: Aho–Corasick over the lower-cased phrases, in any case, built on first use. */
const phraseScanners = new Map<string, TextScanner>();

function phraseScanner(list: string): TextScanner | undefined {
  let scanner = phraseScanners.get(list);
  if (!scanner) {
    const phrases = WAF_PHRASE_LISTS[list];
    if (!phrases) return undefined;
    scanner = new TextScanner(true);
    for (const phrase of phrases) if (phrase !== '') scanner.add(asciiLower(phrase));
    scanner.build();
    phraseScanners.set(list, scanner);
  }
  return scanner;
}

const phraseScannerFrom = (listLiteral: Value | undefined) =>
  builtFrom(listLiteral, (list) => (isBytes(list) ? phraseScanner(list) : undefined));

const phrasesRuntime: FunctionRuntime = {
  prepare: ([, listLiteral]) => {
    const scannerOf = phraseScannerFrom(listLiteral);
    return ([value, listArgument]) => {
      const scanner = scannerOf(listArgument);
      return isBytes(value) && scanner ? scanner.findsAny(value) : undefined;
    };
  },
};

/** ASCII letters, digits and `_`: the characters of a function name. */
const isWordCode = (code: number): boolean =>
  (code >= 0x30 && code <= 0x39) ||
  (code >= 0x41 && code <= 0x5a) ||
  (code >= 0x61 && code <= 0x7a) ||
  code === 0x5f;

/** C's isspace. */
const isSpaceCode = (code: number): boolean => code === 0x20 || (code >= 0x09 && code <= 0x0d);

/**
 * Whether a phrase of the scanner, found in `lower` (the value lower-cased) and ending at `end`, is called:
 * a whole word, then optional whitespace and `(`, with no other word just before it across whitespace.
 */
function isCall(lower: string, start: number, end: number): boolean {
  if (start > 0 && isWordCode(lower.charCodeAt(start - 1))) return false;
  if (end < lower.length && isWordCode(lower.charCodeAt(end))) return false;
  let after = end;
  while (after < lower.length && isSpaceCode(lower.charCodeAt(after))) after++;
  if (lower.charCodeAt(after) !== 0x28) return false;
  let before = start - 1;
  while (before >= 0 && isSpaceCode(lower.charCodeAt(before))) before--;
  return before < 0 || !isWordCode(lower.charCodeAt(before));
}

/** Whether `value` calls a function named by a phrase of the scanner (see waf_calls). */
export function callsIn(scanner: TextScanner, value: string): boolean {
  if (!value.includes('(')) return false;
  const lower = asciiLower(value);
  let found = false;
  scanner.scan(lower, (literal, end) => {
    if (!found) found = isCall(lower, end - (scanner.literals[literal] as string).length, end);
  });
  return found;
}

const callsRuntime: FunctionRuntime = {
  prepare: ([, listLiteral]) => {
    const scannerOf = phraseScannerFrom(listLiteral);
    return ([value, listArgument]) => {
      const scanner = scannerOf(listArgument);
      return isBytes(value) && scanner ? callsIn(scanner, value) : undefined;
    };
  },
};

/**
 * Whether the URL in `value` points away from `host` (CRS 931130's off-domain check): the host is what
 * follows the first `://`, after the first `@` if there is one (a user name, or a parser confusion such as
 * `http://example.com%2f@evil.com/`), up to `/`, `?` or `#`; it points away unless it is the host or ends
 * with `.` and the host. Without `://` there is no host (`file:/etc/passwd`), which points away too.
 */
export function urlOffDomain(value: string, host: string): boolean {
  const scheme = value.indexOf('://');
  let authority = scheme === -1 ? '' : value.slice(scheme + 3);
  const at = authority.indexOf('@');
  if (at !== -1) authority = authority.slice(at + 1);
  const cut = authority.search(/[/?#]/);
  const found = asciiLower(cut === -1 ? authority : authority.slice(0, cut));
  const own = asciiLower(host);
  return !(found === own || found.endsWith(`.${own}`));
}

/** 1 for each byte in the ranges (`"32-126,9"`), built once from a literal. */
const byteTableFrom = (rangesLiteral: Value | undefined) =>
  builtFrom(rangesLiteral, (text) => {
    if (!isBytes(text)) return undefined;
    const table = new Uint8Array(256);
    for (const [low, high] of byteRanges(text) ?? []) table.fill(1, low, high + 1);
    return table;
  });

const bytesWithinRuntime: FunctionRuntime = {
  prepare: ([, rangesLiteral]) => {
    const tableOf = byteTableFrom(rangesLiteral);
    return ([value, rangesArgument]) => {
      const allowed = tableOf(rangesArgument);
      if (!isBytes(value) || !allowed) return undefined;
      for (let i = 0; i < value.length; i++) if (allowed[value.charCodeAt(i)] === 0) return false;
      return true;
    };
  },
};

/** The regex's first match's group `group`, the pattern compiled once (ModSecurity's `capture`). */
const captureRuntime: FunctionRuntime = {
  prepare: ([, patternLiteral], context) => {
    const regexOf = regexFrom(patternLiteral, context);
    return ([value, pattern, group]) => {
      const regex = regexOf(pattern);
      if (!isBytes(value) || !regex || typeof group !== 'number') return undefined;
      return regex.exec(value)?.groups[group];
    };
  },
};

/** Digits only, read as a number; undefined otherwise (and for numbers too long to compare exactly). */
function wholeNumber(text: string): bigint | undefined {
  return /^[0-9]{1,30}$/.test(text) ? BigInt(text) : undefined;
}

/** Whether one request value is a smaller whole number than another (ModSecurity's @lt with a macro). */
export function lessThan(value: string, other: string): boolean {
  const a = wholeNumber(value);
  const b = wholeNumber(other);
  return a !== undefined && b !== undefined && a < b;
}

const isHex = (code: number) =>
  (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x46) || (code >= 0x61 && code <= 0x66);

/** What lies between `://` and the next `/` (the whole rest without one is not a host: undefined). */
export function urlHost(url: string): string | undefined {
  const start = url.indexOf('://');
  if (start === -1) return undefined;
  const end = url.indexOf('/', start + 3);
  return end === -1 ? undefined : url.slice(start + 3, end);
}

/** Every `%` followed by two hex digits. */
export function validUrlEncoding(value: string): boolean {
  for (let i = value.indexOf('%'); i !== -1; i = value.indexOf('%', i + 1)) {
    if (!isHex(value.charCodeAt(i + 1)) || !isHex(value.charCodeAt(i + 2))) return false;
  }
  return true;
}

/** Well-formed UTF-8: shortest forms, no surrogates, nothing above U+10FFFF. */
export function validUtf8(value: string): boolean {
  for (let i = 0; i < value.length; ) {
    const lead = value.charCodeAt(i);
    if (lead < 0x80) {
      i++;
      continue;
    }
    let length: number;
    let min: number;
    if (lead >= 0xc2 && lead <= 0xdf) [length, min] = [2, 0x80];
    else if (lead >= 0xe0 && lead <= 0xef) [length, min] = [3, 0x800];
    else if (lead >= 0xf0 && lead <= 0xf4) [length, min] = [4, 0x10000];
    else return false;
    let codePoint = lead & (0xff >> (length + 1));
    for (let k = 1; k < length; k++) {
      const next = value.charCodeAt(i + k);
      if ((next & 0xc0) !== 0x80) return false; // NaN past the end fails too
      codePoint = (codePoint << 6) | (next & 0x3f);
    }
    if (codePoint < min || codePoint > 0x10ffff || (codePoint >= 0xd800 && codePoint <= 0xdfff)) return false;
    i += length;
  }
  return true;
}

const countBytesRuntime: FunctionRuntime = {
  prepare: ([, rangesLiteral]) => {
    const tableOf = byteTableFrom(rangesLiteral);
    return ([value, rangesArgument]) => {
      const counted = tableOf(rangesArgument);
      if (!isBytes(value) || !counted) return undefined;
      let count = 0;
      for (let i = 0; i < value.length; i++) count += counted[value.charCodeAt(i)] ?? 0;
      return count;
    };
  },
};

/** The first match's groups 1 and 2 compared; a pattern without a match, or without both groups, gives false. */
const capturesEqualRuntime: FunctionRuntime = {
  prepare: ([, patternLiteral], context) => {
    const regexOf = regexFrom(patternLiteral, context);
    return ([value, patternArgument]) => {
      const regex = regexOf(patternArgument);
      if (!isBytes(value) || !regex) return undefined;
      const match = regex.exec(value);
      if (!match) return false;
      const [, first, second] = match.groups;
      return first !== undefined && first === second;
    };
  },
};

/** At most this many verdicts are remembered, of values up to this long. */
const MAX_VERDICTS = 4096;
const MAX_REMEMBERED_LENGTH = 2048;

/**
 * A detector that remembers its recent verdicts by value: several rules run the same detector on the same
 * values (942100 and the Managed Ruleset's SQL-injection rules on every argument), and the same header
 * values come back request after request. The values used again stay (./recent.ts).
 */
function remembered(detect: (value: string) => boolean): FunctionImplementation {
  const verdicts = new RecentMap<string, boolean>(MAX_VERDICTS);
  return ([value]) => {
    if (!isBytes(value)) return undefined;
    if (value.length > MAX_REMEMBERED_LENGTH) return detect(value);
    let verdict = verdicts.get(value);
    if (verdict === undefined) {
      verdict = detect(value);
      verdicts.set(value, verdict);
    }
    return verdict;
  };
}

/** The values shorter than a length, the same array again when all are (so that caches keyed by it hold). */
const shorterRuntime: FunctionRuntime = plain(([values, length]) => {
  if (!Array.isArray(values) || typeof length !== 'number') return undefined;
  return values.every((value) => typeof value === 'string' && value.length < length)
    ? values
    : values.filter((value): value is string => typeof value === 'string' && value.length < length);
});

export const wafRuntimes: ReadonlyMap<string, FunctionRuntime> = new Map([
  ['waf_transform', transformRuntime('each')],
  ['waf_transform_steps', transformRuntime('steps')],
  ['waf_values_matching', membersRuntime('values')],
  ['waf_values_except', membersRuntime('except')],
  ['waf_values_shorter', shorterRuntime],
  ['waf_detect_sqli', plain(remembered((value) => detectSqli(value) !== undefined))],
  ['waf_detect_xss', plain(remembered(detectXss))],
  [
    'waf_ends_with',
    plain(([value, suffix]) => (isBytes(value) && isBytes(suffix) ? value.endsWith(suffix) : undefined)),
  ],
  ['waf_url_host', plain(([url]) => (isBytes(url) ? urlHost(url) : undefined))],
  [
    'waf_url_off_domain',
    plain(([value, host]) => (isBytes(value) && isBytes(host) ? urlOffDomain(value, host) : undefined)),
  ],
  ['waf_phrases', phrasesRuntime],
  ['waf_calls', callsRuntime],
  ['waf_bytes_within', bytesWithinRuntime],
  ['waf_capture', captureRuntime],
  ['waf_count_bytes', countBytesRuntime],
  ['waf_captures_equal', capturesEqualRuntime],
  [
    'waf_less_than',
    plain(([value, other]) => (isBytes(value) && isBytes(other) ? lessThan(value, other) : undefined)),
  ],
  ['waf_valid_url_encoding', plain(([value]) => (isBytes(value) ? validUrlEncoding(value) : undefined))],
  ['waf_valid_utf8', plain(([value]) => (isBytes(value) ? validUtf8(value) : undefined))],
]);
