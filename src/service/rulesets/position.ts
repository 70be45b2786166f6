import type { RulesetRuleRecord } from '../../store/store.js';
import { type BodyObject, invalid } from '../input.js';
import { notValid, onlyMembers } from './input.js';

/**
 * `position` on adding or editing a rule: `{before: <rule id>}` (`""`: first), `{after: <rule id>}`
 * (`""`: last) or `{index: n}` (from 1). Without it a new rule goes last and an edited rule stays where it is.
 */
export type Position = { before: string } | { after: string } | { index: number };

export function readPosition(body: BodyObject): Position | undefined {
  const position: BodyObject | undefined = body.object('position', 'position');
  if (position === undefined) return undefined;
  onlyMembers(body.get('position'), position.place, ['before', 'after', 'index']);
  const given = (['before', 'after', 'index'] as const).filter((key) => position.has(key));
  if (given.length !== 1) {
    throw invalid(position.place, 'position must have exactly one of before, after or index');
  }
  if (position.has('index')) {
    return { index: position.integer('index', 1, Number.MAX_SAFE_INTEGER) as number };
  }
  const key = given[0] as 'before' | 'after';
  const id = position.string(key, Number.POSITIVE_INFINITY) as string;
  return key === 'before' ? { before: id } : { after: id };
}

/**
 * `others` (the ruleset's rules without `rule`) with `rule` at `position`; `place` is where the body gave
 * the position, for errors. A rule id must be another rule of the ruleset, an index at most one past the end.
 */
export function placeRule(
  others: readonly RulesetRuleRecord[],
  rule: RulesetRuleRecord,
  position: Position,
  positionObject: BodyObject,
): RulesetRuleRecord[] {
  const at = indexOf(others, position, positionObject);
  return [...others.slice(0, at), rule, ...others.slice(at)];
}

function indexOf(others: readonly RulesetRuleRecord[], position: Position, object: BodyObject): number {
  const place = object.placeOf('position');
  if ('index' in position) {
    if (position.index > others.length + 1) {
      throw notValid(
        { ...place, pointer: `${place.pointer}/index` },
        position.index,
        `the ruleset would have ${others.length + 1} rules: give an index from 1 to ${others.length + 1}`,
      );
    }
    return position.index - 1;
  }
  const [key, id] =
    'before' in position ? (['before', position.before] as const) : (['after', position.after] as const);
  if (id === '') return key === 'before' ? 0 : others.length;
  const found = others.findIndex((other) => other.id === id);
  if (found === -1) {
    throw notValid(
      { ...place, pointer: `${place.pointer}/${key}` },
      id,
      'it is not the id of another rule of this ruleset',
    );
  }
  return key === 'before' ? found : found + 1;
}
