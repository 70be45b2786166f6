// Literal prefilter: substrings every match must contain, found in the parsed pattern, checked with indexOf

import { byteClassSet, type Representation } from './re2/translate.js';
import { utf8Of } from './re2/utf8.js';
import { applyFlags, DEFAULT_FLAGS, type Flags } from './syntax/flags.js';
import type { Ast, LiteralNode } from './syntax/syntax-tree.js';

/**
 * A literal, as bytes. A `folded` needle is compared with the input lower-cased by `toLowerCase`, which
 * on a binary string maps each byte to one byte (ASCII and Latin-1 letters), so a match under ASCII case
 * folding is always found. It is `loose` when that comparison can also succeed where the pattern does not
 * match (a case-sensitive letter or a non-ASCII byte was lower-cased with it): then it only filters.
 */
export interface Needle {
  text: string;
  folded: boolean;
  loose: boolean;
}

/** Where a needle must be: somewhere, at the start, at the end, or be the whole input. */
export type Place = 'anywhere' | 'start' | 'end' | 'whole';

/** One requirement: one of the needles is at the place. An empty list can never be met. */
export interface Check {
  place: Place;
  needles: Needle[];
}

export interface Prefilter {
  /** Requirements every matching input meets, cheapest and most selective first. */
  checks: Check[];
  /** The checks decide the answer on their own: the pattern is a set of literals, maybe anchored. */
  complete: boolean;
}

/** What a node can match, as far as literals go. */
interface Info {
  /** Every string the node can match, in priority order, when known and few. */
  exact?: Needle[];
  /** `exact` is all there is to the node: no assertion inside. */
  pure: boolean;
  /** Needle sets met by every match of the node. */
  required: Needle[][];
  /** Every match starts with one of these (the exact strings before the first unknown part). */
  prefix?: Needle[];
  /** Every match ends with one of these. */
  suffix?: Needle[];
}

/**
 * At most this many needles per set: beyond it, indexOf calls cost more than they save. An index that
 * looks for every needle in one pass (Aho–Corasick) takes many more (INDEX_NEEDLES).
 */
const MAX_NEEDLES = 16;
export const INDEX_NEEDLES = 512;
/** At most this many `anywhere` checks. */
const MAX_ANYWHERE = 2;

const UNKNOWN: Info = { pure: false, required: [] };
const EMPTY: Needle = { text: '', folded: false, loose: false };

const isCased = (ch: string): boolean => ch.toLowerCase() !== ch.toUpperCase();
const isAsciiLetter = (c: number): boolean => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);

function fold(needle: Needle): Needle {
  if (needle.folded) return needle;
  const lower = needle.text.toLowerCase();
  return { text: lower, folded: true, loose: Array.from(needle.text).some(isCased) };
}

function join(a: Needle, b: Needle): Needle {
  if (!a.folded && !b.folded) return { text: a.text + b.text, folded: false, loose: false };
  const fa = fold(a);
  const fb = fold(b);
  return { text: fa.text + fb.text, folded: true, loose: fa.loose || fb.loose };
}

function dedupe(needles: Needle[]): Needle[] {
  const seen = new Set<string>();
  return needles.filter((n) => {
    const key = `${n.folded ? 'f' : 'c'}${n.text}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function cross(a: Needle[], b: Needle[], maxNeedles: number): Needle[] | undefined {
  if (a.length * b.length > maxNeedles) return undefined;
  const out: Needle[] = [];
  for (const x of a) for (const y of b) out.push(join(x, y));
  return dedupe(out);
}

const isTrivial = (set: Needle[]): boolean => set.some((n) => n.text === '');

/** Higher is better: long needles find fewer inputs; many needles and folding cost time. */
function score(set: Needle[]): number {
  if (set.length === 0) return Number.POSITIVE_INFINITY;
  const shortest = Math.min(...set.map((n) => n.text.length));
  return shortest * 4 - set.length - (set.some((n) => n.folded) ? 1 : 0);
}

function best(sets: Needle[][]): Needle[] | undefined {
  let top: Needle[] | undefined;
  for (const set of sets) if (!isTrivial(set) && (!top || score(set) > score(top))) top = set;
  return top;
}

/** Reads literals off the tree with the flags in force, for one input representation. */
class Analyser {
  flags: Flags = DEFAULT_FLAGS;

  constructor(
    private readonly representation: Representation,
    private readonly maxNeedles: number,
  ) {}

  info(node: Ast): Info {
    switch (node.type) {
      case 'empty':
        return exactly([EMPTY], true);
      case 'flags':
        this.flags = applyFlags(this.flags, node.items);
        return exactly([EMPTY], true);
      case 'assertion':
        return exactly([EMPTY], false);
      case 'literal':
        return this.literal(node);
      case 'bracketed': {
        if (this.flags.unicode) return UNKNOWN;
        const set = byteClassSet(node, this.flags.caseInsensitive);
        const members = set.members();
        if (members.length > 4) return UNKNOWN;
        // In the unicode representation a byte ≥ 0x80 stands for a whole character (see translate.ts).
        if (this.representation === 'unicode' && members.some((b) => b >= 0x80)) return UNKNOWN;
        if (members.length === 2 && isAsciiLetter(members[0]) && members[1] === members[0] + 0x20) {
          return exactly([{ text: String.fromCharCode(members[1]), folded: true, loose: false }], true);
        }
        return exactly(
          members.map((b) => ({ text: String.fromCharCode(b), folded: false, loose: false })),
          true,
        );
      }
      case 'group': {
        const outer = this.flags;
        if (node.flags) this.flags = applyFlags(this.flags, node.flags);
        const info = this.info(node.sub);
        this.flags = outer;
        return info;
      }
      case 'repetition':
        return this.repetition(node.sub, node.min, node.max, node.greedy !== this.flags.swapGreed);
      case 'alternation':
        return this.alternation(node.subs);
      case 'concat':
        return this.concat(node.subs);
      default:
        return UNKNOWN;
    }
  }

  private literal(node: LiteralNode): Info {
    const { c } = node;
    const { caseInsensitive, unicode } = this.flags;
    if (!unicode && node.form === 'hexByte' && c >= 0x80) {
      return this.representation === 'bytes'
        ? exactly([{ text: String.fromCharCode(c), folded: false, loose: false }], true)
        : UNKNOWN;
    }
    const letter = c >= 0x80 || isAsciiLetter(c);
    // (?iu): Unicode folding (`k` matches U+212A), which needles do not model.
    if (unicode && caseInsensitive && letter) return UNKNOWN;
    if (caseInsensitive && c < 0x80 && letter) {
      return exactly([{ text: String.fromCharCode(c).toLowerCase(), folded: true, loose: false }], true);
    }
    return exactly([{ text: utf8Of(c), folded: false, loose: false }], true);
  }

  private repetition(sub: Ast, min: number, max: number | undefined, greedy: boolean): Info {
    const inner = this.info(sub);
    if (min === 0) {
      if (max !== 1 || !inner.exact) return UNKNOWN;
      const exact = greedy ? [...inner.exact, EMPTY] : [EMPTY, ...inner.exact];
      return exactly(dedupe(exact), inner.pure);
    }
    const required = inner.exact ? [...inner.required, inner.exact] : inner.required;
    if (inner.exact && max === min) {
      let exact: Needle[] | undefined = [EMPTY];
      for (let i = 0; i < min && exact; i++) exact = cross(exact, inner.exact, this.maxNeedles);
      if (exact) return { ...exactly(exact, inner.pure), required };
    }
    return { pure: false, required, prefix: inner.prefix, suffix: inner.suffix };
  }

  private alternation(subs: Ast[]): Info {
    const infos = subs.map((sub) => this.info(sub));
    let exact: Needle[] | undefined = [];
    for (const info of infos) exact = info.exact && exact ? [...exact, ...info.exact] : undefined;
    if (exact && exact.length <= this.maxNeedles)
      return exactly(
        dedupe(exact),
        infos.every((i) => i.pure),
      );
    // Every branch has a requirement: one of them is met.
    let union: Needle[] | undefined = [];
    for (const info of infos) {
      const set = best(info.exact ? [info.exact, ...info.required] : info.required);
      union = set && union ? [...union, ...set] : undefined;
    }
    union = union && dedupe(union);
    return { pure: false, required: union && union.length <= this.maxNeedles ? [union] : [] };
  }

  concat(subs: Ast[]): Info {
    const required: Needle[][] = [];
    let run: Needle[] = [EMPTY];
    let prefix: Needle[] | undefined;
    let whole = true;
    let pure = true;
    const endRun = (): void => {
      required.push(run);
      if (whole) prefix = run;
      whole = false;
    };
    for (const sub of subs) {
      const info = this.info(sub);
      required.push(...info.required);
      pure &&= info.pure;
      const joined = info.exact && cross(run, info.exact, this.maxNeedles);
      if (joined) {
        run = joined;
        continue;
      }
      if (info.exact) {
        endRun();
        run = info.exact;
        continue;
      }
      // An unknown part: the run ends, and what the part itself starts and ends with continues it.
      if (info.prefix) run = cross(run, info.prefix, this.maxNeedles) ?? run;
      endRun();
      run = info.suffix ?? [EMPTY];
    }
    required.push(run);
    if (whole) return { ...exactly(run, pure), required };
    return { pure: false, required, prefix: prefix && !isTrivial(prefix) ? prefix : undefined, suffix: run };
  }
}

function exactly(exact: Needle[], pure: boolean): Info {
  return { exact, pure, required: [], prefix: exact, suffix: exact };
}

/**
 * The prefilter of a pattern. At the top level, `^…` and `…$` (without `(?m)`) turn the first and last
 * literals into prefix and suffix checks, and a pattern made only of literals is decided by the checks.
 */
export function buildPrefilter(
  ast: Ast,
  representation: Representation,
  maxNeedles = MAX_NEEDLES,
): Prefilter {
  const subs = ast.type === 'concat' ? ast.subs : [ast];
  const analyser = new Analyser(representation, maxNeedles);
  // Flag directives before an anchor apply to it (`(?m)^` is a line anchor).
  let first = 0;
  while (first < subs.length && (subs[first].type === 'flags' || subs[first].type === 'empty')) {
    analyser.info(subs[first]);
    first++;
  }
  const head = subs[first];
  const startAnchored =
    head?.type === 'assertion' &&
    (head.kind === 'startText' || (head.kind === 'startLine' && !analyser.flags.multiLine));
  const bodyStart = startAnchored ? first + 1 : first;
  const tail = subs[subs.length - 1];
  const endCandidate =
    subs.length - 1 >= bodyStart &&
    tail.type === 'assertion' &&
    (tail.kind === 'endText' || tail.kind === 'endLine');
  const info = analyser.concat(subs.slice(bodyStart, endCandidate ? subs.length - 1 : subs.length));
  // The flags in force at the end decide whether a final `$` is an end anchor or a line anchor.
  const endAnchored =
    endCandidate && tail.type === 'assertion' && (tail.kind === 'endText' || !analyser.flags.multiLine);
  const pure = info.pure && endCandidate === endAnchored;

  // Loose needles only filter (see Needle), so they cannot decide.
  if (info.exact && pure && info.exact.every((n) => !n.loose)) {
    const place = startAnchored ? (endAnchored ? 'whole' : 'start') : endAnchored ? 'end' : 'anywhere';
    return { checks: [{ place, needles: info.exact }], complete: true };
  }
  const checks: Check[] = [];
  if (startAnchored && endAnchored && info.exact) {
    checks.push({ place: 'whole', needles: info.exact });
  } else {
    if (startAnchored && info.prefix && !isTrivial(info.prefix))
      checks.push({ place: 'start', needles: info.prefix });
    if (endAnchored && info.suffix && !isTrivial(info.suffix))
      checks.push({ place: 'end', needles: info.suffix });
  }
  return { checks: [...checks, ...anywhere(info.required, checks)], complete: false };
}

/** The best `anywhere` sets, skipping those an anchored check already covers. */
function anywhere(sets: Needle[][], anchored: Check[]): Check[] {
  const covered = new Set(anchored.map((c) => c.needles));
  const candidates = sets.filter((set) => !isTrivial(set) && !covered.has(set));
  candidates.sort((a, b) => score(b) - score(a));
  return candidates.slice(0, MAX_ANYWHERE).map((needles) => ({ place: 'anywhere' as const, needles }));
}
