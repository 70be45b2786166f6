import type { Span } from '../lang/ast.js';
import { type Diagnostic, diagnostic, hint, message, type Report } from '../lang/catalogue.js';
import { takesRegex } from '../scheme/functions.js';
import { isFieldAvailableIn, type Phase, type Plan, planAtLeast, planNames } from '../scheme/profile.js';
import type { TypedExpression } from './typed-ast.js';
import { walkTyped } from './walk.js';

/**
 * Cloudflare's product rules, which depend on where an expression runs (docs/language.md, "Plans and
 * phases"): field and function availability by plan and phase, `matches` on Business and Enterprise,
 * 64 regular expressions per rule, rewrite-only functions, one regex_replace/wildcard_replace per
 * expression. Without a plan or phase, the rules that need them are skipped.
 */
export interface Profile {
  plan?: Plan;
  phase?: Phase;
  expression: 'filter' | 'rewrite';
  /** A rule of one of Cloudflare's managed rulesets, which may use the `managedOnly` fields and functions. */
  managedRuleset?: boolean;
}

export const MAX_REGEXES_PER_RULE = 64;

/** Business and Enterprise plans may use `matches`. */
const MATCHES_PLAN: Plan = 'business';

const requirement = (plan: Plan, requires: string | undefined) =>
  requires ? `${planNames[plan]} with ${requires}` : planNames[plan];

/** The first profile error in the text, if any. */
export function checkProfile(ast: TypedExpression, profile: Profile): Diagnostic | undefined {
  const errors: Diagnostic[] = [];
  const report: Report = (code, text, span, why) => errors.push(diagnostic(code, text, span, why));
  const { plan, phase } = profile;
  let regexes = 0;
  let replaceCall: string | undefined;

  walkTyped(ast, (node) => {
    if (node.kind === 'field') {
      const field = node.definition;
      const nameSpan = node.span;
      const { name } = field;
      if (field.managedOnly && !profile.managedRuleset)
        report('managed-only', message('managedOnly', { kind: 'field', name }), nameSpan);
      if (field.rewriteOnly && profile.expression !== 'rewrite')
        report('rewrite-only', message('fieldRewriteOnly', { name }), nameSpan);
      if (plan && field.plan && !planAtLeast(plan, field.plan)) {
        const requires = requirement(field.plan, field.requires);
        report('field-plan', message('fieldPlan', { name, plan: planNames[plan], requires }), nameSpan);
      }
      if (phase && !isFieldAvailableIn(field, phase))
        report('field-phase', message('fieldPhase', { name, phase }), nameSpan);
    } else if (node.kind === 'call') {
      const fn = node.definition;
      const nameSpan = { ...node.span, end: node.span.start + fn.name.length };
      const { name } = fn;
      if (fn.managedOnly && !profile.managedRuleset)
        report('managed-only', message('managedOnly', { kind: 'function', name }), nameSpan);
      if (fn.rewriteOnly && profile.expression !== 'rewrite')
        report('rewrite-only', message('functionRewriteOnly', { name }), nameSpan, hint('rewriteFunction'));
      if (fn.oncePerExpression) {
        if (replaceCall)
          report('replace-once', message('replaceOnce', { name, first: replaceCall }), nameSpan);
        replaceCall = name;
      }
      if (takesRegex(fn)) regexes = countRegex(regexes, nameSpan, report);
      if (plan && fn.plan && !planAtLeast(plan, fn.plan)) {
        const requires = requirement(fn.plan, fn.requires);
        report('function-plan', message('functionPlan', { name, plan: planNames[plan], requires }), nameSpan);
      }
      if (phase && fn.phases && !fn.phases.includes(phase))
        report(
          'function-phase',
          message('functionPhase', { name, phase }),
          nameSpan,
          hint('phases', { phases: fn.phases.join(', ') }),
        );
    } else if (node.kind === 'comparison' && node.op === 'matches') {
      const opSpan = node.opSpan;
      if (plan && !planAtLeast(plan, MATCHES_PLAN))
        report('matches-plan', message('matchesPlan', { plan: planNames[plan] }), opSpan);
      regexes = countRegex(regexes, opSpan, report);
    } else if (node.kind === 'comparison' && node.rhs.kind === 'list') {
      const list = node.rhs.list;
      if (plan && !list.managed && list.kind !== 'ip' && !planAtLeast(plan, 'enterprise'))
        report('list-plan', message('listPlan', { kind: list.kind, plan: planNames[plan] }), node.rhs.span);
    }
  });
  errors.sort((a, b) => a.span.start - b.span.start);
  return errors[0];
}

function countRegex(count: number, span: Span, report: Report): number {
  const next = count + 1;
  if (next === MAX_REGEXES_PER_RULE + 1)
    report('regex-limit', message('regexLimit', { limit: MAX_REGEXES_PER_RULE, number: next }), span);
  return next;
}
