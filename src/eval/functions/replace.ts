import { parseWildcard, type WildcardPart } from '../../lang/wildcard.js';
import { re2RegexEngine } from '../../regex/index.js';
import { asciiLower } from '../../scheme/values.js';
import { builtFrom, type FunctionRuntime, isBytes } from './runtime.js';

/** `regex_replace` and `wildcard_replace`, and the replacement syntax they share. */

/** A replacement as literal runs and references to captures (by number). */
type Template = (string | number)[];

/**
 * Reads a replacement. Cloudflare documents `${1}` to `${8}` and `$$` for a literal `$` (rules-language
 * §7). The rest follows the replacement syntax of Rust's regex crate, which the reference engine is built
 * on: `$N` also names group N, a reference takes the longest run of `[0-9A-Za-z_]` after `$` (so `$1a` is
 * the group named "1a", not group 1 then "a"), a reference to a named or absent group expands to nothing,
 * and a `$` that starts no reference stays a literal `$`.
 */
export function parseTemplate(replacement: string): Template {
  const template: Template = [];
  let literal = '';
  let i = 0;
  while (i < replacement.length) {
    const dollar = replacement.indexOf('$', i);
    if (dollar < 0) break;
    literal += replacement.slice(i, dollar);
    i = dollar + 1;
    if (replacement[i] === '$') {
      literal += '$';
      i++;
      continue;
    }
    let name: string | undefined;
    if (replacement[i] === '{') {
      const close = replacement.indexOf('}', i);
      if (close > i + 1) {
        name = replacement.slice(i + 1, close);
        i = close + 1;
      }
    } else {
      const run = /[0-9A-Za-z_]+/y;
      run.lastIndex = i;
      const match = run.exec(replacement);
      if (match) {
        name = match[0];
        i += name.length;
      }
    }
    if (name === undefined) {
      literal += '$';
      continue;
    }
    if (literal !== '') template.push(literal);
    literal = '';
    // Named groups have no number to look up: they expand to nothing, like an absent group.
    template.push(/^[0-9]+$/.test(name) ? Number(name) : -1);
  }
  literal += replacement.slice(i);
  if (literal !== '') template.push(literal);
  return template;
}

export function expandTemplate(template: Template, groups: readonly (string | undefined)[]): string {
  let out = '';
  for (const part of template) out += typeof part === 'string' ? part : (groups[part] ?? '');
  return out;
}

/**
 * `regex_replace(source, regex, replacement)`: the first match only is replaced; no match leaves the source
 * unchanged (documented examples). The pattern is compiled once per call site, with the engine the
 * compiler passes in the call context (RE2 unless the filter was compiled with another).
 */
const regexReplace: FunctionRuntime = {
  prepare([, patternLiteral, replacementLiteral], context) {
    const engine = context?.regexEngine ?? re2RegexEngine;
    const regexOf = builtFrom(patternLiteral, (pattern) =>
      isBytes(pattern) ? engine.compile(pattern) : undefined,
    );
    const templateOf = builtFrom(replacementLiteral, (replacement) =>
      isBytes(replacement) ? parseTemplate(replacement) : undefined,
    );
    return ([source, patternArgument, replacementArgument]) => {
      const regex = regexOf(patternArgument);
      const template = templateOf(replacementArgument);
      if (!isBytes(source) || !regex || !template) return undefined;
      const match = regex.exec(source);
      if (!match) return source;
      const end = match.index + (match.groups[0] ?? '').length;
      return source.slice(0, match.index) + expandTemplate(template, match.groups) + source.slice(end);
    };
  },
};

/**
 * What each star of a wildcard matched, when the whole value matches the pattern; `[0]` is the value.
 *
 * Stars are lazy (rules-language §4.1: each takes the shortest string that lets the rest match). With
 * literal runs between stars this means: the run after a star is taken at its leftmost occurrence, except
 * the last run, which must end the value. Leftmost is always right for a middle run: if any placement lets
 * the rest match, the leftmost does too, since the next star can absorb the difference.
 */
export function wildcardCaptures(
  parts: readonly WildcardPart[],
  value: string,
  caseSensitive: boolean,
): string[] | undefined {
  // Case-insensitive matching compares ASCII-lower-cased copies; captures come from the original.
  const subject = caseSensitive ? value : asciiLower(value);
  const fold = (bytes: string) => (caseSensitive ? bytes : asciiLower(bytes));
  const captures = [value];
  let at = 0;
  let starStart = -1;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i] as WildcardPart;
    if (part.kind === 'star') {
      starStart = at;
      continue;
    }
    const found = placeRun(subject, fold(part.bytes), at, starStart >= 0, i === parts.length - 1);
    if (found < 0) return undefined;
    if (starStart >= 0) captures.push(value.slice(starStart, found));
    starStart = -1;
    at = found + part.bytes.length;
  }
  if (starStart >= 0) {
    captures.push(value.slice(starStart));
    at = value.length;
  }
  return at === value.length ? captures : undefined;
}

/**
 * Where a literal run of the pattern goes, from offset `at`: right there when no star precedes it; at the
 * end of the value when it ends the pattern; otherwise at its leftmost occurrence. -1 when it cannot.
 */
function placeRun(
  subject: string,
  run: string,
  at: number,
  afterStar: boolean,
  endsPattern: boolean,
): number {
  if (!afterStar) return subject.startsWith(run, at) ? at : -1;
  if (!endsPattern) return subject.indexOf(run, at);
  const start = subject.length - run.length;
  return start >= at && subject.endsWith(run) ? start : -1;
}

/**
 * `wildcard_replace(source, pattern, replacement[, flags])`: when the whole source matches the pattern
 * (ASCII case-insensitive unless the flags hold `s`), the replacement with `${N}` = what star N matched;
 * otherwise the source unchanged (rules-language §4.1 and §7).
 */
const wildcardReplace: FunctionRuntime = {
  prepare([, patternLiteral, replacementLiteral, flagsLiteral]) {
    const partsOf = builtFrom(patternLiteral, (pattern) => {
      if (!isBytes(pattern)) return undefined;
      const parsed = parseWildcard(pattern);
      // The checker rejects invalid patterns; reaching here with one is a caller's bug.
      if (!parsed.ok) throw new Error(`wildcard_replace: ${parsed.message.text}`);
      return parsed.parts;
    });
    const templateOf = builtFrom(replacementLiteral, (replacement) =>
      isBytes(replacement) ? parseTemplate(replacement) : undefined,
    );
    return ([source, patternArgument, replacementArgument, flagsArgument]) => {
      const parts = partsOf(patternArgument);
      const template = templateOf(replacementArgument);
      const flags = flagsLiteral ?? flagsArgument ?? '';
      if (!isBytes(source) || !parts || !template || !isBytes(flags)) return undefined;
      const captures = wildcardCaptures(parts, source, flags.includes('s'));
      return captures ? expandTemplate(template, captures) : source;
    };
  },
};

export const replaceRuntimes: ReadonlyMap<string, FunctionRuntime> = new Map([
  ['regex_replace', regexReplace],
  ['wildcard_replace', wildcardReplace],
]);
