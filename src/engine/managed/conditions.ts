import type { TypedExpression, TypedValue } from '../../check/typed-ast.js';
import { typedValueFromData, typedValueToData } from '../../check/typed-data.js';
import { type ValidateOptions, validate } from '../../check/validate.js';
import { cloudflareScheme } from '../../scheme/scheme.js';
import { type ConditionData, type ValueBuilder, valueKeyParts } from '../program/condition-data.js';
import table from './conditions.json' with { type: 'json' };
import valueTable from './values.json' with { type: 'json' };

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
 * The checked trees of the values the conditions name, by key, as data (src/check/typed-data.ts): the
 * index compiles a reader for each of them when a zone is compiled, and checking ~400 texts was the larger
 * part of what was left of that time. Written by `npm run catalogue` with the conditions.
 */
export const catalogueValues = valueTable as Readonly<Record<string, unknown>>;

/** The keys of the values the conditions name (`waf.args.values[*]`, `url_decode(http.cookie)`), once each. */
export function conditionValueKeys(conditions: Readonly<Record<string, ConditionData>>): string[] {
  const keys = new Set<string>();
  for (const condition of Object.values(conditions))
    for (const atom of condition ?? []) {
      keys.add(atom.in);
      if ('pieces' in atom) for (const piece of atom.pieces) keys.add(piece);
    }
  return [...keys];
}

/**
 * Builds the trees of the values the table names, each once: from the values table when it holds the key,
 * otherwise checked as the catalogue's rules are (the value is put in a comparison, element by element for
 * an array, and taken back out of the checked tree). Throws when a text is not such a value: the table is
 * data shipped with cfrules, and its test builds every value it names.
 */
export function catalogueValueBuilder(
  options: ValidateOptions,
  known: Readonly<Record<string, unknown>> = catalogueValues,
): ValueBuilder {
  const values = new Map<string, TypedValue>();
  return (source, each) => {
    const key = each ? `${source}[*]` : source;
    let value = values.get(key);
    if (!value) {
      const data = known[key];
      value =
        data === undefined
          ? checkedValue(source, each, options)
          : typedValueFromData(data, options.scheme ?? cloudflareScheme);
      if (!value) throw new Error(`the managed rules' index names a value it cannot build: ${key}`);
      values.set(key, value);
    }
    return value;
  };
}

/** The values table for these conditions: each value checked from its text, written as data. */
export function valueTableFor(
  conditions: Readonly<Record<string, ConditionData>>,
  options: ValidateOptions,
): Record<string, unknown> {
  const build = catalogueValueBuilder(options, {});
  const out: Record<string, unknown> = {};
  for (const key of conditionValueKeys(conditions).sort()) {
    const { source, each } = valueKeyParts(key);
    out[key] = typedValueToData(build(source, each));
  }
  return out;
}

function checkedValue(source: string, each: boolean, options: ValidateOptions): TypedValue | undefined {
  const checked = validate(each ? `any(${source}[*] eq "")` : `${source} eq ""`, options);
  return checked.ok && checked.ast ? testedValueIn(checked.ast, each) : undefined;
}

function testedValueIn(ast: TypedExpression, each: boolean): TypedValue | undefined {
  const comparison = each && ast.kind === 'quantifier' ? ast.operand : ast;
  if (comparison.kind !== 'comparison') return undefined;
  if (!each) return comparison.lhs;
  return comparison.lhs.kind === 'index' ? comparison.lhs.target : undefined;
}
