import { BYPASS_PRODUCTS, FIREWALL_RULE_ACTIONS } from '../../scheme/actions.js';
import { type Plan, planNames } from '../../scheme/profile.js';
import type { FirewallRuleRecord } from '../../store/store.js';
import { CODES } from '../errors.js';
import { BodyObject, invalid, type Place } from '../input.js';
import { type ExpressionChecks, type FilterFields, readFilterFields } from './filter.js';

/**
 * The checks of a firewall rule object, without a store: its settings (action, plan entitlement, products,
 * priority, paused, description, ref) and its filter (an id, or an inline filter). The Firewall Rules API
 * applies them before it looks at the zone's data (filters by id, quota); `cfrules validate` applies them
 * to the rules of a rules file (see ./check.ts). The actions and bypassable products are the scheme's
 * (src/scheme/actions.ts), which the store and the engine read too.
 */

export { BYPASS_PRODUCTS };

export const RULE_LIMITS = { description: 500, ref: 50, maxPriority: 2_147_483_647 } as const;

/** The fields of a rule other than its filter. */
export type RuleSettings = Pick<
  FirewallRuleRecord,
  'action' | 'priority' | 'paused' | 'description' | 'ref' | 'products'
>;

/** One reader per setting; an absent (or null) optional setting reads as its default. */
const SETTING_READERS: { [K in keyof RuleSettings]: (object: BodyObject) => RuleSettings[K] } = {
  action: (object) => object.oneOf('action', FIREWALL_RULE_ACTIONS),
  priority: (object) => object.integer('priority', 0, RULE_LIMITS.maxPriority) ?? null,
  paused: (object) => object.boolean('paused') ?? false,
  description: (object) => object.string('description', RULE_LIMITS.description) ?? '',
  ref: (object) => object.string('ref', RULE_LIMITS.ref) ?? null,
  products: (object) => object.setOf('products', BYPASS_PRODUCTS) ?? [],
};
export const SETTING_KEYS = Object.keys(SETTING_READERS) as (keyof RuleSettings)[];

/** The members a rule object may have: its settings and filter, and what the API answers besides. */
const RULE_MEMBERS: readonly string[] = ['id', ...SETTING_KEYS, 'filter', 'created_on', 'modified_on'];

/** Every setting, as POST and PUT take them (omitted ones get their defaults). */
export function readSettings(object: BodyObject, plan: Plan): RuleSettings {
  object.allowOnly(RULE_MEMBERS, 'a firewall rule');
  const settings = {} as Record<keyof RuleSettings, unknown>;
  for (const key of SETTING_KEYS) settings[key] = SETTING_READERS[key](object);
  return checkSettings(settings as RuleSettings, object, plan);
}

/**
 * The settings after a PATCH: those given replace the current ones (`null` resets one to its default).
 * Changing the action away from `bypass` drops the products, which only `bypass` has.
 */
export function editSettings(object: BodyObject, current: FirewallRuleRecord, plan: Plan): RuleSettings {
  object.allowOnly(RULE_MEMBERS, 'a firewall rule');
  const settings: Record<keyof RuleSettings, unknown> = { ...current };
  for (const key of SETTING_KEYS) if (object.present(key)) settings[key] = SETTING_READERS[key](object);
  if (object.present('action') && settings.action !== 'bypass' && !object.present('products'))
    settings.products = [];
  return checkSettings(settings as RuleSettings, object, plan, object.present('action'));
}

/** Rules across settings: `log` needs Enterprise; `products` goes with `bypass`, and only with it. */
function checkSettings(
  settings: RuleSettings,
  object: BodyObject,
  plan: Plan,
  actionGiven = true,
): RuleSettings {
  // Only when the action is being set: a zone moved off Enterprise keeps its log rules editable.
  if (actionGiven && settings.action === 'log' && plan !== 'enterprise') {
    object.fail(
      'action',
      `the log action needs the Enterprise plan; this zone is on the ${planNames[plan]} plan`,
      CODES.actionNotEntitled,
      'action-not-entitled',
    );
  }
  if (settings.action === 'bypass' && settings.products.length === 0) {
    object.fail(
      'products',
      `products is required with the bypass action: any of ${BYPASS_PRODUCTS.join(', ')}`,
      undefined,
      'products-required',
    );
  }
  if (settings.action !== 'bypass' && settings.products.length > 0) {
    object.fail(
      'products',
      'products can only be given with the bypass action',
      undefined,
      'products-without-bypass',
    );
  }
  return settings;
}

/** A rule's filter on creation: an existing filter's id, or a new filter and where the body gives it. */
export type FilterChoice = { id: string } | { inline: FilterFields; place: Place };

/** The `filter` object of a rule body (required), and the id in it if any. */
function filterMember(object: BodyObject): { filter: BodyObject; id: string | undefined } {
  const filter: BodyObject | undefined = object.object('filter', 'filter');
  if (filter === undefined) {
    object.fail('filter', 'filter is required: {"id": "<filter id>"} or, on creation, {"expression": "…"}');
  }
  const id = filter.get('id');
  if (id !== undefined && typeof id !== 'string') throw invalid(filter.placeOf('id'), 'id must be a string');
  return { filter, id };
}

/**
 * `filter` on creation. An object with an `id` refers to an existing filter (its other members are ignored,
 * so that a rule read with GET can be sent back). Without an id it is an inline filter, checked like one
 * sent to the Filters API, its errors reported as 10202 "filter at index N: …".
 */
function readFilterChoice(
  object: BodyObject,
  index: number,
  plan: Plan,
  checks: ExpressionChecks,
): FilterChoice {
  const { filter, id } = filterMember(object);
  if (id !== undefined) return { id };
  const place = { ...filter.place, code: CODES.invalidInlineFilter, context: `filter at index ${index}` };
  const inline = readFilterFields(BodyObject.read(object.get('filter'), place, 'filter'), plan, checks);
  return { inline, place };
}

/**
 * A rule as POST takes it, element `index` of the body: its settings, then its filter. What needs the
 * zone's data (that a filter id exists, the quota, unique expressions) is the caller's.
 */
export function readNewFirewallRule(
  object: BodyObject,
  index: number,
  plan: Plan,
  checks: ExpressionChecks = {},
): { settings: RuleSettings; choice: FilterChoice } {
  const settings = readSettings(object, plan);
  return { settings, choice: readFilterChoice(object, index, plan, checks) };
}

/** `filter` on PUT and PATCH: only an id, since changing a rule never changes a filter. */
export function readFilterId(object: BodyObject): string {
  const { filter, id } = filterMember(object);
  if (id === undefined) {
    throw invalid(
      filter.placeOf('id'),
      'filter.id is required: replacing or editing a rule never changes a filter; change the filter ' +
        'through the Filters API, or give the id of another filter',
    );
  }
  return id;
}
