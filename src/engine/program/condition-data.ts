import type { TypedValue } from '../../check/typed-ast.js';
import type { Atom, Condition, Tested } from './condition.js';
import { piecesOf } from './condition.js';

/**
 * A rule's condition (./condition.ts) written as JSON, so that a catalogue of rules checked ahead of time
 * can give the program its conditions without the expressions being parsed when a process starts
 * (src/engine/managed/conditions.ts). A tested value is written as its key (`waf.args.values[*]`,
 * `waf_transform("lowercase", http.request.uri.path)`), which is also the source text of the value: the
 * tree is built from it only when the program first compiles the value.
 *
 * `null` is "no condition": the rule is a candidate for every request.
 */
export type ConditionData = readonly AtomData[] | null;

/**
 * Atoms on one value: its exact values, or its literals (one atom each, written together since a phrase
 * list gives hundreds) with the place they must stand and the values they are scanned in.
 */
export type AtomData =
  | { in: string; equals: readonly string[] }
  | { in: string; texts: readonly string[]; place?: 'start' | 'end'; pieces: readonly string[] };

/** The condition as data; undefined when it holds atoms data cannot say (address ranges). */
export function conditionToData(condition: Condition): ConditionData | undefined {
  if (!condition) return null;
  const atoms: AtomData[] = [];
  for (const atom of condition) {
    if (atom.kind === 'ip') return undefined;
    if (atom.kind === 'equals') {
      atoms.push({ in: atom.value.key, equals: atom.values });
      continue;
    }
    const place = atom.place === 'anywhere' ? undefined : atom.place;
    const last = atoms[atoms.length - 1];
    if (last && 'texts' in last && last.in === atom.value.key && last.place === place) {
      (last.texts as string[]).push(atom.literal);
      continue;
    }
    atoms.push({
      in: atom.value.key,
      texts: [atom.literal],
      ...(place ? { place } : {}),
      pieces: (atom.pieces ?? piecesOf(atom.value)).map((piece) => piece.key),
    });
  }
  return atoms;
}

/**
 * Builds a value's tree from its source text: a key without the `[*]` of a value tested element by element
 * (`each`, an array then).
 */
export type ValueBuilder = (source: string, each: boolean) => TypedValue;

/** The condition back from data; `buildValue` is called the first time a value's tree is asked for. */
export function conditionFromData(data: ConditionData, buildValue: ValueBuilder): Condition {
  if (data === null) return undefined;
  // One Tested per key for all the conditions a builder reads (the same values recur in hundreds of rules).
  let known = testedByBuilder.get(buildValue);
  if (!known) {
    known = new Map();
    testedByBuilder.set(buildValue, known);
  }
  const cache = known;
  const tested = (key: string): Tested => {
    let value = cache.get(key);
    if (!value) {
      value = lazyTested(key, buildValue);
      cache.set(key, value);
    }
    return value;
  };
  return data.flatMap((atom): Atom[] => {
    const value = tested(atom.in);
    if ('equals' in atom) return [{ kind: 'equals', value, values: atom.equals }];
    const pieces = atom.pieces.map(tested);
    const place = atom.place ?? 'anywhere';
    return atom.texts.map((literal) => ({ kind: 'text', value, literal, place, pieces }));
  });
}

const testedByBuilder = new WeakMap<ValueBuilder, Map<string, Tested>>();

const EACH = '[*]';

/** A value's key read back: its source text, and whether it is tested element by element (`[*]`). */
export function valueKeyParts(key: string): { source: string; each: boolean } {
  const each = key.endsWith(EACH);
  return { source: each ? key.slice(0, -EACH.length) : key, each };
}

function lazyTested(key: string, buildValue: ValueBuilder): Tested {
  const { source, each } = valueKeyParts(key);
  let node: TypedValue | undefined;
  return {
    key,
    ...(each ? { each } : {}),
    get node() {
      node ??= buildValue(source, each);
      return node;
    },
  };
}
