import type { RequestContext } from '../../eval/context.js';
import { findManagedRuleset } from '../managed/catalogue.js';
import { type CompiledRule, compiledRules } from '../managed/evaluate.js';
import type { ManagedRule } from '../managed/model.js';
import type { MigrationTarget } from './targets.js';

/**
 * The previous WAF's rules have no expressions in cfrules: a previous rule matches a request when one of
 * the new managed rules that replace it (MIGRATION_MAPPING) matches. A `categories` target stands for every
 * rule of its ruleset with one of those categories; a `none` target never matches.
 */

const targetRules = new WeakMap<MigrationTarget, readonly CompiledRule<ManagedRule>[]>();

/** The compiled managed rules a target stands for, in their ruleset's order (the anomaly rule never). */
export function rulesOfTarget(target: MigrationTarget): readonly CompiledRule<ManagedRule>[] {
  if (target.kind === 'none') return [];
  let rules = targetRules.get(target);
  if (rules === undefined) {
    const ruleset = findManagedRuleset(target.rulesetId);
    // The catalogue's tests keep every target's ruleset known; an unknown one stands for nothing.
    const all = ruleset === undefined ? [] : compiledRules(ruleset);
    const wanted =
      target.kind === 'rules'
        ? (rule: ManagedRule) => target.ruleIds.includes(rule.id)
        : (rule: ManagedRule) => rule.categories.some((category) => target.categories.includes(category));
    rules = all.filter(({ rule }) => rule.kind !== 'anomaly' && wanted(rule));
    targetRules.set(target, rules);
  }
  return rules;
}

const targetExpressions = new WeakMap<MigrationTarget, string>();

/** The condition a target stands for, as one expression (what the trace shows for a previous rule). */
export function targetExpression(target: MigrationTarget): string {
  let expression = targetExpressions.get(target);
  if (expression === undefined) {
    const parts = rulesOfTarget(target).map(({ rule }) => rule.expression);
    expression = parts.length === 1 ? (parts[0] as string) : parts.map((part) => `(${part})`).join(' or ');
    targetExpressions.set(target, expression);
  }
  return expression;
}

/**
 * The managed rules' answers for one request, each rule run at most once (a managed rule may replace
 * several previous rules).
 */
export class ManagedMatches {
  private readonly answers = new Map<string, boolean>();

  constructor(private readonly context: RequestContext) {}

  matches({ rule, filter }: CompiledRule<ManagedRule>): boolean {
    let answer = this.answers.get(rule.id);
    if (answer === undefined) {
      answer = filter.match(this.context);
      this.answers.set(rule.id, answer);
    }
    return answer;
  }

  /** Whether one of the rules a target stands for matches. */
  target(target: MigrationTarget): boolean {
    return rulesOfTarget(target).some((rule) => this.matches(rule));
  }
}
