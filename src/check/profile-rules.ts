import type { Span } from '../lang/ast.js';
import type { Diagnostic } from '../lang/diagnostics.js';
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
}

export const MAX_REGEXES_PER_RULE = 64;

/** Business and Enterprise plans may use `matches`. */
const MATCHES_PLAN: Plan = 'business';

const requirement = (plan: Plan, requires: string | undefined) =>
  requires ? `${planNames[plan]} with ${requires}` : planNames[plan];

/** The first profile error in the text, if any. */
export function checkProfile(ast: TypedExpression, profile: Profile): Diagnostic | undefined {
  const errors: Diagnostic[] = [];
  const report = (code: string, message: string, span: Span, hint?: string) => {
    const diagnostic: Diagnostic = { severity: 'error', code, message, span };
    if (hint) diagnostic.hint = hint;
    errors.push(diagnostic);
  };
  const { plan, phase } = profile;
  let regexes = 0;
  let replaceCall: string | undefined;

  walkTyped(ast, (node) => {
    if (node.kind === 'field') {
      const field = node.definition;
      const nameSpan = node.span;
      if (field.rewriteOnly && profile.expression !== 'rewrite')
        report('rewrite-only', `field ${field.name} can only be used in rewrite expressions`, nameSpan);
      if (plan && field.plan && !planAtLeast(plan, field.plan))
        report(
          'field-plan',
          `field ${field.name} is not available on the ${planNames[plan]} plan (requires ${requirement(field.plan, field.requires)})`,
          nameSpan,
        );
      if (phase && !isFieldAvailableIn(field, phase))
        report('field-phase', `field ${field.name} is not available in phase ${phase}`, nameSpan);
    } else if (node.kind === 'call') {
      const fn = node.definition;
      const nameSpan = { ...node.span, end: node.span.start + fn.name.length };
      if (fn.rewriteOnly && profile.expression !== 'rewrite')
        report(
          'rewrite-only',
          `function ${fn.name} can only be used in rewrite expressions`,
          nameSpan,
          'rewrite expressions set values in Transform Rules and dynamic redirects; a filter must be a condition',
        );
      if (fn.oncePerExpression) {
        if (replaceCall)
          report(
            'replace-once',
            `${fn.name} cannot be used here: ${replaceCall} is already used in this expression, and regex_replace and wildcard_replace may be used only once per expression`,
            nameSpan,
          );
        replaceCall = fn.name;
      }
      if (fn.name === 'regex_replace') regexes = countRegex(regexes, nameSpan, report);
      if (plan && fn.plan && !planAtLeast(plan, fn.plan))
        report(
          'function-plan',
          `function ${fn.name} is not available on the ${planNames[plan]} plan (requires ${requirement(fn.plan, fn.requires)})`,
          nameSpan,
        );
      if (phase && fn.phases && !fn.phases.includes(phase))
        report(
          'function-phase',
          `function ${fn.name} is not available in phase ${phase}`,
          nameSpan,
          `it can be used in: ${fn.phases.join(', ')}`,
        );
    } else if (node.kind === 'comparison' && node.op === 'matches') {
      const opSpan = node.opSpan;
      if (plan && !planAtLeast(plan, MATCHES_PLAN))
        report(
          'matches-plan',
          `the matches operator is not available on the ${planNames[plan]} plan (requires Business or Enterprise)`,
          opSpan,
          'use contains, wildcard or starts_with/ends_with instead, or upgrade the plan',
        );
      regexes = countRegex(regexes, opSpan, report);
    } else if (node.kind === 'comparison' && node.rhs.kind === 'list') {
      const list = node.rhs.list;
      if (plan && !list.managed && list.kind !== 'ip' && !planAtLeast(plan, 'enterprise'))
        report(
          'list-plan',
          `${list.kind} lists are not available on the ${planNames[plan]} plan (requires Enterprise)`,
          node.rhs.span,
        );
    }
  });
  errors.sort((a, b) => a.span.start - b.span.start);
  return errors[0];
}

function countRegex(
  count: number,
  span: Span,
  report: (code: string, message: string, span: Span) => void,
): number {
  const next = count + 1;
  if (next === MAX_REGEXES_PER_RULE + 1)
    report(
      'regex-limit',
      `too many regular expressions: a rule may use at most ${MAX_REGEXES_PER_RULE}, and this is number ${next}`,
      span,
    );
  return next;
}
