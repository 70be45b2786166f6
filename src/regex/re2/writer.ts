// RE2: writing the tree in RE2 syntax, and compiling it with re2-wasm

import type { Span } from '../syntax/errors.js';
import type {
  AssertionKind,
  AssertionNode,
  Ast,
  BracketedNode,
  ClassSet,
  FlagItem,
  PerlNode,
  RepetitionNode,
  UnicodeNode,
} from '../syntax/syntax-tree.js';
import { isHeapFailure, loadRe2, type Re2Class, type Re2Object } from './module.js';

/**
 * Cost units of a translated pattern, roughly RE2 program instructions (a repeated operand is compiled once
 * per copy; a Unicode property class costs thousands). re2-wasm aborts, for good, when a compile outgrows its
 * 16 MiB heap instead of reporting RE2's memory limit: `\p{L}{80}` or 300 `x{1000}` in a row did in our
 * measurements, while 60,000 units (`\p{L}{20}`, 60 `[a-z]{1000}`) left room for other live regexes.
 */
export const RE2_UNIT_BUDGET = 60_000;
const RE2_PROPERTY_UNITS = 3000;
const RE2_MAX_REPEAT = 1000;
export const RE2_TOO_LARGE = 'pattern too large for RE2, the engine cfrules runs regexes with';
export const PROPERTY_NOT_FOUND =
  'Unicode property not found (cfrules knows the general categories and scripts RE2 knows, such as \\pL, \\p{Lu} or \\p{Greek})';
const GENERAL_CATEGORIES = new Set(
  'l lu ll lt lm lo m mn mc me n nd nl no p pc pd ps pe pi pf po s sm sc sk so z zs zl zp c cc cf cs co cn'.split(
    ' ',
  ),
);
const RE2_META = new Set(Array.from('\\.+*?()|[]{}^$'));

interface Written {
  text: string;
  units: number;
  /** Product of nested counted repetitions (RE2 allows at most 1000). */
  product: number;
}

/** Writes the tree in RE2 syntax and notes what RE2 cannot express. */
export class Re2Writer {
  private readonly problems: { span: Span; description: string }[] = [];
  /** Unicode property classes as written for RE2, to point at the one RE2 does not know. */
  readonly properties: { text: string; span: Span }[] = [];

  /** The first problem in the text. */
  firstProblem(): { span: Span; description: string } | undefined {
    return this.problems.reduce<{ span: Span; description: string } | undefined>(
      (first, p) => (!first || p.span.start.offset < first.span.start.offset ? p : first),
      undefined,
    );
  }

  write(node: Ast): Written {
    const leaf = (text: string, units: number): Written => ({ text, units, product: 1 });
    switch (node.type) {
      case 'empty':
        return leaf('', 0);
      case 'flags': {
        const flags = this.flags(node.items);
        return leaf(flags === '' ? '' : `(?${flags})`, 0);
      }
      case 'literal':
        return leaf(re2Literal(node.c), 1);
      case 'dot':
        return leaf('.', 10);
      case 'assertion':
        return leaf(this.assertion(node), 1);
      case 'perl':
        return leaf(perl(node), 4);
      case 'unicode':
        return leaf(this.property(node), RE2_PROPERTY_UNITS);
      case 'bracketed':
        return this.bracketed(node);
      case 'repetition':
        return this.repetition(node);
      case 'group': {
        const sub = this.write(node.sub);
        const open = node.capturing ? '(' : `(?${this.flags(node.flags ?? [])}:`;
        return { ...sub, text: `${open}${sub.text})` };
      }
      case 'alternation':
      case 'concat': {
        const subs = node.subs.map((sub) => this.write(sub));
        return {
          text: subs.map((sub) => sub.text).join(node.type === 'alternation' ? '|' : ''),
          units: subs.reduce((sum, sub) => sum + sub.units, 0),
          product: subs.reduce((most, sub) => Math.max(most, sub.product), 1),
        };
      }
    }
  }

  /** RE2 knows `imsU`; `u` and `x` are resolved by the translation; `R` has no equivalent. */
  private flags(items: FlagItem[]): string {
    let on = '';
    let off = '';
    let negated = false;
    for (const item of items) {
      if (item.flag === '-') negated = true;
      else if (item.flag === 'R')
        this.problems.push({ span: item.span, description: 'CRLF mode (?R) is not supported by RE2' });
      else if ('imsU'.includes(item.flag) && negated) off += item.flag;
      else if ('imsU'.includes(item.flag)) on += item.flag;
    }
    return off === '' ? on : `${on}-${off}`;
  }

  private assertion(node: AssertionNode): string {
    const simple: Partial<Record<AssertionKind, string>> = {
      startLine: '^',
      endLine: '$',
      startText: '\\A',
      endText: '\\z',
      word: '\\b',
      notWord: '\\B',
    };
    const text = simple[node.kind];
    if (text !== undefined) return text;
    this.problems.push({
      span: node.span,
      description: 'this word boundary assertion is not supported by RE2',
    });
    return '\\b';
  }

  private property(node: UnicodeNode): string {
    let negated = node.negated;
    let name = node.name;
    if (node.value !== undefined) {
      const key = looseName(node.name);
      if (node.notEqual) negated = !negated;
      name = ['gc', 'generalcategory', 'sc', 'script'].includes(key)
        ? node.value
        : `${node.name}=${node.value}`;
    }
    const loose = looseName(name);
    if (loose === 'any') name = 'Any';
    else if (GENERAL_CATEGORIES.has(loose)) name = loose[0].toUpperCase() + loose.slice(1);
    const text = `\\${negated ? 'P' : 'p'}${name.length === 1 ? name : `{${name}}`}`;
    this.properties.push({ text, span: node.span });
    return text;
  }

  private bracketed(node: BracketedNode): Written {
    const parts: string[] = [];
    let units = node.negated ? 10 : 0;
    const add = (item: ClassSet): void => {
      switch (item.type) {
        case 'literal':
          parts.push(re2ClassChar(item.c));
          units += item.c > 0x7f ? 8 : 1;
          return;
        case 'range':
          parts.push(`${re2ClassChar(item.start.c)}-${re2ClassChar(item.end.c)}`);
          units += item.end.c > 0x7f ? 8 : 1;
          return;
        case 'ascii':
          parts.push(`[:${item.negated ? '^' : ''}${item.name}:]`);
          units += 4;
          return;
        case 'perl':
          parts.push(perl(item));
          units += 4;
          return;
        case 'unicode':
          parts.push(this.property(item));
          units += RE2_PROPERTY_UNITS;
          return;
        case 'union':
          for (const inner of item.items) add(inner);
          return;
        case 'empty':
          return;
        case 'bracketed':
          // A nested class is a union of its items, unless negated (RE2 cannot nest classes).
          if (item.negated) {
            this.problems.push({
              span: item.span,
              description: 'negated classes inside a class are not supported by RE2',
            });
          }
          add(item.set);
          return;
        case 'setop':
          this.problems.push({
            span: item.span,
            description: 'class set operations are not supported by RE2',
          });
          return;
      }
    };
    add(node.set);
    return { text: `[${node.negated ? '^' : ''}${parts.join('')}]`, units, product: 1 };
  }

  private repetition(node: RepetitionNode): Written {
    const sub = this.write(node.sub);
    // RE2 rejects a repetition of a repetition (`a**`) and counts only in braces written as digits.
    const atom = ['literal', 'dot', 'perl', 'unicode', 'bracketed', 'group'].includes(node.sub.type);
    const operand = atom ? sub.text : `(?:${sub.text})`;
    const lazy = node.greedy ? '' : '?';
    const { min, max } = node;
    switch (node.op) {
      case '?':
      case '*':
      case '+':
        return { text: `${operand}${node.op}${lazy}`, units: sub.units, product: sub.product };
      default: {
        const count =
          node.op === 'exactly' ? `{${min}}` : node.op === 'atLeast' ? `{${min},}` : `{${min},${max}}`;
        const copies = max ?? min + 1;
        const product = Math.max(max ?? min, 1) * sub.product;
        if (product > RE2_MAX_REPEAT) {
          this.problems.push({
            span: node.opSpan,
            description: 'counted repetition above 1000 (nested counts multiplied) is not supported by RE2',
          });
        }
        return { text: `${operand}${count}${lazy}`, units: Math.max(copies, 1) * sub.units, product };
      }
    }
  }
}

function perl(node: PerlNode): string {
  return `\\${node.negated ? node.letter.toUpperCase() : node.letter}`;
}

/** Rust's loose matching of property names: case, spaces, `_` and `-` do not matter. */
function looseName(name: string): string {
  return name.replace(/[\s_-]/gu, '').toLowerCase();
}

function hexEscape(c: number): string {
  return `\\x{${c.toString(16).toUpperCase()}}`;
}

function re2Literal(c: number): string {
  if (c < 0x20 || c > 0x7e) return hexEscape(c);
  const ch = String.fromCharCode(c);
  return RE2_META.has(ch) ? `\\${ch}` : ch;
}

function re2ClassChar(c: number): string {
  return /^[0-9A-Za-z]$/.test(String.fromCodePoint(c)) ? String.fromCodePoint(c) : hexEscape(c);
}

/** `undefined` until first use; `null` where RE2 cannot be loaded or its heap was exhausted. */
let re2Class: Re2Class | null | undefined;

function re2(): Re2Class | null {
  if (re2Class === undefined) {
    try {
      re2Class = loadRe2();
    } catch {
      re2Class = null; // outside Node.js: only the regex-syntax checks run
    }
  }
  return re2Class;
}

/** Compiles with RE2 and frees the result; returns RE2's error text, if any. */
export function compileWithRe2(pattern: string): string | undefined {
  const Re2 = re2();
  if (!Re2) return undefined;
  let compiled: Re2Object | undefined;
  try {
    compiled = new Re2(pattern, false, false, false);
    return compiled.ok() ? undefined : `rejects it: ${compiled.error()}`;
  } catch (err) {
    // An abort (heap exhausted) leaves the wasm module unusable: stop using it.
    if (isHeapFailure(err)) {
      re2Class = null;
      return 'could not compile it (out of memory)';
    }
    throw err;
  } finally {
    compiled?.delete();
  }
}
