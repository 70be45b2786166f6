import { type CompiledRegex, re2RegexEngine } from '../../../regex/index.js';
import { asciiLower, type Value } from '../../../scheme/values.js';
import { byteRanges, transformationChain, WAF_PHRASE_LISTS } from '../../../scheme/waf-functions.js';
import { TextScanner } from '../../text-scan.js';
import { type FunctionRuntime, isBytes, plain } from '../runtime.js';
import { detectSqli } from './sqli.js';
import { transformChain, transformSteps } from './transforms.js';
import { detectXss } from './xss.js';

/**
 * The functions only managed rules may use (src/scheme/waf-functions.ts): a WAF's transformations and
 * detectors over what it inspects.
 *
 * Many rules transform the same targets the same way (the Core Rule Set decodes every argument with
 * `urlDecodeUni` in dozens of rules), so `waf_transform` remembers its last results: a request's field
 * values are derived once and keep their identity for the whole request, so a call with the same
 * transformations and the very same target values returns the array already computed, and a zone's
 * managed rules transform each target once per request whatever the number of rules.
 */

type Targets = readonly (Value | undefined)[];

/** Identities of target values, for cache keys: objects by a number, short strings by their text. */
const identities = new WeakMap<object, number>();
let nextIdentity = 0;

function identity(value: Value | undefined): string | undefined {
  if (value === undefined) return '-';
  if (typeof value === 'string') return value.length <= 64 ? `s${value.length}:${value}` : undefined;
  if (typeof value !== 'object') return undefined;
  let id = identities.get(value);
  if (id === undefined) {
    id = nextIdentity++;
    identities.set(value, id);
  }
  return `o${id}`;
}

/** Results by transformations and target identities; cleared when full (old requests' keys never recur). */
const results = new Map<string, string[]>();
const MAX_RESULTS = 4096;

function cacheKey(kind: string, chain: string, targets: Targets): string | undefined {
  let key = `${kind}|${chain}`;
  for (const target of targets) {
    const id = identity(target);
    if (id === undefined) return undefined;
    key += `|${id}`;
  }
  return key;
}

/** A chain without its `none` steps, for cache keys. */
const withoutNone = (chain: string): string =>
  chain.includes('none')
    ? chain
        .split(',')
        .filter((name) => name.trim() !== 'none')
        .join(',')
    : chain;

/** Every Bytes value of the targets, in order (a missing target gives nothing). */
function* valuesOf(targets: Targets): Generator<string> {
  for (const target of targets) {
    if (typeof target === 'string') yield target;
    else if (Array.isArray(target)) for (const item of target) if (typeof item === 'string') yield item;
  }
}

function transformRuntime(kind: 'each' | 'steps'): FunctionRuntime {
  return {
    prepare: ([chainLiteral]) => {
      const prepared = new Map<string, (value: string) => string[]>();
      const perValue = (chain: string) => {
        let run = prepared.get(chain);
        if (!run) {
          const names = transformationChain(chain);
          if (kind === 'steps') run = transformSteps(names);
          else {
            const once = transformChain(names);
            run = (value) => [once(value)];
          }
          prepared.set(chain, run);
        }
        return run;
      };
      return ([chainArgument, ...targets]) => {
        const chain = chainLiteral ?? chainArgument;
        if (!isBytes(chain)) return undefined;
        // `none` does nothing: "none,lowercase" and "lowercase" share their results.
        const key = cacheKey(kind, withoutNone(chain), targets);
        const cached = key === undefined ? undefined : results.get(key);
        if (cached) return cached;
        const run = perValue(chain);
        const out: string[] = [];
        for (const value of valuesOf(targets)) for (const result of run(value)) out.push(result);
        if (key !== undefined) {
          if (results.size >= MAX_RESULTS) results.clear();
          results.set(key, out);
        }
        return out;
      };
    },
  };
}

/**
 * Members of a Map<Array<Bytes>> selected by a regex over their names: the values of the members it
 * matches, or (`except`) of those it does not.
 */
const selections = new WeakMap<object, Map<string, string[]>>();

function membersRuntime(select: 'values' | 'except'): FunctionRuntime {
  return {
    prepare: ([, patternLiteral], context) => {
      const engine = context?.regexEngine ?? re2RegexEngine;
      const compiled = new Map<string, CompiledRegex>();
      const regex = (pattern: string) => {
        let found = compiled.get(pattern);
        if (!found) {
          found = engine.compile(pattern);
          compiled.set(pattern, found);
        }
        return found;
      };
      if (isBytes(patternLiteral)) regex(patternLiteral);
      return ([map, patternArgument]) => {
        const pattern = patternLiteral ?? patternArgument;
        if (!(map instanceof Map) || !isBytes(pattern)) return undefined;
        // Shared by every call site, so that rules excluding the same members get the same array (and
        // waf_transform's cache sees the same target).
        let byPattern = selections.get(map);
        if (!byPattern) {
          byPattern = new Map();
          selections.set(map, byPattern);
        }
        const key = `${select}|${pattern}`;
        const known = byPattern.get(key);
        if (known) return known;
        const test = regex(pattern);
        const out: string[] = [];
        for (const [name, items] of map) {
          const keep = test.test(name) === (select === 'values');
          if (!keep) continue;
          if (Array.isArray(items)) for (const item of items) if (isBytes(item)) out.push(item);
        }
        byPattern.set(key, out);
        return out;
      };
    },
  };
}

/** A phrase list's matcher: Aho–Corasick over the lower-cased phrases, built on first use. */
const phraseScanners = new Map<string, TextScanner>();

function phraseScanner(list: string): TextScanner | undefined {
  let scanner = phraseScanners.get(list);
  if (!scanner) {
    const phrases = WAF_PHRASE_LISTS[list];
    if (!phrases) return undefined;
    scanner = new TextScanner();
    for (const phrase of phrases) if (phrase !== '') scanner.add(asciiLower(phrase));
    scanner.build();
    phraseScanners.set(list, scanner);
  }
  return scanner;
}

const phrasesRuntime: FunctionRuntime = {
  prepare: ([, listLiteral]) => {
    const prepared = isBytes(listLiteral) ? phraseScanner(listLiteral) : undefined;
    return ([value, listArgument]) => {
      const scanner = prepared ?? (isBytes(listArgument) ? phraseScanner(listArgument) : undefined);
      return isBytes(value) && scanner ? scanner.findsAny(asciiLower(value)) : undefined;
    };
  },
};

const bytesWithinRuntime: FunctionRuntime = {
  prepare: ([, rangesLiteral]) => {
    const table = (text: string) => {
      const allowed = new Uint8Array(256);
      for (const [low, high] of byteRanges(text) ?? []) allowed.fill(1, low, high + 1);
      return allowed;
    };
    const prepared = isBytes(rangesLiteral) ? table(rangesLiteral) : undefined;
    return ([value, rangesArgument]) => {
      const allowed = prepared ?? (isBytes(rangesArgument) ? table(rangesArgument) : undefined);
      if (!isBytes(value) || !allowed) return undefined;
      for (let i = 0; i < value.length; i++) if (allowed[value.charCodeAt(i)] === 0) return false;
      return true;
    };
  },
};

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

export const wafRuntimes: ReadonlyMap<string, FunctionRuntime> = new Map([
  ['waf_transform', transformRuntime('each')],
  ['waf_transform_steps', transformRuntime('steps')],
  ['waf_values_matching', membersRuntime('values')],
  ['waf_values_except', membersRuntime('except')],
  ['waf_detect_sqli', plain(([value]) => (isBytes(value) ? detectSqli(value) !== undefined : undefined))],
  ['waf_detect_xss', plain(([value]) => (isBytes(value) ? detectXss(value) : undefined))],
  [
    'waf_ends_with',
    plain(([value, suffix]) => (isBytes(value) && isBytes(suffix) ? value.endsWith(suffix) : undefined)),
  ],
  ['waf_url_host', plain(([url]) => (isBytes(url) ? urlHost(url) : undefined))],
  ['waf_phrases', phrasesRuntime],
  ['waf_bytes_within', bytesWithinRuntime],
  ['waf_valid_url_encoding', plain(([value]) => (isBytes(value) ? validUrlEncoding(value) : undefined))],
  ['waf_valid_utf8', plain(([value]) => (isBytes(value) ? validUtf8(value) : undefined))],
]);
