import {
  PAGE_RULE_OPERATORS,
  pageRuleWafEffect as wafEffectOfActions,
} from '../engine/previous-waf/url-patterns.js';
import type { Plan } from '../scheme/profile.js';
import { planNames } from '../scheme/profile.js';
import type {
  PageRuleAction,
  PageRuleRecord,
  PageRuleTarget,
  Store,
  StoreTransaction,
  ZoneRecord,
} from '../store/store.js';
import { at, CODES, ServiceError } from './errors.js';
import { isId, newId, now } from './ids.js';
import { BodyObject, childPlace, type Place, rootPlace, shown } from './input.js';
import { byText, listItems } from './list-query.js';
import type { QueryParams } from './pagination.js';

/**
 * Page rules (`/zones/{zone_id}/pagerules`): settings applied to the requests whose URL matches a pattern.
 * cfrules understands the settings that concern the previous WAF — `disable_security` and `waf` (`on` or
 * `off`) — which the WAF migration turns into skip rules; every other setting is stored and returned as
 * given. After a zone's migration, page-rule WAF settings no longer apply (docs/api.md §7).
 */

export { PAGE_RULE_OPERATORS };
export const PAGE_RULE_STATUSES = ['active', 'disabled'] as const;

/** Page rules a zone may have, by plan (Cloudflare's included quotas). */
export const PAGE_RULE_QUOTA: Readonly<Record<Plan, number>> = {
  free: 3,
  pro: 20,
  business: 50,
  enterprise: 125,
};

export const PAGE_RULE_LIMITS = { url: 2048, actions: 50, priority: 1_000_000 } as const;

/** The name of a setting: lower-case words joined by underscores, as all of Cloudflare's are. */
const ACTION_ID = /^[a-z][a-z0-9_]{0,63}$/;

export interface PageRuleJson {
  id: string;
  targets: PageRuleTarget[];
  actions: PageRuleAction[];
  priority: number;
  status: PageRuleRecord['status'];
  created_on: string;
  modified_on: string;
}

export const pageRuleJson = (rule: PageRuleRecord): PageRuleJson => ({
  id: rule.id,
  targets: rule.targets,
  actions: rule.actions,
  priority: rule.priority,
  status: rule.status,
  created_on: rule.createdOn,
  modified_on: rule.modifiedOn,
});

/** What a page rule does to the previous WAF: nothing, turn it off (Disable Security, WAF Off), or on. */
export const pageRuleWafEffect = (rule: PageRuleRecord): 'off' | 'on' | undefined =>
  wafEffectOfActions(rule.actions);

/** `[{target: "url", constraint: {operator, value}}]`: exactly one URL target. */
function readTargets(object: BodyObject): PageRuleTarget[] {
  const value = object.get('targets');
  if (!Array.isArray(value) || value.length !== 1) {
    object.fail(
      'targets',
      'targets is required: [{"target": "url", "constraint": {"operator": "matches", "value": "<URL pattern>"}}]',
    );
  }
  const target: BodyObject = BodyObject.read(value[0], childPlace(object.placeOf('targets'), 0), 'a target');
  target.oneOf('target', ['url'] as const);
  const constraint = target.object('constraint', 'constraint');
  if (constraint === undefined) target.fail('constraint', 'constraint is required: {"operator", "value"}');
  const operator = constraint.oneOf('operator', PAGE_RULE_OPERATORS);
  const url = constraint.requiredString('value', PAGE_RULE_LIMITS.url);
  return [{ target: 'url', constraint: { operator, value: url } }];
}

/** `[{id, value?}]`: distinct settings; `disable_security` takes no value, `waf` takes `on` or `off`. */
function readActions(object: BodyObject): PageRuleAction[] {
  const value = object.get('actions');
  if (!Array.isArray(value) || value.length === 0 || value.length > PAGE_RULE_LIMITS.actions) {
    object.fail(
      'actions',
      `actions is required: an array of 1 to ${PAGE_RULE_LIMITS.actions} {"id", "value"}`,
    );
  }
  const seen = new Set<string>();
  return value.map((item: unknown, index): PageRuleAction => {
    const place: Place = childPlace(object.placeOf('actions'), index);
    const action = BodyObject.read(item, place, 'an action');
    const id = action.requiredString('id', 64);
    if (!ACTION_ID.test(id)) action.fail('id', `${shown(id)} is not a page rule setting`);
    if (seen.has(id)) action.fail('id', `the setting ${id} is given twice`);
    seen.add(id);
    if (id === 'waf') return { id, value: action.oneOf('value', ['on', 'off'] as const) };
    if (id === 'disable_security') {
      if (action.has('value')) action.fail('value', 'disable_security takes no value');
      return { id };
    }
    return action.has('value') ? { id, value: action.get('value') } : { id };
  });
}

type Fields = Pick<PageRuleRecord, 'targets' | 'actions' | 'priority' | 'status'>;

const READERS: { [K in keyof Fields]: (object: BodyObject) => Fields[K] } = {
  targets: readTargets,
  actions: readActions,
  priority: (object) => object.integer('priority', 1, PAGE_RULE_LIMITS.priority) ?? 1,
  status: (object) => (object.has('status') ? object.oneOf('status', PAGE_RULE_STATUSES) : 'disabled'),
};
const KEYS = Object.keys(READERS) as (keyof Fields)[];

function bodyOf(body: unknown, id?: string): BodyObject {
  const object = BodyObject.read(body, rootPlace(CODES.invalidPageRule), 'the request body');
  if (id !== undefined && object.has('id') && object.get('id') !== id) {
    object.fail('id', `id must be the page rule id of the path (${id}) or be left out`);
  }
  return object;
}

function readAll(object: BodyObject): Fields {
  const fields = {} as Record<keyof Fields, unknown>;
  for (const key of KEYS) fields[key] = READERS[key](object);
  return fields as Fields;
}

const notFound = (id: string) =>
  new ServiceError('not-found', at(CODES.pageRuleNotFound, `page rule not found: ${shown(id)}`));

async function find(tx: StoreTransaction, zoneId: string, id: string): Promise<PageRuleRecord> {
  const rule = isId(id) ? await tx.pageRules.get(zoneId, id) : undefined;
  if (rule === undefined) throw notFound(id);
  return rule;
}

export class PageRuleService {
  constructor(private readonly store: Store) {}

  /**
   * Every page rule (no pages, as Cloudflare's list): `status` (search), `match`, `order` (`status`,
   * `priority`, the default) and `direction` (`desc` by default: the rule that applies first comes first).
   */
  async list(zone: ZoneRecord, query: QueryParams): Promise<PageRuleJson[]> {
    const rules = await this.store.transaction(async (tx) => tx.pageRules.list(zone.id));
    const ordered = query.order === undefined ? { ...query, order: 'priority' } : query;
    return listItems(rules, ordered, {
      direction: 'desc',
      filters: { status: (rule, value) => rule.status === value },
      orders: {
        priority: (a, b) => a.priority - b.priority,
        status: (a, b) => byText(a.status, b.status),
      },
    }).result.map(pageRuleJson);
  }

  /** `{targets, actions, priority?, status?}`; the zone's plan bounds how many page rules it has. */
  async create(zone: ZoneRecord, body: unknown): Promise<PageRuleJson> {
    const fields = readAll(bodyOf(body));
    return this.store.transaction(async (tx) => {
      const count = (await tx.pageRules.list(zone.id)).length;
      const quota = PAGE_RULE_QUOTA[zone.plan];
      if (count >= quota) {
        throw new ServiceError(
          'bad-request',
          at(
            CODES.pageRuleQuotaExceeded,
            `page rule quota exceeded: the ${planNames[zone.plan]} plan allows ${quota} page rules per zone`,
          ),
        );
      }
      const time = now();
      const rule = { id: newId(), zoneId: zone.id, ...fields, createdOn: time, modifiedOn: time };
      await tx.pageRules.insert(rule);
      return pageRuleJson(rule);
    });
  }

  async get(zone: ZoneRecord, id: string): Promise<PageRuleJson> {
    return this.store.transaction(async (tx) => pageRuleJson(await find(tx, zone.id, id)));
  }

  /** PUT: targets and actions required; priority and status back to their defaults when omitted. */
  async update(zone: ZoneRecord, id: string, body: unknown): Promise<PageRuleJson> {
    return this.store.transaction(async (tx) => {
      const current = await find(tx, zone.id, id);
      const rule = { ...current, ...readAll(bodyOf(body, id)), modifiedOn: now() };
      await tx.pageRules.update(rule);
      return pageRuleJson(rule);
    });
  }

  /** PATCH: only the fields given change. */
  async edit(zone: ZoneRecord, id: string, body: unknown): Promise<PageRuleJson> {
    return this.store.transaction(async (tx) => {
      const current = await find(tx, zone.id, id);
      const object = bodyOf(body, id);
      const changes: Partial<Fields> = {};
      for (const key of KEYS) {
        if (object.has(key)) (changes as Record<string, unknown>)[key] = READERS[key](object);
      }
      if (Object.keys(changes).length === 0) return pageRuleJson(current);
      const rule = { ...current, ...changes, modifiedOn: now() };
      await tx.pageRules.update(rule);
      return pageRuleJson(rule);
    });
  }

  async delete(zone: ZoneRecord, id: string): Promise<{ id: string }> {
    return this.store.transaction(async (tx) => {
      await tx.pageRules.delete(zone.id, (await find(tx, zone.id, id)).id);
      return { id };
    });
  }
}
