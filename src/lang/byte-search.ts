/**
 * `contains` on short values: a search written for its needle. On the short values rules mostly test
 * (paths, hosts, user agents), V8's `includes` costs a call into its string built-ins whatever the needle
 * (about 16 ns on the workload's paths, 4× the reference engine); a Horspool search written out for the
 * needle (its last byte compared first, a table of shifts, the other bytes compared in place) costs a
 * fraction of that there. On longer values `includes` is faster (it looks for the first byte with a
 * vectorised scan), so the written search hands them to it.
 */

/** Values up to this long are searched by the written function; longer ones by `includes`. */
const SHORT_VALUE = 32;
/** Needles from 2 to this many bytes get a written search (one byte: `includes` is as fast). */
const WRITTEN_NEEDLE = 16;

/** Written searches by needle: rules repeat needles, and each written function costs a compile. */
const searches = new Map<string, (value: string) => boolean>();
const MAX_SEARCHES = 4096;

let codeGeneration: boolean | undefined;

/** Whether `needle` gets a written search (the generated-code tier inlines `includes` for the others). */
export function hasWrittenSearch(needle: string): boolean {
  if (needle.length < 2 || needle.length > WRITTEN_NEEDLE) return false;
  if (codeGeneration === undefined) {
    try {
      codeGeneration = new Function('return true')() === true;
    } catch {
      // Disallowed (`--disallow-code-generation-from-strings`, a Content-Security-Policy).
      codeGeneration = false;
    }
  }
  return codeGeneration;
}

/** Whether a binary string contains `needle` (a non-empty binary string). */
export function containsSearch(needle: string): (value: string) => boolean {
  if (!hasWrittenSearch(needle)) return (value) => value.includes(needle);
  let search = searches.get(needle);
  if (!search) {
    search = writtenSearch(needle);
    if (searches.size >= MAX_SEARCHES) searches.clear();
    searches.set(needle, search);
  }
  return search;
}

function writtenSearch(needle: string): (value: string) => boolean {
  const m = needle.length;
  const shifts = new Uint8Array(256).fill(m);
  for (let k = 0; k < m - 1; k++) shifts[needle.charCodeAt(k) & 0xff] = m - 1 - k;
  // Bytes of the needle before its last, compared right to left from the byte before `i`.
  const rest = Array.from(
    { length: m - 1 },
    (_, k) => `s.charCodeAt(i - ${k + 1}) === ${needle.charCodeAt(m - 2 - k)}`,
  );
  const source = `"use strict";
return function contains(s) {
  const n = s.length;
  if (n > ${SHORT_VALUE}) return s.includes(needle);
  for (let i = ${m - 1}; i < n; ) {
    const c = s.charCodeAt(i);
    if (c === ${needle.charCodeAt(m - 1)} && ${rest.join(' && ')}) return true;
    i += shifts[c & 255];
  }
  return false;
};`;
  return new Function('needle', 'shifts', source)(needle, shifts);
}
