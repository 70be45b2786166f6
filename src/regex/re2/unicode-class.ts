// Unicode-mode classes in RE2 syntax: RE2 classes cannot nest, so negated parts are rewritten by De Morgan

import { UnsupportedRegexError } from '../syntax/flags.js';
import { FIRST_MARKER, LAST_MARKER } from './utf8.js';

/** One item RE2 can write inside a class: a code point range, a Unicode property or a POSIX class. */
export type Atom =
  | { kind: 'range'; start: number; end: number }
  | PropertyAtom
  | { kind: 'posix'; name: string; negated: boolean };

/** `text` is the positive spelling, `\pL` or `\p{Greek}`. */
export interface PropertyAtom {
  kind: 'property';
  text: string;
  negated: boolean;
}

/**
 * What a class is made of: atoms (each an RE2 class item, maybe negated), and negated unions `¬(a ∪ b …)`
 * such as Unicode `\W` and `\S` or a nested negated class, which RE2 cannot write as an item.
 */
export interface ClassParts {
  atoms: Atom[];
  negatedUnions: Atom[][];
}

const MAX_CODE_POINT = 0x10ffff;
/** Beyond this many alternatives, a class is reported as unsupported rather than compiled. */
const MAX_TERMS = 256;

export const cp = (c: number): string => `\\x{${c.toString(16).toUpperCase()}}`;
export const MARKERS = `${cp(FIRST_MARKER)}-${cp(LAST_MARKER)}`;
export const EMPTY_CLASS = '[^\\x{0}-\\x{10FFFF}]';

const range = (start: number, end: number): Atom => ({ kind: 'range', start, end });
const property = (text: string): PropertyAtom => ({ kind: 'property', text, negated: false });

/**
 * Unicode `\w`: Alphabetic, marks, decimal digits, connector punctuation and joiners. RE2 has no Alphabetic
 * property: it is letters, letter numbers and Other_Alphabetic, whose members outside the marks are the
 * enclosed letters listed here (Unicode 17).
 */
export const WORD_ATOMS: Atom[] = [
  ...['\\p{L}', '\\p{M}', '\\p{Nd}', '\\p{Pc}', '\\p{Nl}'].map(property),
  range(0x200c, 0x200d),
  range(0x24b6, 0x24e9),
  range(0x1f130, 0x1f149),
  range(0x1f150, 0x1f169),
  range(0x1f170, 0x1f189),
];
/** Unicode `\s`: the White_Space property. */
export const SPACE_ATOMS: Atom[] = [
  range(0x09, 0x0d),
  range(0x20, 0x20),
  range(0x85, 0x85),
  range(0xa0, 0xa0),
  range(0x1680, 0x1680),
  range(0x2000, 0x200a),
  range(0x2028, 0x2029),
  range(0x202f, 0x202f),
  range(0x205f, 0x205f),
  range(0x3000, 0x3000),
];
export const DIGIT_ATOM = property('\\p{Nd}');

function render(atom: Atom): string {
  switch (atom.kind) {
    case 'range':
      return atom.start === atom.end ? cp(atom.start) : `${cp(atom.start)}-${cp(atom.end)}`;
    case 'property':
      return atom.negated ? `\\P${atom.text.slice(2)}` : atom.text;
    case 'posix':
      return `[:${atom.negated ? '^' : ''}${atom.name}:]`;
  }
}

/** The same set complemented, as atoms. */
function complement(atom: Atom): Atom[] {
  switch (atom.kind) {
    case 'range': {
      const out: Atom[] = [];
      if (atom.start > 0) out.push(range(0, atom.start - 1));
      if (atom.end < MAX_CODE_POINT) out.push(range(atom.end + 1, MAX_CODE_POINT));
      return out;
    }
    case 'property':
    case 'posix':
      return [{ ...atom, negated: !atom.negated }];
  }
}

const isNegative = (atom: Atom): boolean => atom.kind !== 'range' && atom.negated;

/** "Anything but these, and never an invalid byte" (the markers are excluded too). */
const noneOf = (atoms: Atom[]): string => `[^${atoms.map(render).join('')}${MARKERS}]`;

/**
 * The RE2 text of a Unicode-mode class, matching one character. A positive class is the union of its parts:
 * the positive atoms in one class, each negative part as a class of its own, as alternatives. A negated
 * class is ¬(S ∪ ¬A₁ ∪ … ∪ ¬Aₖ) = ¬S ∩ A₁ ∩ … ∩ Aₖ: one alternative per choice of an atom aᵢ in each Aᵢ,
 * `[^ S ¬a₁ … ¬aₖ]`. Every negation also excludes the markers, as Unicode classes never match invalid UTF-8.
 */
export function classText(parts: ClassParts, negated: boolean): string {
  const alternatives: string[] = [];
  if (!negated) {
    const positives = parts.atoms.filter((a) => !isNegative(a));
    if (positives.length > 0) alternatives.push(`[${positives.map(render).join('')}]`);
    for (const atom of parts.atoms.filter(isNegative)) alternatives.push(noneOf(complement(atom)));
    for (const union of parts.negatedUnions) alternatives.push(noneOf(union));
  } else {
    let choices: Atom[][] = [[]];
    for (const union of parts.negatedUnions) {
      choices = choices.flatMap((chosen) => union.map((atom) => [...chosen, atom]));
      if (choices.length > MAX_TERMS) {
        throw new UnsupportedRegexError('a negated Unicode class with that many negated parts');
      }
    }
    for (const chosen of choices) alternatives.push(noneOf([...parts.atoms, ...chosen.flatMap(complement)]));
  }
  if (alternatives.length === 0) return EMPTY_CLASS;
  return alternatives.length === 1 ? alternatives[0] : `(?:${alternatives.join('|')})`;
}
