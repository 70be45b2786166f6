import { type Plan, planNames } from '../../scheme/profile.js';
import type { RulesetRuleRecord } from '../../store/store.js';
import { at, CODES, ServiceError } from '../errors.js';
import { isId, newId } from '../ids.js';
import { childPlace, invalid, type Place } from '../input.js';
import { notValid } from './input.js';
import { PHASE_RULE_QUOTA, type RulesetPhase } from './model.js';
import type { RuleContent } from './read-rule.js';

/**
 * Turning what a body says about rules into the rules of a ruleset's next version, and the checks that
 * concern the whole list rather than one rule: unique ids and refs, the phase's quota on the zone's plan,
 * and the managed phase's rule that Pro and Business zones deploy only disabled rules before migrating.
 */

/** A rule written by this request (new or changed), with where the body gave it. */
export interface Touched {
  rule: RulesetRuleRecord;
  place: Place;
}

export interface Draft {
  rules: RulesetRuleRecord[];
  touched: Touched[];
}

/** The fields that make a rule's content, in a fixed order (JSON comparison). */
const contentOf = (rule: RulesetRuleRecord) => [
  rule.action,
  rule.expression,
  rule.description,
  rule.enabled,
  rule.ref,
  rule.actionParameters ?? null,
  rule.logging ?? null,
  rule.ratelimit ?? null,
];

/**
 * The rule that `content` makes of `current` (a stored rule, or undefined for a new one): a new rule gets
 * an id, version 1 and, without a ref, its id as ref; a stored rule keeps its id and ref (unless given)
 * and moves to the next version only when its content changes.
 */
export function ruleFrom(
  content: RuleContent,
  current: RulesetRuleRecord | undefined,
  time: string,
): { rule: RulesetRuleRecord; changed: boolean } {
  const { actionParameters, logging, ratelimit, ref, ...fields } = content;
  const optional = {
    ...(actionParameters === undefined ? {} : { actionParameters }),
    ...(logging === undefined ? {} : { logging }),
    ...(ratelimit === undefined ? {} : { ratelimit }),
  };
  if (current === undefined) {
    const id = newId();
    return {
      rule: { id, version: 1, ...fields, ref: ref ?? id, ...optional, lastUpdated: time },
      changed: true,
    };
  }
  const next: RulesetRuleRecord = {
    id: current.id,
    version: current.version,
    ...fields,
    ref: ref ?? current.ref,
    ...optional,
    lastUpdated: current.lastUpdated,
  };
  if (JSON.stringify(contentOf(next)) === JSON.stringify(contentOf(current))) {
    return { rule: current, changed: false };
  }
  return { rule: { ...next, version: current.version + 1, lastUpdated: time }, changed: true };
}

/** The stored rule an element of a `rules` list names with `id` (an empty id is none: templates carry ""). */
export function namedRule(
  id: unknown,
  place: Place,
  current: readonly RulesetRuleRecord[],
  seen: Set<string>,
): RulesetRuleRecord | undefined {
  if (id === undefined || id === null || id === '') return undefined;
  const idPlace = childPlace(place, 'id');
  const rule =
    typeof id === 'string' && isId(id) ? current.find((candidate) => candidate.id === id) : undefined;
  if (rule === undefined) {
    throw notValid(idPlace, id, 'it is not the id of a rule of this ruleset (leave id out to add a rule)');
  }
  if (seen.has(rule.id)) throw notValid(idPlace, id, 'the rule is listed twice');
  seen.add(rule.id);
  return rule;
}

export interface DraftChecks {
  /** The plan of the zone (Enterprise for an account's rulesets). */
  plan: Plan;
  phase: RulesetPhase;
  /** Pro and Business zones may deploy enabled managed-phase rules (migration under way or done). */
  allowEnabledManaged: boolean;
  /** Rules of the version before (0 for a new ruleset). */
  previousCount: number;
  /** Where the body's rules are (errors about the whole list point there). */
  rulesPlace: Place;
}

export function checkDraft(draft: Draft, checks: DraftChecks): void {
  const { plan, phase } = checks;
  const quota = PHASE_RULE_QUOTA[phase][plan];
  // Only a change that adds rules is held to the quota: a zone moved to a smaller plan keeps its rules editable.
  if (draft.rules.length > quota && draft.rules.length > checks.previousCount) {
    throw new ServiceError(
      'bad-request',
      at(
        CODES.rulesetRuleQuotaExceeded,
        `rule quota exceeded: the ${planNames[plan]} plan allows ${quota} rules in a ruleset of the ${phase} phase, and this change would make ${draft.rules.length}`,
        checks.rulesPlace.pointer === '' ? undefined : checks.rulesPlace.pointer,
      ),
    );
  }
  const refs = new Map<string, string>();
  for (const rule of draft.rules) {
    const other = refs.get(rule.ref);
    if (other !== undefined) {
      // The later rule when it is one this request writes, else the earlier one (a stored rule cannot be).
      const touched =
        draft.touched.find((entry) => entry.rule.id === rule.id) ??
        draft.touched.find((entry) => entry.rule.id === other);
      const place = touched === undefined ? checks.rulesPlace : childPlace(touched.place, 'ref');
      throw notValid(place, rule.ref, 'another rule of the ruleset has this ref');
    }
    refs.set(rule.ref, rule.id);
  }
  if (phase === 'http_request_firewall_managed' && needsMigration(plan) && !checks.allowEnabledManaged) {
    const enabled = draft.touched.find(({ rule }) => rule.enabled);
    if (enabled !== undefined) {
      throw invalid(
        childPlace(enabled.place, 'enabled'),
        `the ${planNames[plan]} plan may only deploy disabled rules in the http_request_firewall_managed phase ` +
          'until the zone has migrated from the previous WAF: set enabled to false, or put the entry point with ' +
          '?waf_migration=pending&phase_two=1 to migrate',
        CODES.managedRulesNeedMigration,
      );
    }
  }
}

/** Plans whose zones had the previous WAF, and move to managed rulesets through the migration. */
const needsMigration = (plan: Plan): boolean => plan === 'pro' || plan === 'business';
