import { findManagedRuleset } from '../../engine/managed/catalogue.js';
import type { Plan } from '../../scheme/profile.js';
import { CODES, ServiceError } from '../errors.js';
import { BodyObject, type Place } from '../input.js';
import type { ExecutableRuleset } from '../rulesets/action-parameters.js';
import { isRulesetPhase } from '../rulesets/model.js';
import { rulesetActions } from '../rulesets/owner.js';
import { readRule } from '../rulesets/read-rule.js';
import { readFilterFields } from './filter.js';
import { readNewFirewallRule } from './firewall-rule.js';

/**
 * A rule object checked as the API would check it on creation, without a store or a request: for callers
 * outside the service (`cfrules validate`), with the very readers the services use, so that both refuse the
 * same objects with the same words. The expression is left to the caller, which reports all its findings;
 * what needs a zone's data (filter ids, quotas, unique expressions and refs) is not checked.
 */

/** What the object is, as in a rules file. */
export type RuleObjectKind = 'filter' | 'firewall-rule' | 'ruleset-rule';

export interface RuleObjectContext {
  /** The zone's plan. */
  plan: Plan;
  /** Ruleset rules: the ruleset's phase. A phase the API does not serve leaves the rule unchecked. */
  phase?: string;
  /** Ruleset rules: the ruleset's kind, when known; a `root` entry point's rules deploy rulesets. */
  rulesetKind?: string;
  /** Where the object is in the caller's document, as a JSON pointer (`/result/2`); problems point below. */
  pointer: string;
  /** Its position in its list, from 0: the API names inline filters by it ("filter at index 2"). */
  index: number;
}

/** One problem, as the API reports it, plus a stable name. */
export interface RuleProblem {
  /** What is wrong: `action-not-entitled`, `products-required`, `invalid-description`… */
  code: string;
  /** The API's error code (10200, 10204, 20217…). */
  apiCode: number;
  /** The API's message. */
  message: string;
  /** Where, as a JSON pointer into the caller's document. */
  pointer: string;
}

/**
 * The first problem the API would report about the object (it stops at the first, as the API does);
 * undefined when it would accept it, or cannot tell (a ruleset rule of a phase it does not serve).
 */
export function checkRuleObject(
  kind: RuleObjectKind,
  value: unknown,
  context: RuleObjectContext,
): RuleProblem | undefined {
  const { plan, phase, index } = context;
  const place = (code: number): Place => ({ pointer: context.pointer, code });
  try {
    if (kind === 'filter') {
      const object = BodyObject.read(value, place(CODES.invalidFilter), 'a filter');
      readFilterFields(object, plan, { checkExpression: false });
    } else if (kind === 'firewall-rule') {
      const object = BodyObject.read(value, place(CODES.invalidRule), 'a firewall rule');
      readNewFirewallRule(object, index, plan, { checkExpression: false });
    } else if (phase !== undefined && isRulesetPhase(phase)) {
      const root = context.rulesetKind === 'root';
      readRule(value, place(CODES.invalidRulesetValue), {
        plan,
        phase,
        checkExpression: false,
        ...(root ? { actions: rulesetActions('root', phase), executable: executedCustom(value, phase) } : {}),
      });
    }
    return undefined;
  } catch (error) {
    if (!(error instanceof ServiceError) || error.kind !== 'bad-request') throw error;
    const [message] = error.errors;
    const pointer = message.source?.pointer ?? context.pointer;
    return {
      code: error.problem ?? problemName(message.code, pointer.slice(context.pointer.length)),
      apiCode: message.code,
      message: message.message,
      pointer,
    };
  }
}

/**
 * The custom ruleset a root entry point's rule executes, taken to exist: which rulesets an account has is
 * its data, which a file checked alone does not give. A managed ruleset's id is checked as ever.
 */
function executedCustom(rule: unknown, phase: string): ReadonlyMap<string, ExecutableRuleset> {
  const id = (rule as { action_parameters?: { id?: unknown } } | null)?.action_parameters?.id;
  if (typeof id !== 'string' || findManagedRuleset(id) !== undefined) return new Map();
  return new Map([[id, { name: `custom ruleset ${id}`, phase }]]);
}

/**
 * The name of a problem its reader did not name: a missing entitlement, or an invalid value of the
 * object's member it concerns (`invalid-description`, `invalid-action-parameters`, `invalid-filter`).
 */
function problemName(apiCode: number, relative: string): string {
  if (apiCode === CODES.actionNotEntitled || apiCode === CODES.rulesetNotEntitled) return 'not-entitled';
  const member = relative.split('/')[1];
  return member ? `invalid-${member.toLowerCase().replace(/[^a-z0-9]+/g, '-')}` : 'invalid-rule';
}
