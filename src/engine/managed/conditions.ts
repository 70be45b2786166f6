import type { TypedExpression, TypedValue } from '../../check/typed-ast.js';
import { type ValidateOptions, validate } from '../../check/validate.js';
import type { ConditionData, ValueBuilder } from '../program/condition-data.js';
import table from './conditions.json' with { type: 'json' };

/**
 * What the zone program's index needs of each catalogue rule — the literals a request must hold for the rule
 * to match, and in which transformed values — worked out ahead of time, by rule id: working it out means
 * parsing and checking all 594 expressions, which was most of the time a process took to compile a zone
 * deploying both managed rulesets (issue 22). With the table, a rule's expression is parsed the first time
 * a request runs it. The table is data written by `npm run catalogue` (scripts/catalogue.ts);
 * test/engine/catalogue-data.test.ts fails when it no longer matches the catalogue or the index.
 */
export const catalogueConditions = table as unknown as Readonly<Record<string, ConditionData>>;

/**
 * Builds the trees of the values the table names, each once, checked as the catalogue's rules are: the
 * value is put in a comparison (element by element for an array) and taken back out of the checked tree.
 * Throws when a text is not such a value: the table is data shipped with cfrules, and its test builds
 * every value it names.
 */
export function catalogueValueBuilder(options: ValidateOptions): ValueBuilder {
  const values = new Map<string, TypedValue>();
  return (source, each) => {
    const key = each ? `${source}[*]` : source;
    let value = values.get(key);
    if (!value) {
      const checked = validate(each ? `any(${source}[*] eq "")` : `${source} eq ""`, options);
      value = checked.ok && checked.ast ? testedValueIn(checked.ast, each) : undefined;
      if (!value) throw new Error(`the managed rules' index names a value it cannot build: ${key}`);
      values.set(key, value);
    }
    return value;
  };
}

function testedValueIn(ast: TypedExpression, each: boolean): TypedValue | undefined {
  const comparison = each && ast.kind === 'quantifier' ? ast.operand : ast;
  if (comparison.kind !== 'comparison') return undefined;
  if (!each) return comparison.lhs;
  return comparison.lhs.kind === 'index' ? comparison.lhs.target : undefined;
}
