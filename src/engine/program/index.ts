import { compileValue, type Filter } from '../../eval/compile.js';
import type { RequestContext } from '../../eval/context.js';
import { TextScanner } from '../../eval/text-scan.js';
import type { IpAddress, IpRange } from '../../scheme/ip.js';
import type { Value } from '../../scheme/values.js';
import type { RuleMatcher } from '../matcher.js';
import { type Atom, conditionOf, countTestedValues, type Tested } from './condition.js';
import { IpIndex } from './ip-index.js';

/**
 * A zone's rule expressions as one indexed program (docs/engine-program.md). Each rule's necessary
 * condition (./condition.ts) goes into an index per field — exact values in a hash map, address ranges in
 * one segment structure, literals in one Aho–Corasick automaton — so that a request reads each indexed
 * field once and only the rules it may match run their whole expression. Rules without a condition run
 * for every request. The answers are those of running every rule (a property test holds it to that).
 */
export function indexedMatcher(filters: readonly Filter[]): RuleMatcher {
  const program = new IndexedProgram(filters);
  return {
    forRequest: (context) => program.forRequest(context),
    candidates: (context) => program.candidates(context),
  };
}

type TextPlace = 'anywhere' | 'start' | 'end';

/** How the program reads a tested value for a request: compiled once, read once per request. */
type Reader = (context: RequestContext) => Value | undefined;

interface TextIndex {
  read: Reader;
  scanner: TextScanner;
  /** Per literal id: the rules and where the literal must be. */
  uses: { rule: number; place: TextPlace }[][];
}

class IndexedProgram {
  /** 1 for rules without a condition: candidates for every request. */
  private readonly always: Uint8Array;
  private readonly equals: { read: Reader; values: Map<string, number[]> }[] = [];
  private readonly ips: { read: Reader; index: IpIndex }[] = [];
  private readonly readers = new Map<string, Reader>();
  private readonly texts: TextIndex[] = [];

  constructor(private readonly filters: readonly Filter[]) {
    this.always = new Uint8Array(filters.length);
    const equals = new Map<string, Map<string, number[]>>();
    const ips = new Map<string, { range: IpRange; rule: number }[]>();
    const texts = new Map<string, { literal: string; rule: number; place: TextPlace }[]>();
    const popularity = countTestedValues(filters.filter((f) => f.expression === 'filter').map((f) => f.ast));
    filters.forEach((filter, rule) => {
      const condition = filter.expression === 'filter' ? conditionOf(filter.ast, popularity) : undefined;
      if (!condition || condition.some(holdsAlmostAlways)) {
        this.always[rule] = 1;
        return;
      }
      for (const atom of condition) {
        if (atom.kind === 'equals') {
          const values = mapOf(equals, this.key(atom.value), () => new Map<string, number[]>());
          for (const value of atom.values) mapOf(values, value, () => []).push(rule);
        } else if (atom.kind === 'ip') {
          const list = mapOf(ips, this.key(atom.value), () => []);
          for (const range of atom.ranges) list.push({ range, rule });
        }
        // Folded literals (lower case, from a regex's `(?i)`) go to a scanner that ignores the text's case.
        else
          mapOf(texts, `${atom.folded ? 'ci|' : ''}${this.key(atom.value)}`, () => []).push({
            literal: atom.literal,
            rule,
            place: atom.place,
          });
      }
    });
    for (const [key, values] of equals) this.equals.push({ read: this.reader(key), values });
    for (const [key, entries] of ips) this.ips.push({ read: this.reader(key), index: new IpIndex(entries) });
    for (const [textKey, entries] of texts) {
      const ignoreCase = textKey.startsWith('ci|');
      const key = ignoreCase ? textKey.slice(3) : textKey;
      const scanner = new TextScanner(ignoreCase);
      const ids = new Map<string, number>();
      const uses: TextIndex['uses'] = [];
      for (const { literal, rule, place } of entries) {
        let id = ids.get(literal);
        if (id === undefined) {
          id = scanner.add(literal);
          ids.set(literal, id);
          uses[id] = [];
        }
        (uses[id] as TextIndex['uses'][number]).push({ rule, place });
      }
      scanner.build();
      this.texts.push({ read: this.reader(key), scanner, uses });
    }
  }

  /** Registers the value an atom tests; its key. */
  private key(tested: Tested): string {
    if (!this.readers.has(tested.key)) this.readers.set(tested.key, compileValue(tested.node));
    return tested.key;
  }

  private reader(key: string): Reader {
    return this.readers.get(key) as Reader;
  }

  forRequest(context: RequestContext): (index: number) => boolean {
    let candidates: Uint8Array | undefined;
    return (index) => {
      candidates ??= this.candidates(context);
      return candidates[index] === 1 && (this.filters[index] as Filter).match(context);
    };
  }

  /** 1 for the rules the request may match: those without a condition, and those an index names. */
  candidates(context: RequestContext): Uint8Array {
    const marks = this.always.slice();
    for (const { read, values } of this.equals) {
      // A value tested element by element (`any(X[*] eq …)`) is an array: each element is looked up.
      forEachText(read(context), (value) => {
        const rules = values.get(value);
        if (rules) for (const rule of rules) marks[rule] = 1;
      });
    }
    for (const { read, index } of this.ips) {
      const value = read(context);
      if (value === undefined || typeof value !== 'object' || !('family' in value)) continue;
      for (const rule of index.find(value as IpAddress)) marks[rule] = 1;
    }
    for (const { read, scanner, uses } of this.texts) {
      forEachText(read(context), (value) => {
        scanner.scan(value, (literal, end) => {
          const start = end - (scanner.literals[literal] as string).length;
          for (const use of uses[literal] as TextIndex['uses'][number]) {
            if (use.place === 'anywhere' || (use.place === 'start' ? start === 0 : end === value.length))
              marks[use.rule] = 1;
          }
        });
      });
    }
    return marks;
  }
}

/**
 * A literal of one letter or digit anywhere in a value (a regex's needles can come down to that:
 * `\b(?:a|d…)`): nearly every request has one, so indexing it costs a look-up per occurrence and spares
 * no rule.
 */
const holdsAlmostAlways = (atom: Atom): boolean =>
  atom.kind === 'text' && atom.place === 'anywhere' && /^[a-z0-9]$/i.test(atom.literal);

/** A Bytes value, or each Bytes element of an array value. */
function forEachText(value: Value | undefined, visit: (text: string) => void): void {
  if (typeof value === 'string') visit(value);
  else if (Array.isArray(value)) for (const item of value) if (typeof item === 'string') visit(item);
}

function mapOf<K, V>(map: Map<K, V>, key: K, create: () => V): V {
  let value = map.get(key);
  if (value === undefined) {
    value = create();
    map.set(key, value);
  }
  return value;
}
