import {
  categoriesOf,
  findManagedRuleset,
  type ManagedRuleset,
  managedRulesets,
} from '../../engine/managed/catalogue.js';
import { SKIPPABLE_PHASES } from '../../scheme/actions.js';
import { type Plan, planAtLeast, planNames } from '../../scheme/profile.js';
import { CODES } from '../errors.js';
import { BodyObject, invalid } from '../input.js';
import { BYPASS_PRODUCTS } from '../rules/firewall-rule.js';
import { arrayMember, notValid, onlyMembers } from './input.js';
import type { RuleAction, RulesetPhase } from './model.js';
import { parameterShape } from './parameter-shapes.js';
import { readShape } from './shapes.js';

/**
 * `action_parameters` by action: what each may carry, checked whole, and returned as the plain JSON to
 * store (members in a fixed order, absent ones left out). Execute may only run the catalogue's managed
 * rulesets, and its overrides may only name rules and categories that ruleset has.
 */

export interface ParameterContext {
  plan: Plan;
  phase: RulesetPhase;
  /** `false`: expressions in parameters are left to the caller (see ShapeContext). */
  checkExpression?: boolean;
  /**
   * The owner's rulesets an execute rule may name besides the catalogue's, by id: an account's custom
   * rulesets, for the rules of its root entry points. Undefined: the catalogue's only (a zone).
   */
  executable?: ReadonlyMap<string, ExecutableRuleset>;
}

/** A custom ruleset an execute rule may deploy. */
export interface ExecutableRuleset {
  name: string;
  phase: string;
}

/** Actions a managed rule may be given by an override (Cloudflare's list for the OWASP ruleset). */
export const OVERRIDE_ACTIONS = ['block', 'challenge', 'js_challenge', 'managed_challenge', 'log'] as const;
/** Cloudflare's sensitivity levels (they tune DDoS rulesets; cfrules stores them for WAF ones too). */
export const SENSITIVITY_LEVELS = ['default', 'medium', 'low', 'eoff'] as const;
/** What a block rule may answer with. */
export const BLOCK_CONTENT_TYPES = [
  'text/html',
  'text/plain',
  'application/json',
  'application/xml',
] as const;
export const BLOCK_CONTENT_LIMIT = 10_240;
/** The OWASP anomaly rule's threshold: a positive score. */
export const SCORE_THRESHOLD = { min: 1, max: 1000 } as const;

/** The minimum plan to execute a catalogue ruleset (the Free plan has its own Free Managed Ruleset). */
const EXECUTE_PLAN: Plan = 'pro';

type Json = Record<string, unknown>;

/** Reads `action_parameters` for `action`; undefined when the action takes none and none were given. */
export function readActionParameters(
  rule: BodyObject,
  action: RuleAction,
  context: ParameterContext,
): Json | undefined {
  const raw = rule.get('action_parameters');
  const place = rule.placeOf('action_parameters');
  switch (action) {
    case 'execute': {
      if (raw === undefined)
        rule.fail(
          'action_parameters',
          'action_parameters is required with the execute action: {"id": "<managed ruleset id>"}',
        );
      return readExecute(BodyObject.read(raw, place, 'action_parameters'), context);
    }
    case 'skip': {
      if (raw === undefined)
        rule.fail(
          'action_parameters',
          'action_parameters is required with the skip action: say what to skip',
        );
      return readSkip(BodyObject.read(raw, place, 'action_parameters'), context);
    }
    case 'block':
      return raw === undefined ? undefined : readBlock(BodyObject.read(raw, place, 'action_parameters'));
    default: {
      const shape = parameterShape(action, context.phase);
      if (shape !== undefined) {
        if (raw === undefined)
          rule.fail('action_parameters', `action_parameters is required with the ${action} action`);
        return readShape(raw, place, shape, context) as Json;
      }
      // The challenges and log take no parameters; `{}` is what some clients send for none.
      if (raw === undefined) return undefined;
      onlyMembers(raw, place, []);
      BodyObject.read(raw, place, 'action_parameters');
      return undefined;
    }
  }
}

function readBlock(parameters: BodyObject): Json | undefined {
  onlyMembers(raw(parameters), parameters.place, ['response']);
  const response = parameters.object('response', 'response');
  if (response === undefined) return undefined;
  onlyMembers(raw(response), response.place, ['status_code', 'content', 'content_type']);
  const statusCode = response.integer('status_code', 400, 499);
  if (statusCode === undefined)
    response.fail('status_code', 'status_code is required: an integer from 400 to 499');
  const content = response.string('content', BLOCK_CONTENT_LIMIT);
  if (content === undefined) response.fail('content', 'content is required: the body of the block answer');
  const contentType = response.oneOf('content_type', BLOCK_CONTENT_TYPES);
  return { response: { status_code: statusCode, content, content_type: contentType } };
}

function readExecute(parameters: BodyObject, context: ParameterContext): Json {
  onlyMembers(raw(parameters), parameters.place, ['id', 'version', 'overrides', 'matched_data']);
  const id = parameters.requiredString('id', Number.POSITIVE_INFINITY);
  const custom = context.executable?.get(id);
  if (custom !== undefined) return readExecuteCustom(parameters, id, custom, context);
  const ruleset = findManagedRuleset(id);
  const catalogue = `managed rulesets: ${managedRulesets.map((r) => `${r.id} (${r.name})`).join(', ')}`;
  if (ruleset === undefined) {
    throw notValid(
      parameters.placeOf('id'),
      id,
      context.executable === undefined
        ? `it is not a managed ruleset cfrules knows: use one of ${catalogue}`
        : `it is not a custom ruleset of this account${context.phase === 'http_request_firewall_managed' ? ` nor one of the ${catalogue}` : ''}`,
    );
  }
  if (ruleset.phase !== context.phase) {
    throw notValid(
      parameters.placeOf('id'),
      id,
      `the ${ruleset.name} runs in the ${ruleset.phase} phase, not in ${context.phase}`,
    );
  }
  if (!planAtLeast(context.plan, EXECUTE_PLAN)) {
    parameters.fail(
      'id',
      `executing the ${ruleset.name} needs the ${planNames[EXECUTE_PLAN]} plan or higher; this zone is on the ${planNames[context.plan]} plan`,
      CODES.rulesetNotEntitled,
    );
  }
  const version = parameters.get('version');
  if (version !== undefined && version !== 'latest' && version !== '1') {
    throw notValid(
      parameters.placeOf('version'),
      version,
      'the catalogue has version 1 of each ruleset: use "latest" or "1"',
    );
  }
  const matchedData = parameters.object('matched_data', 'matched_data');
  let publicKey: string | undefined;
  if (matchedData !== undefined) {
    onlyMembers(raw(matchedData), matchedData.place, ['public_key']);
    publicKey = matchedData.requiredString('public_key', 1000);
  }
  const overrides = parameters.object('overrides', 'overrides');
  return {
    id,
    ...(version === undefined ? {} : { version }),
    ...(publicKey === undefined ? {} : { matched_data: { public_key: publicKey } }),
    ...(overrides === undefined ? {} : { overrides: readOverrides(overrides, ruleset) }),
  };
}

/** `{id, version?}` naming a custom ruleset of the same phase, which runs at its latest version. */
function readExecuteCustom(
  parameters: BodyObject,
  id: string,
  ruleset: ExecutableRuleset,
  context: ParameterContext,
): Json {
  onlyMembers(raw(parameters), parameters.place, ['id', 'version']);
  if (ruleset.phase !== context.phase) {
    throw notValid(
      parameters.placeOf('id'),
      id,
      `custom ruleset ${id} belongs to the ${ruleset.phase} phase: execute it from that phase's entry point`,
    );
  }
  const version = parameters.get('version');
  if (version !== undefined && version !== 'latest') {
    throw notValid(
      parameters.placeOf('version'),
      version,
      'cfrules runs custom rulesets at their latest version: use "latest" or leave version out',
    );
  }
  return { id, ...(version === undefined ? {} : { version }) };
}

/** The settings an override may change, in the order they are stored. */
function readOverrideSettings(object: BodyObject): Json {
  const action = object.has('action') ? object.oneOf('action', OVERRIDE_ACTIONS) : undefined;
  const enabled = object.boolean('enabled');
  const sensitivity = object.has('sensitivity_level')
    ? object.oneOf('sensitivity_level', SENSITIVITY_LEVELS)
    : undefined;
  return {
    ...(action === undefined ? {} : { action }),
    ...(enabled === undefined ? {} : { enabled }),
    ...(sensitivity === undefined ? {} : { sensitivity_level: sensitivity }),
  };
}

function readOverrides(overrides: BodyObject, ruleset: ManagedRuleset): Json {
  onlyMembers(raw(overrides), overrides.place, [
    'action',
    'enabled',
    'sensitivity_level',
    'categories',
    'rules',
  ]);
  const result: Json = readOverrideSettings(overrides);

  const categories = arrayMember(overrides, 'categories', 'category overrides', true);
  if (categories !== undefined) {
    const known = categoriesOf(ruleset);
    const seen = new Set<string>();
    result.categories = categories.map(({ value, place }) => {
      const item = BodyObject.read(value, place, 'a category override');
      onlyMembers(value, place, ['category', 'action', 'enabled', 'sensitivity_level']);
      const category = item.requiredString('category', Number.POSITIVE_INFINITY);
      if (!known.includes(category)) {
        throw notValid(
          item.placeOf('category'),
          category,
          `the ${ruleset.name} has no rule in this category`,
        );
      }
      if (seen.has(category)) throw notValid(item.placeOf('category'), category, 'it is overridden twice');
      seen.add(category);
      const settings = readOverrideSettings(item);
      if (Object.keys(settings).length === 0) {
        item.fail('category', 'a category override must set action, enabled or sensitivity_level');
      }
      return { category, ...settings };
    });
  }

  const rules = arrayMember(overrides, 'rules', 'rule overrides', true);
  if (rules !== undefined) {
    const seen = new Set<string>();
    result.rules = rules.map(({ value, place }) => {
      const item = BodyObject.read(value, place, 'a rule override');
      onlyMembers(value, place, ['id', 'action', 'enabled', 'score_threshold', 'sensitivity_level']);
      const id = item.requiredString('id', Number.POSITIVE_INFINITY);
      const rule = ruleset.rules.find((candidate) => candidate.id === id);
      if (rule === undefined) throw notValid(item.placeOf('id'), id, `the ${ruleset.name} has no such rule`);
      if (seen.has(id)) throw notValid(item.placeOf('id'), id, 'it is overridden twice');
      seen.add(id);
      const settings = readOverrideSettings(item);
      const threshold = item.integer('score_threshold', SCORE_THRESHOLD.min, SCORE_THRESHOLD.max);
      if (threshold !== undefined && rule.kind !== 'anomaly') {
        throw notValid(
          item.placeOf('score_threshold'),
          threshold,
          'only the anomaly rule of the OWASP Core Ruleset has a score threshold',
        );
      }
      if (threshold !== undefined) settings.score_threshold = threshold;
      if (Object.keys(settings).length === 0) {
        item.fail('id', 'a rule override must set action, enabled, score_threshold or sensitivity_level');
      }
      return { id, ...settings };
    });
  }
  return result;
}

function readSkip(parameters: BodyObject, context: ParameterContext): Json {
  // Custom rules skip what comes after them (the rest of the ruleset, later phases, legacy products);
  // rules of the managed phase skip managed rulesets or some of their rules.
  const members =
    context.phase === 'http_request_firewall_managed'
      ? ['ruleset', 'rulesets', 'rules']
      : ['ruleset', 'phases', 'products'];
  onlyMembers(raw(parameters), parameters.place, members);
  const result: Json = {};
  const current = parameters.get('ruleset');
  if (current !== undefined) {
    if (current !== 'current')
      throw notValid(parameters.placeOf('ruleset'), current, 'the only value is "current"');
    result.ruleset = 'current';
  }
  const phases = parameters.setOf('phases', SKIPPABLE_PHASES);
  if (phases !== undefined && phases.length > 0) result.phases = phases;
  const products = parameters.setOf('products', BYPASS_PRODUCTS);
  if (products !== undefined && products.length > 0) result.products = products;
  const rulesets = parameters.setOf(
    'rulesets',
    managedRulesets.map((ruleset) => ruleset.id),
  );
  if (rulesets !== undefined && rulesets.length > 0) result.rulesets = rulesets;
  const rules = parameters.object('rules', 'rules');
  if (rules !== undefined) result.rules = readSkippedRules(rules);
  if (Object.keys(result).length === 0) {
    throw notValid(parameters.place, raw(parameters), `it skips nothing: give one of ${members.join(', ')}`);
  }
  return result;
}

/** `{"<managed ruleset id>": ["<rule id>", …]}`: rules of catalogue rulesets. */
function readSkippedRules(rules: BodyObject): Json {
  const result: Json = {};
  for (const rulesetId of Object.keys(raw(rules))) {
    const ruleset = findManagedRuleset(rulesetId);
    if (ruleset === undefined) {
      throw notValid(rules.placeOf(rulesetId), rulesetId, 'it is not a managed ruleset cfrules knows');
    }
    const items = arrayMember(rules, rulesetId, 'rule ids', true) ?? [];
    const ids = new Set<string>();
    for (const { value, place } of items) {
      if (typeof value !== 'string' || !ruleset.rules.some((rule) => rule.id === value)) {
        throw notValid(place, value, `the ${ruleset.name} has no such rule`);
      }
      if (ids.has(value)) throw notValid(place, value, 'it is listed twice');
      ids.add(value);
    }
    if (ids.size === 0) rules.fail(rulesetId, `list at least one rule of the ${ruleset.name}`);
    result[rulesetId] = [...ids];
  }
  if (Object.keys(result).length === 0) {
    throw invalid(rules.place, 'rules must name at least one managed ruleset and some of its rules');
  }
  return result;
}

/** The JSON object a BodyObject was read from. */
const raw = (object: BodyObject): Json => object.rawValue();
