import { compileValue, type Filter } from '../../eval/compile.js';
import type { RequestContext } from '../../eval/context.js';
import { TextScanner } from '../../eval/text-scan.js';
import type { IpAddress, IpRange } from '../../scheme/ip.js';
import { asciiLower, type Value } from '../../scheme/values.js';
import type { Candidates, RuleMatcher } from '../matcher.js';
import {
  type Atom,
  type Condition,
  conditionOf,
  countTestedValues,
  holdsAlmostAlways,
  piecesOf,
  type Tested,
} from './condition.js';
import { IpIndex } from './ip-index.js';
import { grown, type LiteralGroups, LiteralUses } from './literal-uses.js';

/**
 * A zone's rule expressions as one indexed program (docs/engine-program.md). Each rule's necessary
 * condition (./condition.ts) goes into an index per field — exact values in a hash map, address ranges in
 * one segment structure, literals in one Aho–Corasick automaton — so that a request reads each indexed
 * field once and only the rules it may match run their whole expression. Rules without a condition run
 * for every request. The answers are those of running every rule (a property test holds it to that).
 */
export function indexedMatcher(
  filters: readonly Filter[],
  neverRun: ReadonlySet<number> = new Set(),
): RuleMatcher {
  const program = new IndexedProgram(filters, neverRun);
  return {
    forRequest: (context) => program.forRequest(context),
    candidates: (context) => program.candidates(context),
  };
}

type TextPlace = 'anywhere' | 'start' | 'end';

/**
 * A filter whose condition was worked out ahead of time (the managed catalogue's, kept as data:
 * src/engine/managed/conditions.ts), so that the program need not read its tree, nor the filter build it.
 */
export interface FilterWithCondition extends Filter {
  readonly knownCondition: Condition;
}

const hasKnownCondition = (filter: Filter): filter is FilterWithCondition => 'knownCondition' in filter;

/** How the program reads a tested value for a request: compiled once, read once per request. */
type Reader = (context: RequestContext) => Value | undefined;

/** A rule that needs a literal in a piece (./condition.ts, piecesOf), and where in an element of it. */
interface TextUse {
  rule: number;
  piece: number;
  place: TextPlace;
}

interface TextIndex {
  scanner: TextScanner;
  /**
   * Per literal id: its uses anywhere in a text, by piece, which a second occurrence in the same text
   * cannot add to. Grouped by piece because a literal is shared by many rules over the same pieces: an
   * occurrence then looks at each piece once, not at each of its rules (a third of the visits).
   */
  anywhere: LiteralGroups;
  /** Per literal id: its uses at the start or end of a text. */
  placed: TextUse[][];
  /** Per literal id: the number of the last text it was found in. */
  foundIn: Int32Array;
}

class IndexedProgram {
  /** 1 for rules without a condition: candidates for every request. */
  private readonly always: Uint8Array;
  /** Their indices. */
  private readonly alwaysIndices: number[] = [];
  private readonly equals: { read: Reader; values: Map<string, number[]> }[] = [];
  private readonly ips: { read: Reader; index: IpIndex }[] = [];
  private readonly readers = new Map<string, Reader>();
  /** The values scanned for literals, by piece number. */
  private readonly pieces: Reader[] = [];
  /**
   * The literals, all looked for in any case: one pass over each text rather than two (one per case
   * rule). A literal written with its case (not from a regex's `(?i)`) then also finds the text in
   * another case, which costs its rules a run of their expression, never a wrong answer.
   */
  private readonly text: TextIndex | undefined;
  /** Per piece, the number of the text being scanned when it is one of the piece's elements. */
  private readonly owners: Int32Array;
  private scanned = 0;
  /** A request's texts and their pieces, in arrays kept from one request to the next. */
  private readonly textOwners = new TextOwners();
  /**
   * The marks of the last request asked about, in one array kept from request to request (V8 makes a typed
   * array of more than 64 bytes outside its heap, which cost a thousand-rule zone 2 µs a request: more than
   * finding its candidates). `asked` counts the requests asked about, so that an answer made for an earlier
   * one knows when the marks are no longer its own.
   */
  private readonly marks: Uint8Array;
  private marked: readonly number[] = [];
  private asked = 0;

  /** `neverRun`: filters the engine never asks about (rules that cannot run): never candidates. */
  constructor(
    private readonly filters: readonly Filter[],
    neverRun: ReadonlySet<number>,
  ) {
    this.always = new Uint8Array(filters.length);
    const equals = new Map<string, Map<string, number[]>>();
    const ips = new Map<string, { range: IpRange; rule: number }[]>();
    const pieceNumbers = new Map<string, number>();
    // Atoms read from data share their pieces (one array for all the literals of a value): numbered once.
    const numbersOfPieces = new WeakMap<readonly Tested[], number[]>();
    const pieceNumbersOf = (atom: Extract<Atom, { kind: 'text' }>): number[] => {
      const pieces = atom.pieces ?? piecesOf(atom.value);
      let numbers = numbersOfPieces.get(pieces);
      if (!numbers) {
        numbers = pieces.map((piece) => {
          const key = this.key(piece);
          return mapOf(pieceNumbers, key, () => this.pieces.push(this.reader(key)) - 1);
        });
        numbersOfPieces.set(pieces, numbers);
      }
      return numbers;
    };
    const scanner = new TextScanner(true);
    const literalIds = new Map<string, number>();
    const anywhere = new LiteralUses();
    const placed: TextUse[][] = [];
    // A filter whose condition is known already is not read again (its tree may not even be built yet).
    const toRead = filters.filter(
      (f, rule) => f.expression === 'filter' && !hasKnownCondition(f) && !neverRun.has(rule),
    );
    const popularity = countTestedValues(toRead.map((f) => f.ast));
    filters.forEach((filter, rule) => {
      if (neverRun.has(rule)) return;
      const condition = hasKnownCondition(filter)
        ? filter.knownCondition
        : filter.expression === 'filter'
          ? conditionOf(filter.ast, popularity)
          : undefined;
      if (!condition || condition.some(holdsAlmostAlways)) {
        this.always[rule] = 1;
        this.alwaysIndices.push(rule);
        return;
      }
      for (let a = 0; a < condition.length; a++) {
        const atom = condition[a] as Atom;
        if (atom.kind === 'equals') {
          const values = mapOf(equals, this.key(atom.value), () => new Map<string, number[]>());
          for (const value of atom.values) mapOf(values, value, () => []).push(rule);
        } else if (atom.kind === 'ip') {
          const list = mapOf(ips, this.key(atom.value), () => []);
          for (const range of atom.ranges) list.push({ range, rule });
        } else {
          const literal = asciiLower(atom.literal);
          const id = mapOf(literalIds, literal, () => {
            placed.push([]);
            return scanner.add(literal);
          });
          // Indexed loops here and above: this runs once per process, mostly before V8 optimises it, and an
          // unoptimised `for…of` allocates at each step.
          const pieces = pieceNumbersOf(atom);
          for (let k = 0; k < pieces.length; k++) {
            const piece = pieces[k] as number;
            if (atom.place !== 'anywhere') (placed[id] as TextUse[]).push({ rule, piece, place: atom.place });
            else anywhere.add(id, piece, rule);
          }
        }
      }
    });
    for (const [key, values] of equals) this.equals.push({ read: this.reader(key), values });
    for (const [key, entries] of ips) this.ips.push({ read: this.reader(key), index: new IpIndex(entries) });
    if (literalIds.size > 0) {
      scanner.build();
      this.text = {
        scanner,
        anywhere: anywhere.groups(literalIds.size, this.pieces.length),
        placed,
        foundIn: new Int32Array(literalIds.size),
      };
    }
    this.owners = new Int32Array(this.pieces.length);
    this.marks = this.always.slice();
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
    let asked = -1;
    return (index) => {
      // The marks are this request's until another is asked about; then they are worked out again.
      if (asked !== this.asked) {
        this.candidates(context);
        asked = this.asked;
      }
      return this.marks[index] === 1 && (this.filters[index] as Filter).match(context);
    };
  }

  /**
   * The rules the request may match: those without a condition, and those an index names. The marks are
   * valid until the next call (the array is reused).
   */
  candidates(context: RequestContext): Candidates {
    const { marks, always } = this;
    // The last request's marks, undone (the rules without a condition stay marked for every request).
    for (const rule of this.marked) if (always[rule] === 0) marks[rule] = 0;
    this.asked++;
    const found = new CandidateMarks(marks, this.alwaysIndices.slice());
    this.marked = found.indices;
    for (const { read, values } of this.equals) {
      // A value tested element by element (`any(X[*] eq …)`) is an array: each element is looked up.
      forEachText(read(context), (value) => {
        const rules = values.get(value);
        if (rules) for (const rule of rules) found.mark(rule);
      });
    }
    for (const { read, index } of this.ips) {
      const value = read(context);
      if (value === undefined || typeof value !== 'object' || !('family' in value)) continue;
      for (const rule of index.find(value as IpAddress)) found.mark(rule);
    }
    if (this.text) this.scanTexts(this.text, context, found);
    return found;
  }

  /**
   * Marks the rules whose literal is in one of their pieces. Each distinct text is scanned once, whatever
   * the number of pieces it is an element of: chains of transformations mostly leave a value as it is, so
   * the same few texts make up most pieces.
   */
  private scanTexts(index: TextIndex, context: RequestContext, found: CandidateMarks): void {
    const owning = this.textOwners;
    owning.clear();
    for (let piece = 0; piece < this.pieces.length; piece++)
      forEachText((this.pieces[piece] as Reader)(context), owning.add, piece);
    const owners = this.owners;
    const { scanner, anywhere, placed, foundIn } = index;
    const { groupStart, groupPiece, ruleStart, rules } = anywhere;
    const { texts } = owning;
    for (let at = 0; at < texts.length; at++) {
      const text = texts[at] as string;
      // A number per text scanned, so that "is the piece an owner of this text" and "was the literal
      // found in this text already" are one comparison each.
      if (this.scanned === 0x7fffffff) this.restartNumbering();
      const number = ++this.scanned;
      owning.stampOwners(at, owners, number);
      scanner.scan(text, (literal, end) => {
        if (foundIn[literal] !== number) {
          foundIn[literal] = number;
          const groupsEnd = groupStart[literal + 1] as number;
          for (let group = groupStart[literal] as number; group < groupsEnd; group++) {
            if (owners[groupPiece[group] as number] !== number) continue;
            const rulesEnd = ruleStart[group + 1] as number;
            for (let k = ruleStart[group] as number; k < rulesEnd; k++) found.mark(rules[k] as number);
          }
        }
        for (const use of placed[literal] as TextUse[]) {
          if (owners[use.piece] !== number) continue;
          const at = use.place === 'start' ? end - (scanner.literals[literal] as string).length : end;
          if (at === (use.place === 'start' ? 0 : text.length)) found.mark(use.rule);
        }
      });
    }
  }

  private restartNumbering(): void {
    this.owners.fill(0);
    this.text?.foundIn.fill(0);
    this.scanned = 0;
  }
}

/** Candidates as they are found: each rule's mark, and the marked rules listed once each. */
class CandidateMarks implements Candidates {
  constructor(
    readonly marks: Uint8Array,
    readonly indices: number[],
  ) {}

  mark(rule: number): void {
    if (this.marks[rule] === 1) return;
    this.marks[rule] = 1;
    this.indices.push(rule);
  }
}

/**
 * A Bytes value, or each Bytes element of an array value; `extra` is passed along, so that a caller
 * looping over many values needs no closure per value.
 */
function forEachText<Extra>(
  value: Value | undefined,
  visit: (text: string, extra: Extra) => void,
  extra?: Extra,
): void {
  if (typeof value === 'string') visit(value, extra as Extra);
  else if (Array.isArray(value))
    for (const item of value) if (typeof item === 'string') visit(item, extra as Extra);
}

/** Up to this many texts a request, TextOwners finds a text's number by comparing it with each. */
const FEW_TEXTS = 8;

/**
 * A request's distinct texts, numbered as met, and the pieces each is an element of: as linked lists of
 * (text, piece) pairs in typed arrays that the next request reuses. (The managed rulesets' index meets
 * some 850 pairs a request; as a map of fresh arrays they were a fifth of all a request allocated.)
 */
class TextOwners {
  readonly texts: string[] = [];
  private readonly numbers = new Map<string, number>();
  /** Per text, its last pair (-1: none yet); per pair, the pair of the same text before it, and its piece. */
  private last: Int32Array = new Int32Array(64);
  private previous: Int32Array = new Int32Array(256);
  private piece: Int32Array = new Int32Array(256);
  private pairs = 0;

  clear(): void {
    if (this.texts.length > FEW_TEXTS) this.numbers.clear();
    this.texts.length = 0;
    this.pairs = 0;
  }

  /** Records that `text` is an element of `piece` (pieces come in order: a repeat is the last pair). */
  readonly add = (text: string, piece: number): void => {
    let number = this.numberOf(text);
    if (number === undefined) {
      number = this.texts.push(text) - 1;
      if (number === FEW_TEXTS)
        for (let at = 0; at <= number; at++) this.numbers.set(this.texts[at] as string, at);
      else if (number > FEW_TEXTS) this.numbers.set(text, number);
      if (number === this.last.length) this.last = grown(this.last);
      this.last[number] = -1;
    } else if (this.piece[this.last[number] as number] === piece) return;
    if (this.pairs === this.piece.length) {
      this.previous = grown(this.previous);
      this.piece = grown(this.piece);
    }
    const pair = this.pairs++;
    this.piece[pair] = piece;
    this.previous[pair] = this.last[number] as number;
    this.last[number] = pair;
  };

  /**
   * A text's number, if it has one: a zone of firewall rules reads a handful of texts a request, which a
   * loop compares faster than a map hashes them; the map takes over past FEW_TEXTS.
   */
  private numberOf(text: string): number | undefined {
    const { texts } = this;
    if (texts.length > FEW_TEXTS) return this.numbers.get(text);
    for (let at = 0; at < texts.length; at++) if (texts[at] === text) return at;
    return undefined;
  }

  /** Writes `stamp` into `owners` at each piece that text number `text` is an element of. */
  stampOwners(text: number, owners: Int32Array, stamp: number): void {
    for (let pair = this.last[text] as number; pair >= 0; pair = this.previous[pair] as number)
      owners[this.piece[pair] as number] = stamp;
  }
}

function mapOf<K, V>(map: Map<K, V>, key: K, create: () => V): V {
  let value = map.get(key);
  if (value === undefined) {
    value = create();
    map.set(key, value);
  }
  return value;
}
