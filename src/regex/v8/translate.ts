/**
 * Translates a Cloudflare (Rust `regex`, byte mode) pattern into an equivalent JavaScript RegExp source,
 * for the patterns whose meaning can be kept exactly, and refuses the others.
 *
 * The reference engine runs patterns with Unicode off and UTF-8 off (rules-language §4.2): `.` and classes
 * match single bytes, `\d \w \s \b` and `(?i)` are ASCII-only. Our values are binary strings (one char
 * per byte), and a RegExp without the `u` flag works on chars, so a byte-for-byte translation is exact as
 * long as every construct is written out explicitly:
 * - classes (`[…]`, `\d`, `\w`, `\s`, `.`) become explicit byte ranges, so JS's wider `\s` and its
 *   treatment of `\r` in `.` never apply; negated classes are complemented over the 256 bytes;
 * - `(?i)` is applied by adding the other case of ASCII letters to literals and classes (JS's `i` flag
 *   would also fold Latin-1 letters), and the other flags (`m`, `s`, `U`) are resolved while translating,
 *   per group, as Rust scopes them;
 * - a non-ASCII literal in the pattern is the UTF-8 bytes of its character; they are grouped so that a
 *   quantifier repeats the whole character, as in Rust.
 *
 * Refused (UnsupportedPattern), for the RE2-based engine to handle: Unicode mode (`(?u)`, `\p{…}`), verbose
 * mode, `\u`/`\x{…}` escapes above 0xFF, special word boundaries, class set operations and nested classes,
 * counted repetitions written loosely (`a{ 2 }`), quantified assertions, and a capture group inside a
 * group that may run more than once: JS clears such a group at each iteration, where Rust keeps the last
 * value it took.
 */

import { ASCII_CLASS_RANGES, type ByteRange, PERL_CLASS_NAMES } from '../syntax/ascii-classes.js';

export class UnsupportedPattern extends Error {}

interface Flags {
  caseInsensitive: boolean;
  multiLine: boolean;
  dotMatchesNewLine: boolean;
  swapGreed: boolean;
}

interface Piece {
  source: string;
  /** Whether a quantifier may follow (assertions may not, in this translation). */
  quantifiable: boolean;
  hasCapture: boolean;
}

/** A set of bytes. */
type ByteSet = boolean[];

const emptySet = (): ByteSet => new Array<boolean>(256).fill(false);

function setOfRanges(...ranges: readonly ByteRange[]): ByteSet {
  const set = emptySet();
  for (const [from, to] of ranges) for (let b = from; b <= to; b++) set[b] = true;
  return set;
}

const code = (c: string): number => c.charCodeAt(0);
/** The POSIX classes `[[:name:]]` (../syntax/ascii-classes.ts) as byte sets. */
const ASCII_CLASSES: ReadonlyMap<string, ByteSet> = new Map(
  [...ASCII_CLASS_RANGES].map(([name, ranges]) => [name, setOfRanges(...ranges)]),
);

/** Byte-mode `\d \s \w`: ASCII only, as in Rust's byte mode. */
const PERL_CLASSES: Readonly<Record<string, ByteSet>> = {
  d: ASCII_CLASSES.get(PERL_CLASS_NAMES.d) as ByteSet,
  s: ASCII_CLASSES.get(PERL_CLASS_NAMES.s) as ByteSet,
  w: ASCII_CLASSES.get(PERL_CLASS_NAMES.w) as ByteSet,
};

const SPECIAL_ESCAPES: Readonly<Record<string, number>> = { a: 7, f: 12, t: 9, n: 10, r: 13, v: 11 };

const complement = (set: ByteSet): ByteSet => set.map((member) => !member);

/** Adds the other case of every ASCII letter in the set (Rust's `(?i)` without Unicode). */
function foldCase(set: ByteSet): ByteSet {
  const folded = set.slice();
  for (let upper = 0x41; upper <= 0x5a; upper++) {
    if (set[upper] || set[upper + 0x20]) folded[upper] = folded[upper + 0x20] = true;
  }
  return folded;
}

const hexByte = (b: number): string => `\\x${b.toString(16).padStart(2, '0')}`;

/** A byte as RegExp source: letters and digits as themselves, anything else as `\xHH`. */
const literalByte = (b: number): string =>
  (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a)
    ? String.fromCharCode(b)
    : hexByte(b);

/**
 * A byte set as a RegExp class of explicit ranges, letters and digits as themselves: `[Aa]`, `[0-9]`. The
 * catalogue ships its patterns' translations (src/engine/managed/regex-plans.json), read by every process
 * that loads it, and `[\x41\x61]` is two and a half times as long (issue 22).
 */
function classSource(set: ByteSet): string {
  let out = '';
  for (let b = 0; b < 256; b++) {
    if (!set[b]) continue;
    let end = b;
    while (end + 1 < 256 && set[end + 1]) end++;
    out += end === b ? literalByte(b) : `${literalByte(b)}-${literalByte(end)}`;
    b = end;
  }
  return out === '' ? '[^\\x00-\\xff]' : `[${out}]`;
}

const classPiece = (set: ByteSet): Piece => ({
  source: classSource(set),
  quantifiable: true,
  hasCapture: false,
});

function bytePiece(b: number, flags: Flags): Piece {
  const isLetter = (b | 0x20) >= 0x61 && (b | 0x20) <= 0x7a;
  if (flags.caseInsensitive && isLetter) return classPiece(foldCase(setOfRanges([b, b])));
  return { source: literalByte(b), quantifiable: true, hasCapture: false };
}

const assertion = (source: string): Piece => ({ source, quantifiable: false, hasCapture: false });

class Translator {
  private at = 0;

  constructor(
    private readonly pattern: string,
    private readonly captures: boolean,
    private readonly relaxCounts = false,
  ) {}

  translate(): string {
    const flags: Flags = {
      caseInsensitive: false,
      multiLine: false,
      dotMatchesNewLine: false,
      swapGreed: false,
    };
    const { source } = this.alternation(flags);
    if (this.at !== this.pattern.length) throw new UnsupportedPattern('unbalanced parenthesis');
    return source;
  }

  private unsupported(what: string): never {
    throw new UnsupportedPattern(`${what} (at offset ${this.at})`);
  }

  /** Branches up to a `)` or the end; `flags` is the enclosing group's, changed by `(?flags)` in place. */
  private alternation(flags: Flags): { source: string; hasCapture: boolean } {
    const branches: string[] = [];
    let current = '';
    let hasCapture = false;
    while (this.at < this.pattern.length) {
      const ch = this.pattern[this.at];
      if (ch === ')') break;
      if (ch === '|') {
        branches.push(current);
        current = '';
        this.at++;
        continue;
      }
      const piece = this.atom(flags);
      if (!piece) continue;
      let source = piece.source;
      let quantifier = this.quantifier(flags);
      if (quantifier && !piece.quantifiable) this.unsupported('a repeated assertion');
      // Captures differ only when a group can run twice: JS clears them at each iteration.
      if (quantifier && piece.hasCapture && quantifier.max > 1) {
        this.unsupported('a capture group inside a repetition');
      }
      while (quantifier) {
        source += quantifier.source;
        quantifier = this.quantifier(flags);
        // Rust accepts a repetition of a repetition (`a**`); JS needs a group around the first.
        if (quantifier) {
          if (piece.hasCapture) this.unsupported('a capture group inside a repetition');
          source = `(?:${source})`;
        }
      }
      current += source;
      hasCapture ||= piece.hasCapture;
    }
    branches.push(current);
    return { source: branches.join('|'), hasCapture };
  }

  /** A quantifier as RegExp source, with the most times it lets its operand run. */
  private quantifier(flags: Flags): { source: string; max: number } | undefined {
    const ch = this.pattern[this.at];
    let base: string;
    let max: number;
    if (ch === '*' || ch === '+' || ch === '?') {
      base = ch;
      max = ch === '?' ? 1 : Number.POSITIVE_INFINITY;
      this.at++;
    } else if (ch === '{') {
      const counted = /\{([0-9]+)(,([0-9]*))?\}/y;
      counted.lastIndex = this.at;
      const match = counted.exec(this.pattern);
      if (!match) this.unsupported('a counted repetition in a form JavaScript reads differently');
      base = match[0];
      max =
        match[2] === undefined ? Number(match[1]) : match[3] ? Number(match[3]) : Number.POSITIVE_INFINITY;
      this.at += base.length;
      if (this.relaxCounts) {
        // `{n,m}` matches no more than `+` (or `*` when n is 0) does: the relaxed pattern finds a superset.
        base = Number(match[1]) === 0 ? '*' : '+';
        max = Number.POSITIVE_INFINITY;
      }
    } else {
      return undefined;
    }
    let lazy = false;
    if (this.pattern[this.at] === '?') {
      lazy = true;
      this.at++;
    }
    return { source: lazy !== flags.swapGreed ? `${base}?` : base, max };
  }

  private atom(flags: Flags): Piece | undefined {
    const ch = this.pattern[this.at] as string;
    switch (ch) {
      case '(':
        return this.group(flags);
      case '[':
        return classPiece(this.bracketClass(flags));
      case '.':
        this.at++;
        return classPiece(
          flags.dotMatchesNewLine ? setOfRanges([0, 255]) : complement(setOfRanges([10, 10])),
        );
      case '^':
        this.at++;
        // Multi-line: at the start or after a line feed (Rust's default, without CRLF mode).
        return assertion(flags.multiLine ? '(?<![^\\n])' : '^');
      case '$':
        this.at++;
        return assertion(flags.multiLine ? '(?![^\\n])' : '$');
      case '\\':
        return this.escape(flags);
      case '*':
      case '+':
      case '?':
      case '{':
        return this.unsupported('a repetition without an operand');
      default:
        return this.literal(flags);
    }
  }

  /** A literal character: one byte, or the UTF-8 bytes of a non-ASCII character as one unit. */
  private literal(flags: Flags): Piece {
    const lead = code(this.pattern[this.at] as string);
    const length = lead < 0x80 ? 1 : lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : 2;
    const bytes = this.pattern.slice(this.at, this.at + length);
    this.at += bytes.length;
    if (length === 1) return bytePiece(lead, flags);
    // Case folding without Unicode touches ASCII only, so these bytes stand for themselves.
    return {
      source: `(?:${Array.from(bytes, (b) => hexByte(code(b))).join('')})`,
      quantifiable: true,
      hasCapture: false,
    };
  }

  private group(outer: Flags): Piece | undefined {
    this.at++;
    let capture = this.captures;
    const flags = { ...outer };
    if (this.pattern[this.at] === '?') {
      this.at++;
      const named = /P?<([A-Za-z0-9_.[\]]+)>/y;
      named.lastIndex = this.at;
      const name = named.exec(this.pattern);
      if (name) {
        this.at += name[0].length;
        capture = this.captures;
      } else {
        capture = false;
        const directive = this.flagGroup(flags);
        if (directive) {
          // `(?flags)` changes the enclosing group from here on.
          Object.assign(outer, flags);
          return undefined;
        }
      }
    }
    const inner = this.alternation(flags);
    if (this.pattern[this.at] !== ')') this.unsupported('an unclosed group');
    this.at++;
    return {
      source: capture ? `(${inner.source})` : `(?:${inner.source})`,
      quantifiable: true,
      hasCapture: capture || inner.hasCapture,
    };
  }

  /** Reads `flags` up to `:` (a group follows: false) or `)` (a directive: true). */
  private flagGroup(flags: Flags): boolean {
    let enable = true;
    for (;;) {
      const ch = this.pattern[this.at++];
      if (ch === ':') return false;
      if (ch === ')') return true;
      if (ch === '-') enable = false;
      else if (ch === 'i') flags.caseInsensitive = enable;
      else if (ch === 'm') flags.multiLine = enable;
      else if (ch === 's') flags.dotMatchesNewLine = enable;
      else if (ch === 'U') flags.swapGreed = enable;
      else if (ch === 'u' && !enable) continue;
      else this.unsupported(ch === 'u' ? 'Unicode mode' : `the group or flag "(?${ch ?? ''}"`);
    }
  }

  private escape(flags: Flags): Piece {
    const ch = this.pattern[this.at + 1];
    if (ch === 'b' || ch === 'B') {
      if (this.pattern[this.at + 2] === '{') this.unsupported('a special word boundary');
      this.at += 2;
      // JS's `\b` without the `u` flag uses the same ASCII word characters as Rust's byte mode.
      return assertion(`\\${ch}`);
    }
    if (ch === 'A' || ch === 'z') {
      this.at += 2;
      return assertion(ch === 'A' ? '^' : '$');
    }
    const item = this.escapeItem();
    if (typeof item === 'number') return bytePiece(item, flags);
    return classPiece(flags.caseInsensitive ? foldCase(item) : item);
  }

  /** An escape that stands for a byte or a set of bytes (outside or inside a class). */
  private escapeItem(): number | ByteSet {
    const ch = this.pattern[this.at + 1];
    if (ch === undefined) this.unsupported('a trailing backslash');
    const perl = PERL_CLASSES[ch.toLowerCase()];
    if (perl) {
      this.at += 2;
      return ch === ch.toLowerCase() ? perl : complement(perl);
    }
    const special = SPECIAL_ESCAPES[ch];
    if (special !== undefined) {
      this.at += 2;
      return special;
    }
    if (ch === 'x') {
      const hex = /x(?:([0-9a-fA-F]{2})|\{([0-9a-fA-F]+)\})/y;
      hex.lastIndex = this.at + 1;
      const match = hex.exec(this.pattern);
      const value = match ? Number.parseInt((match[1] ?? match[2]) as string, 16) : Number.NaN;
      if (!match || !(value <= 0xff)) this.unsupported('a hex escape above \\xFF');
      this.at += 1 + match[0].length;
      // In byte mode `\xHH` is the byte HH, even above 0x7F.
      return value;
    }
    if (/[!-/:-@[-`{-~]/.test(ch) && ch !== '<' && ch !== '>') {
      this.at += 2;
      return code(ch);
    }
    this.unsupported(`the escape \\${ch}`);
  }

  private bracketClass(flags: Flags): ByteSet {
    this.at++;
    const negated = this.pattern[this.at] === '^';
    if (negated) this.at++;
    let set = emptySet();
    let first = true;
    for (;;) {
      const ch = this.pattern[this.at];
      if (ch === undefined) this.unsupported('an unclosed class');
      if (ch === ']' && !first) {
        this.at++;
        break;
      }
      first = false;
      if (ch === '[') {
        const ascii = /\[:(\^?)([a-z]+):\]/y;
        ascii.lastIndex = this.at;
        const match = ascii.exec(this.pattern);
        const named = match ? ASCII_CLASSES.get(match[2] as string) : undefined;
        if (!match || !named) this.unsupported('a nested class');
        this.at += match[0].length;
        set = union(set, match[1] ? complement(named) : named);
        continue;
      }
      if (/^(&&|--|~~)/.test(this.pattern.slice(this.at, this.at + 2)))
        this.unsupported('a class set operation');
      const from = this.classItem();
      if (typeof from !== 'number') {
        set = union(set, from);
        continue;
      }
      if (this.pattern[this.at] === '-' && this.pattern[this.at + 1] !== ']') {
        this.at++;
        const to = this.classItem();
        if (typeof to !== 'number') this.unsupported('a range ending in a class');
        for (let b = from; b <= to; b++) set[b] = true;
      } else {
        set[from] = true;
      }
    }
    if (flags.caseInsensitive) set = foldCase(set);
    return negated ? complement(set) : set;
  }

  private classItem(): number | ByteSet {
    const ch = this.pattern[this.at] as string;
    if (ch === '\\') {
      if (this.pattern[this.at + 1] === 'b') this.unsupported('\\b in a class');
      return this.escapeItem();
    }
    const b = code(ch);
    // Byte mode allows only ASCII characters in a class (regex-syntax: "Unicode not allowed here").
    if (b >= 0x80) this.unsupported('a non-ASCII character in a class');
    this.at++;
    return b;
  }
}

const union = (a: ByteSet, b: ByteSet): ByteSet => a.map((member, i) => member || (b[i] as boolean));

/**
 * The RegExp source (no flags needed) equivalent to a Cloudflare pattern, or UnsupportedPattern. With
 * `captures: false` (for a yes/no search) every group is written non-capturing, so the capture-group
 * restriction above does not apply. With `relaxCounts`, counted repetitions become `*` or `+`: the source
 * then matches everything the pattern matches and possibly more — a filter, not a translation.
 */
export function translatePattern(
  pattern: string,
  options: { captures?: boolean; relaxCounts?: boolean } = {},
): string {
  return new Translator(pattern, options.captures ?? true, options.relaxCounts ?? false).translate();
}
