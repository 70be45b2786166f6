import { parameterAt } from '../../check/arguments.js';
import type { TypedCall, TypedExpression } from '../../check/typed-ast.js';
import { addRegexPlans, type RegexPlanData } from '../../regex/index.js';
import table from './regex-plans.json' with { type: 'json' };

/**
 * The regex layer's plans for the catalogue's patterns (their literals and how they read the input), worked
 * out ahead of time: finding them means parsing all 391 patterns, which was a third of the time a process
 * took to compile a zone deploying both managed rulesets (issue 22). The table is data written by
 * `npm run catalogue` (scripts/catalogue.ts); test/engine/catalogue-data.test.ts fails when it no longer
 * matches the catalogue or the regex layer.
 */
export const catalogueRegexPlans = table as readonly RegexPlanData[];

let added = false;

/** Gives the regex layer the catalogue's plans, once per process. */
export function addCatalogueRegexPlans(): void {
  if (added) return;
  addRegexPlans(catalogueRegexPlans);
  added = true;
}

/**
 * The patterns of an expression's `matches` comparisons and of its functions' regex arguments
 * (`waf_values_except(http.request.headers, "(?i)^Referer$")`), in the order they stand.
 */
export function regexPatternsOf(expression: TypedExpression): string[] {
  const patterns: string[] = [];
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const item of node) visit(item);
      return;
    }
    if (typeof node !== 'object' || node === null) return;
    const record = node as Record<string, unknown>;
    if (record.kind === 'regex' && typeof record.pattern === 'string') patterns.push(record.pattern);
    if (record.kind === 'call') {
      const call = node as TypedCall;
      call.args.forEach((argument, index) => {
        const isPattern = parameterAt(call.definition, index)?.pattern === 'regex';
        if (isPattern && argument.kind === 'literal' && typeof argument.value === 'string')
          patterns.push(argument.value);
      });
    }
    // A definition is the scheme's (fields and functions), not part of the expression.
    for (const [key, value] of Object.entries(record)) if (key !== 'definition') visit(value);
  };
  visit(expression);
  return patterns;
}
