import { OVERRIDE_ACTIONS, PREVIOUS_WAF_GROUPS, PREVIOUS_WAF_RULES } from '../engine/previous-waf/index.js';
import type { Store, StoreTransaction, WafOverrideRecord, ZoneRecord } from '../store/store.js';
import { at, CODES, ServiceError } from './errors.js';
import { isId, newId, now } from './ids.js';
import { BodyObject, childPlace, invalid, isPlainObject, rootPlace, shown } from './input.js';
import { type QueryParams, readPage, resultInfo } from './pagination.js';
import { assertPreviousWaf } from './previous-waf-state.js';

/**
 * URI-based WAF overrides (`/zones/{zone_id}/firewall/waf/overrides`): on the URLs listed, groups and rules
 * of the previous WAF take other modes. An API-only feature of the previous WAF, which blocks the migration
 * while any exist (docs/api.md §7).
 */

export { OVERRIDE_ACTIONS };

export const OVERRIDE_LIMITS = {
  urls: 100,
  url: 2048,
  description: 500,
  priority: 1_000_000_000,
} as const;

export interface OverrideJson {
  id: string;
  description: string | null;
  urls: string[];
  priority: number;
  groups: Record<string, string>;
  rules: Record<string, string>;
  rewrite_action: Record<string, string>;
  paused: boolean;
}

export const overrideJson = (o: WafOverrideRecord): OverrideJson => ({
  id: o.id,
  description: o.description,
  urls: o.urls,
  priority: o.priority,
  groups: o.groups,
  rules: o.rules,
  rewrite_action: o.rewriteAction,
  paused: o.paused,
});

const GROUP_IDS = new Set(PREVIOUS_WAF_GROUPS.map((group) => group.id));
const RULE_IDS = new Set(PREVIOUS_WAF_RULES.map((rule) => rule.id));

type OverrideFields = Pick<
  WafOverrideRecord,
  'description' | 'urls' | 'priority' | 'groups' | 'rules' | 'rewriteAction' | 'paused'
>;

function readUrls(object: BodyObject): string[] {
  const value = object.get('urls');
  if (!Array.isArray(value) || value.length === 0 || value.length > OVERRIDE_LIMITS.urls) {
    object.fail('urls', `urls is required: an array of 1 to ${OVERRIDE_LIMITS.urls} URL patterns`);
  }
  const urls = value.map((url: unknown, index) => {
    if (typeof url !== 'string' || url === '' || url.length > OVERRIDE_LIMITS.url || /\s/.test(url)) {
      throw invalid(
        childPlace(object.placeOf('urls'), index),
        `each URL pattern must be a non-empty string of at most ${OVERRIDE_LIMITS.url} characters without spaces`,
      );
    }
    return url;
  });
  return [...new Set(urls)];
}

/** An object whose keys pass `key` and whose values are override actions. */
function readModes(
  object: BodyObject,
  name: string,
  key: (id: string) => string | undefined,
): Record<string, string> | undefined {
  const value = object.get(name);
  if (value === undefined) return undefined;
  if (!isPlainObject(value)) object.fail(name, `${name} must be an object`);
  const modes: Record<string, string> = {};
  for (const [id, mode] of Object.entries(value)) {
    const place = childPlace(object.placeOf(name), id);
    const problem = key(id);
    if (problem !== undefined) throw invalid(place, problem);
    if (typeof mode !== 'string' || !(OVERRIDE_ACTIONS as readonly string[]).includes(mode)) {
      throw invalid(place, `${name}.${shown(id)} must be one of ${OVERRIDE_ACTIONS.join(', ')}`);
    }
    modes[id] = mode;
  }
  return modes;
}

const knownGroup = (id: string) =>
  GROUP_IDS.has(id) ? undefined : `${shown(id)} is not a group of the previous WAF`;
const knownRule = (id: string) =>
  RULE_IDS.has(id) ? undefined : `${shown(id)} is not a rule of the previous WAF`;
const knownAction = (id: string) =>
  (OVERRIDE_ACTIONS as readonly string[]).includes(id)
    ? undefined
    : `rewrite_action keys must be among ${OVERRIDE_ACTIONS.join(', ')}`;

/**
 * The fields of a POST or PUT body. POST needs `urls` and groups or rules to override; PUT (which replaces
 * the override) needs `urls`, `rules` and `rewrite_action`, as Cloudflare documents.
 */
function readFields(body: unknown, replacing: boolean, id?: string): OverrideFields {
  const object = BodyObject.read(body, rootPlace(CODES.invalidWafOverride), 'the request body');
  if (id !== undefined && object.has('id') && object.get('id') !== id) {
    object.fail('id', `id must be the override id of the path (${id}) or be left out`);
  }
  const urls = readUrls(object);
  const groups = readModes(object, 'groups', knownGroup);
  const rules = readModes(object, 'rules', knownRule);
  const rewriteAction = readModes(object, 'rewrite_action', knownAction);
  if (replacing) {
    if (rules === undefined) object.fail('rules', 'rules is required: an object of rule id → action');
    if (rewriteAction === undefined)
      object.fail('rewrite_action', 'rewrite_action is required: an object of action → action');
  } else if (Object.keys(groups ?? {}).length === 0 && Object.keys(rules ?? {}).length === 0) {
    object.fail('rules', 'an override must change at least one group (groups) or rule (rules)');
  }
  return {
    urls,
    groups: groups ?? {},
    rules: rules ?? {},
    rewriteAction: rewriteAction ?? {},
    priority: object.integer('priority', -OVERRIDE_LIMITS.priority, OVERRIDE_LIMITS.priority) ?? 1,
    description: object.string('description', OVERRIDE_LIMITS.description) ?? null,
    paused: object.boolean('paused') ?? false,
  };
}

const notFound = (id: string) =>
  new ServiceError('not-found', at(CODES.wafOverrideNotFound, `WAF override not found: ${shown(id)}`));

export class WafOverrideService {
  constructor(private readonly store: Store) {}

  /** `page`, `per_page` (5..100, default 50); in creation order. */
  list(zone: ZoneRecord, query: QueryParams) {
    const page = readPage(query, 50);
    return this.store.transaction(async (tx) => {
      await assertPreviousWaf(tx, zone);
      const found = await tx.wafOverrides.list(zone.id, page);
      return {
        result: found.items.map(overrideJson),
        resultInfo: resultInfo(page, found.items.length, found.totalCount),
      };
    });
  }

  async create(zone: ZoneRecord, body: unknown): Promise<OverrideJson> {
    return this.store.transaction(async (tx) => {
      await assertPreviousWaf(tx, zone);
      const fields = readFields(body, false);
      const time = now();
      const override = { id: newId(), zoneId: zone.id, ...fields, createdOn: time, modifiedOn: time };
      await tx.wafOverrides.insert(override);
      return overrideJson(override);
    });
  }

  async get(zone: ZoneRecord, id: string): Promise<OverrideJson> {
    return this.store.transaction(async (tx) => {
      await assertPreviousWaf(tx, zone);
      return overrideJson(await find(tx, zone.id, id));
    });
  }

  /** PUT: the override as the body describes it (omitted optional fields reset). */
  async update(zone: ZoneRecord, id: string, body: unknown): Promise<OverrideJson> {
    return this.store.transaction(async (tx) => {
      await assertPreviousWaf(tx, zone);
      const current = await find(tx, zone.id, id);
      const updated = { ...current, ...readFields(body, true, id), modifiedOn: now() };
      await tx.wafOverrides.update(updated);
      return overrideJson(updated);
    });
  }

  async delete(zone: ZoneRecord, id: string): Promise<{ id: string }> {
    return this.store.transaction(async (tx) => {
      await assertPreviousWaf(tx, zone);
      await tx.wafOverrides.delete(zone.id, (await find(tx, zone.id, id)).id);
      return { id };
    });
  }
}

async function find(tx: StoreTransaction, zoneId: string, id: string): Promise<WafOverrideRecord> {
  const override = isId(id) ? await tx.wafOverrides.get(zoneId, id) : undefined;
  if (override === undefined) throw notFound(id);
  return override;
}
