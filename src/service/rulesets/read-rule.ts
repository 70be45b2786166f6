import { validate } from '../../check/validate.js';
import { type Plan, planAtLeast, planNames } from '../../scheme/profile.js';
import type { RulesetRuleRecord } from '../../store/store.js';
import { apiFrame } from '../code-frame.js';
import { CODES } from '../errors.js';
import { BodyObject, invalid, type Place } from '../input.js';
import { type ExecutableRuleset, readActionParameters } from './action-parameters.js';
import { arrayMember, notValid, onlyMembers } from './input.js';
import { PHASE_ACTIONS, RULE_ACTIONS, RULESET_LIMITS, type RuleAction, type RulesetPhase } from './model.js';

/**
 * One rule of a ruleset, read from a body and checked whole for its phase and the zone's plan: the action
 * is one the phase allows, the expression is valid there (Cloudflare's error text, pointing at the rule's
 * `expression`), and the parameters fit the action.
 */

export interface RuleContext {
  plan: Plan;
  phase: RulesetPhase;
  /**
   * False when the caller checks the rule's `expression` itself (`cfrules validate` reports all its
   * findings, with their positions); it must still be a non-empty string.
   */
  checkExpression?: boolean;
  /** The actions the ruleset may hold when not its phase's (an account's root entry point: execute). */
  actions?: readonly RuleAction[];
  /** What an execute rule may name besides the catalogue's rulesets (ParameterContext). */
  executable?: ReadonlyMap<string, ExecutableRuleset>;
}

/** What a client sets on a rule: everything but its id, version and time. `ref` undefined = not given. */
export type RuleContent = Omit<RulesetRuleRecord, 'id' | 'version' | 'lastUpdated' | 'ref'> & {
  ref: string | undefined;
};

const RULE_MEMBERS = [
  'id',
  'action',
  'action_parameters',
  'expression',
  'description',
  'enabled',
  'logging',
  'ratelimit',
  'ref',
];
/** What GET shows of a rule and a client may send back unchanged: not read. */
const READ_ONLY_MEMBERS = ['version', 'last_updated', 'categories'];

/** Actions only Enterprise zones may use outside the managed phase (as with firewall rules). */
const ENTERPRISE_ACTIONS: readonly RuleAction[] = ['log'];

/** `extra` members are the request's own (`position` on the rules endpoints), read by the caller. */
export function readRule(
  value: unknown,
  place: Place,
  context: RuleContext,
  extra: string[] = [],
): RuleContent {
  const rule = BodyObject.read(value, place, 'a rule');
  onlyMembers(value, place, [...RULE_MEMBERS, ...extra], READ_ONLY_MEMBERS);
  const action = readAction(rule, context);
  const expression = readExpression(rule, 'expression', context);
  const description = rule.string('description', RULESET_LIMITS.ruleDescription) ?? '';
  const enabled = rule.boolean('enabled') ?? true;
  // An empty ref is what a rule template carries for "none" (the WAF migration's config does).
  const ref = rule.string('ref', RULESET_LIMITS.ref) || undefined;
  const actionParameters = readActionParameters(rule, action, context);
  const logging = readLogging(rule, action);
  const ratelimit = readRatelimit(rule, context, action);
  return {
    action,
    expression,
    description,
    enabled,
    ref,
    ...(actionParameters === undefined ? {} : { actionParameters }),
    ...(logging === undefined ? {} : { logging }),
    ...(ratelimit === undefined ? {} : { ratelimit }),
  };
}

function readAction(rule: BodyObject, { phase, plan, actions }: RuleContext): RuleAction {
  const allowed = actions ?? PHASE_ACTIONS[phase];
  const action = rule.oneOf('action', RULE_ACTIONS);
  if (!allowed.includes(action)) {
    throw notValid(
      rule.placeOf('action'),
      action,
      actions === undefined
        ? `the ${phase} phase allows only ${allowed.join(', ')}`
        : `the root entry point of the ${phase} phase allows only ${allowed.join(', ')}: put other rules in a custom ruleset, and execute it from here`,
      undefined,
      'action-not-in-phase',
    );
  }
  if (ENTERPRISE_ACTIONS.includes(action) && !planAtLeast(plan, 'enterprise')) {
    rule.fail(
      'action',
      `the ${action} action needs the Enterprise plan; this zone is on the ${planNames[plan]} plan`,
      CODES.rulesetNotEntitled,
      'action-not-entitled',
    );
  }
  return action;
}

/** A required expression, valid in the phase on the zone's plan. */
function readExpression(object: BodyObject, key: string, context: RuleContext): string {
  const expression = object.requiredString(key, Number.POSITIVE_INFINITY);
  if (context.checkExpression === false) return expression;
  return checkedExpression(object, key, expression, context.plan, context.phase);
}

function checkedExpression(
  object: BodyObject,
  key: string,
  expression: string,
  plan: Plan,
  phase: RulesetPhase,
): string {
  const { diagnostics } = validate(expression, { plan, phase, lints: false });
  const error = diagnostics.find((diagnostic) => diagnostic.severity === 'error');
  if (error !== undefined) {
    throw notValid(
      object.placeOf(key),
      expression,
      `the expression is invalid: ${apiFrame(expression, error)}`,
    );
  }
  return expression;
}

/** `logging: {enabled}`: whether a skip rule's matches are logged (Cloudflare has it on skip rules only). */
function readLogging(rule: BodyObject, action: RuleAction): { enabled: boolean } | undefined {
  const logging: BodyObject | undefined = rule.object('logging', 'logging');
  if (logging === undefined) return undefined;
  if (action !== 'skip') rule.fail('logging', 'logging can only be given with the skip action');
  onlyMembers(rule.get('logging'), logging.place, ['enabled']);
  const enabled = logging.boolean('enabled');
  if (enabled === undefined) return logging.fail('enabled', 'enabled is required: true or false');
  return { enabled };
}

/** Counting periods (seconds) and how long a client stays mitigated; cfrules' sets, for every plan. */
export const RATELIMIT_PERIODS = [10, 60, 120, 300, 600, 3600] as const;
export const MITIGATION_TIMEOUTS = [0, 10, 60, 120, 300, 600, 3600, 86400] as const;
/** What requests are counted by below Enterprise; Enterprise may also count by headers, paths, etc. */
const BASIC_CHARACTERISTICS = ['cf.colo.id', 'ip.src'];
const ENTERPRISE_CHARACTERISTIC =
  /^(?:ip\.src(?:\.asnum)?|ip\.geoip\.country|cf\.colo\.id|cf\.unique_visitor_id|http\.host|http\.request\.uri\.path|cf\.bot_management\.ja3_hash|cf\.bot_management\.ja4|http\.request\.(?:headers|cookies|uri\.args)\["[^"]+"\]|http\.request\.body\.json\["[^"]+"\])$/;

function readRatelimit(
  rule: BodyObject,
  { plan, phase }: RuleContext,
  action: RuleAction,
): Record<string, unknown> | undefined {
  const limit: BodyObject | undefined = rule.object('ratelimit', 'ratelimit');
  if (phase !== 'http_ratelimit' || action === 'execute') {
    if (limit !== undefined)
      rule.fail(
        'ratelimit',
        action === 'execute'
          ? 'ratelimit goes on the rules of the executed ruleset, not on the execute rule'
          : `ratelimit is only for rules of the http_ratelimit phase`,
      );
    return undefined;
  }
  if (limit === undefined) {
    rule.fail(
      'ratelimit',
      'ratelimit is required in the http_ratelimit phase: {characteristics, period, requests_per_period, …}',
    );
  }
  onlyMembers(rule.get('ratelimit'), limit.place, [
    'characteristics',
    'period',
    'requests_per_period',
    'mitigation_timeout',
    'counting_expression',
    'requests_to_origin',
    'score_per_period',
    'score_response_header_name',
  ]);
  const characteristics = readCharacteristics(limit, plan);
  const period = readChoice(limit, 'period', RATELIMIT_PERIODS, true) as number;
  const requests = limit.integer('requests_per_period', 1, 1_000_000_000);
  const score = limit.integer('score_per_period', 1, 1_000_000_000);
  const header = limit.string('score_response_header_name', 256);
  if ((requests === undefined) === (score === undefined)) {
    limit.fail(
      'requests_per_period',
      'give either requests_per_period or score_per_period (and its score_response_header_name)',
    );
  }
  if (score !== undefined && !planAtLeast(plan, 'enterprise')) {
    limit.fail('score_per_period', 'counting by score needs the Enterprise plan', CODES.rulesetNotEntitled);
  }
  if (score !== undefined && header === undefined) {
    limit.fail('score_response_header_name', 'score_response_header_name is required with score_per_period');
  }
  if (score === undefined && header !== undefined) {
    limit.fail('score_response_header_name', 'score_response_header_name goes with score_per_period only');
  }
  const timeout = readChoice(limit, 'mitigation_timeout', MITIGATION_TIMEOUTS, false);
  const counting = limit.string('counting_expression', Number.POSITIVE_INFINITY);
  if (counting !== undefined && counting !== '')
    checkedExpression(limit, 'counting_expression', counting, plan, 'http_ratelimit');
  const toOrigin = limit.boolean('requests_to_origin');
  return {
    characteristics,
    period,
    ...(requests === undefined ? {} : { requests_per_period: requests }),
    ...(score === undefined ? {} : { score_per_period: score, score_response_header_name: header }),
    ...(timeout === undefined ? {} : { mitigation_timeout: timeout }),
    ...(counting === undefined || counting === '' ? {} : { counting_expression: counting }),
    ...(toOrigin === undefined ? {} : { requests_to_origin: toOrigin }),
  };
}

function readCharacteristics(limit: BodyObject, plan: Plan): string[] {
  const items = arrayMember(limit, 'characteristics', 'characteristics', true);
  if (items === undefined)
    limit.fail('characteristics', 'characteristics is required: e.g. ["ip.src", "cf.colo.id"]');
  const seen: string[] = [];
  for (const { value, place } of items) {
    if (typeof value !== 'string') throw invalid(place, 'each characteristic must be a string');
    const known = planAtLeast(plan, 'enterprise')
      ? ENTERPRISE_CHARACTERISTIC.test(value)
      : BASIC_CHARACTERISTICS.includes(value);
    if (!known) {
      throw notValid(
        place,
        value,
        planAtLeast(plan, 'enterprise')
          ? 'it is not a characteristic Cloudflare counts by'
          : `the ${planNames[plan]} plan counts by ${BASIC_CHARACTERISTICS.join(' and ')} only`,
      );
    }
    if (seen.includes(value)) throw notValid(place, value, 'it is listed twice');
    seen.push(value);
  }
  if (!seen.includes('cf.colo.id')) {
    limit.fail(
      'characteristics',
      'characteristics must include cf.colo.id (counters are kept per data center)',
    );
  }
  return seen;
}

function readChoice(
  object: BodyObject,
  key: string,
  values: readonly number[],
  required: boolean,
): number | undefined {
  const value = object.get(key);
  if (value === undefined) {
    if (required) object.fail(key, `${key} is required: one of ${values.join(', ')}`);
    return undefined;
  }
  if (typeof value !== 'number' || !values.includes(value)) {
    throw notValid(object.placeOf(key), value, `it must be one of ${values.join(', ')}`);
  }
  return value;
}
