import { type Plan, planNames } from '../scheme/profile.js';
import type {
  FilterRecord,
  FirewallRuleAction,
  FirewallRuleRecord,
  Store,
  StoreTransaction,
  ZoneRecord,
} from '../store/store.js';
import { at, CODES, ServiceError } from './errors.js';
import { ExpressionClaims, type FilterJson, filterJson, requireFilterRoom } from './filters.js';
import { isId, newId, now } from './ids.js';
import { BodyObject, childPlace, invalid, readBatch, readIdsToDelete, rootPlace, shown } from './input.js';
import {
  type QueryParams,
  queryBoolean,
  queryId,
  queryString,
  type ResultInfo,
  readPage,
  resultInfo,
} from './pagination.js';
import { FILTER_MEMBERS, type FilterFields } from './rules/filter.js';
import {
  editSettings,
  type RuleSettings,
  readFilterId,
  readNewFirewallRule,
  readSettings,
  SETTING_KEYS,
} from './rules/firewall-rule.js';
import { StoreCache } from './store-cache.js';

/**
 * Firewall rules (`/zones/{zone_id}/firewall/rules`): an action applied to the requests a filter matches.
 * A rule names its filter by id, or, on creation only, carries it inline (Cloudflare's "single-call
 * creation"): the filter is then created with the rule and belongs to it until the rule is deleted. The
 * checks of a rule object are in ./rules/firewall-rule.ts (`cfrules validate` applies them too); what
 * needs the zone's data (filters by id, the quota) is here.
 */

/** Firewall rules a zone may have, by plan. */
export const RULE_QUOTA: Readonly<Record<Plan, number>> = {
  free: 5,
  pro: 20,
  business: 100,
  enterprise: 1000,
};

export interface DeletedFilterJson {
  id: string;
  deleted: true;
}

export interface RuleJson {
  id: string;
  paused: boolean;
  description: string;
  action: FirewallRuleAction;
  priority: number | null;
  filter: FilterJson | DeletedFilterJson;
  ref?: string;
  products?: string[];
  created_on: string;
  modified_on: string;
}

export function ruleJson(rule: FirewallRuleRecord, filter: FilterJson | DeletedFilterJson): RuleJson {
  return {
    id: rule.id,
    paused: rule.paused,
    description: rule.description,
    action: rule.action,
    priority: rule.priority,
    filter,
    // Like Cloudflare, no `ref` when never set and no `products` when there are none.
    ...(rule.ref === null ? {} : { ref: rule.ref }),
    ...(rule.products.length === 0 ? {} : { products: rule.products }),
    created_on: rule.createdOn,
    modified_on: rule.modifiedOn,
  };
}

/** The id of an existing filter of the zone that a rule refers to (a 400: it is the body that is wrong). */
async function referencedFilter(
  tx: StoreTransaction,
  zoneId: string,
  id: string,
  object: BodyObject,
): Promise<string> {
  const filter = isId(id) ? await tx.filters.get(zoneId, id) : undefined;
  if (filter === undefined) {
    throw invalid(
      childPlace(object.placeOf('filter'), 'id'),
      `filter ${shown(id)} does not exist in this zone`,
    );
  }
  checkSentFilter(BodyObject.read(object.get('filter'), object.placeOf('filter'), 'filter'), filter);
  return id;
}

/**
 * A rule points at a filter by id and never changes it. The other members sent with the id must be the
 * filter's own (a rule read with GET and sent back has them), so that none is silently dropped.
 */
function checkSentFilter(sent: BodyObject, filter: FilterRecord): void {
  sent.allowOnly(FILTER_MEMBERS, 'a filter');
  const stored = filterJson(filter) as unknown as Record<string, unknown>;
  for (const key of ['expression', 'description', 'paused', 'ref']) {
    if (sent.has(key) && sent.get(key) !== stored[key]) {
      sent.fail(
        key,
        `${key} is not filter ${filter.id}'s: a rule only points at a filter by id; change the filter ` +
          `itself with PUT /zones/{zone_id}/filters/${filter.id}, or leave ${key} out`,
      );
    }
  }
}

const ruleNotFound = (id: string, pointer?: string): ServiceError =>
  new ServiceError('not-found', at(CODES.ruleNotFound, `firewall rule not found: ${shown(id)}`, pointer));

async function findRule(
  tx: StoreTransaction,
  zoneId: string,
  id: string,
  pointer?: string,
): Promise<FirewallRuleRecord> {
  const rule = isId(id) ? await tx.firewallRules.get(zoneId, id) : undefined;
  if (rule === undefined) throw ruleNotFound(id, pointer);
  return rule;
}

/** A rule as stored, with its filter. */
async function render(tx: StoreTransaction, rule: FirewallRuleRecord): Promise<RuleJson> {
  const filter = await tx.filters.get(rule.zoneId, rule.filterId);
  // The store's foreign key makes this impossible; say so rather than answer with a rule without filter.
  if (filter === undefined) {
    throw new ServiceError(
      'internal',
      at(CODES.internal, `firewall rule ${rule.id} has no filter ${rule.filterId}`),
    );
  }
  return ruleJson(rule, filterJson(filter));
}

/**
 * Once a rule no longer uses the filter created with it (the rule was deleted, or now uses another
 * filter), the filter becomes an ordinary one that the Filters API can change and delete.
 */
async function release(
  tx: StoreTransaction,
  zoneId: string,
  filterId: string,
  ruleId: string,
): Promise<FilterRecord | undefined> {
  const filter = await tx.filters.get(zoneId, filterId);
  if (filter === undefined || filter.createdWithRule !== ruleId) return filter;
  const released = { ...filter, createdWithRule: null };
  await tx.filters.update(released);
  return released;
}

/** Stores a changed rule, freeing the filter it was created with if it now uses another one. */
async function save(
  tx: StoreTransaction,
  before: FirewallRuleRecord,
  after: FirewallRuleRecord,
): Promise<void> {
  await tx.firewallRules.update(after);
  if (after.filterId !== before.filterId) await release(tx, before.zoneId, before.filterId, before.id);
}

const sameSettings = (a: FirewallRuleRecord, b: FirewallRuleRecord): boolean =>
  a.filterId === b.filterId && SETTING_KEYS.every((key) => JSON.stringify(a[key]) === JSON.stringify(b[key]));

/** A rule of a creation once read: its filter is one of the zone's, or a new one given inline. */
interface PlannedRule {
  index: number;
  settings: RuleSettings;
  inline?: FilterFields;
  filterId: string;
}

/** What happens to a creation: the rules, or (quota exceeded) the inline filters created without them. */
type CreateOutcome =
  | { rules: RuleJson[] }
  | { quotaExceeded: { count: number; adding: number; filters: { index: number; id: string }[] } };

export interface RuleList {
  result: RuleJson[];
  resultInfo: ResultInfo;
}

/** What a rule's answer is read from: the rules and the filters they show. */
const RULE_TABLES = ['firewallRules', 'filters'] as const;

export class FirewallRuleService {
  /** Answers of reads, until the next write to rules or filters (see StoreCache). */
  private readonly lists: StoreCache<RuleList>;
  private readonly rules: StoreCache<RuleJson>;

  constructor(private readonly store: Store) {
    this.lists = new StoreCache(store, RULE_TABLES);
    this.rules = new StoreCache(store, RULE_TABLES);
  }

  /** Query: `id`, `action` (exact), `description` (case-insensitive substring), `paused`. */
  async list(zone: ZoneRecord, query: QueryParams): Promise<RuleList> {
    const page = readPage(query);
    const search = {
      id: queryId(query),
      action: queryString(query, 'action'),
      description: queryString(query, 'description'),
      paused: queryBoolean(query, 'paused'),
    };
    const key = JSON.stringify([zone.id, page.page, page.perPage, search]);
    return this.lists.get(key, () =>
      this.store.transaction(async (tx) => {
        const found = await tx.firewallRules.list(zone.id, search, page);
        return {
          result: found.items.map(({ rule, filter }) => ruleJson(rule, filterJson(filter))),
          resultInfo: resultInfo(page, found.items.length, found.totalCount),
        };
      }),
    );
  }

  /**
   * `[{filter, action, …}]` or one rule. Outcomes: any invalid rule or inline filter → nothing created;
   * all valid but over the plan's quota → the inline filters are created (as ordinary filters) and the
   * error names them, so that the rules can be created by id later; otherwise filters, then rules, are
   * created.
   */
  async create(zone: ZoneRecord, body: unknown): Promise<RuleJson[]> {
    const items = readBatch(body, CODES.invalidRule, 'firewall rule');
    const outcome = await this.store.transaction(async (tx): Promise<CreateOutcome> => {
      const claims = new ExpressionClaims(tx, zone.id);
      const planned: PlannedRule[] = [];
      for (const { value, place, index } of items) {
        const object = BodyObject.read(value, place, 'a firewall rule');
        const { settings, choice } = readNewFirewallRule(object, index, zone.plan);
        if ('id' in choice) {
          planned.push({ index, settings, filterId: await referencedFilter(tx, zone.id, choice.id, object) });
        } else {
          await claims.claim(choice.inline.expression, undefined, childPlace(choice.place, 'expression'));
          planned.push({ index, settings, inline: choice.inline, filterId: newId() });
        }
      }

      const time = now();
      const newFilter = async (
        fields: FilterFields,
        id: string,
        ruleId: string | null,
      ): Promise<FilterRecord> => {
        const filter = {
          id,
          zoneId: zone.id,
          ...fields,
          createdWithRule: ruleId,
          createdOn: time,
          modifiedOn: time,
        };
        await tx.filters.insert(filter);
        return filter;
      };

      const inlineFilters = planned.filter((rule) => rule.inline !== undefined).length;
      const count = await tx.firewallRules.count(zone.id);
      // No room for any rule: nothing is created, not even the filters (they could never get their rules).
      if (count >= RULE_QUOTA[zone.plan])
        return { quotaExceeded: { count, adding: planned.length, filters: [] } };
      await requireFilterRoom(tx, zone.id, inlineFilters);
      if (count + planned.length > RULE_QUOTA[zone.plan]) {
        // The documented outcome: the filters exist (not tied to any rule), the rules do not.
        const filters: { index: number; id: string }[] = [];
        for (const rule of planned) {
          if (rule.inline === undefined) continue;
          filters.push({ index: rule.index, id: (await newFilter(rule.inline, rule.filterId, null)).id });
        }
        return { quotaExceeded: { count, adding: planned.length, filters } };
      }

      const rules: FirewallRuleRecord[] = [];
      for (const rule of planned) {
        const id = newId();
        if (rule.inline !== undefined) await newFilter(rule.inline, rule.filterId, id);
        rules.push({
          id,
          zoneId: zone.id,
          filterId: rule.filterId,
          ...rule.settings,
          createdOn: time,
          modifiedOn: time,
        });
      }
      for (const rule of rules) await tx.firewallRules.insert(rule);
      const created: RuleJson[] = [];
      for (const rule of rules) created.push(await render(tx, rule));
      return { rules: created };
    });
    // Thrown after the commit: the inline filters created under an exceeded quota are kept.
    if ('quotaExceeded' in outcome) throw quotaExceeded(zone.plan, outcome.quotaExceeded);
    return outcome.rules;
  }

  /** PUT `[{id, filter: {id}, action, …}]`: every rule replaced (omitted fields reset), or none. */
  async updateMany(zone: ZoneRecord, body: unknown): Promise<RuleJson[]> {
    return this.eachRule(zone, body, (tx, rule, object) => replaced(tx, zone, rule, object));
  }

  /** PATCH `[{id, priority}]` (or one): each rule takes the fields given; other fields stay. */
  async editPriorities(zone: ZoneRecord, body: unknown): Promise<RuleJson[]> {
    return this.eachRule(zone, body, (tx, rule, object) => edited(tx, zone, rule, object));
  }

  async get(zone: ZoneRecord, id: string): Promise<RuleJson> {
    const rule = await this.rules.get(`${zone.id}/${id}`, () =>
      this.store.transaction(async (tx) => {
        const found = isId(id) ? await tx.firewallRules.getWithFilter(zone.id, id) : undefined;
        return found === undefined ? undefined : ruleJson(found.rule, filterJson(found.filter));
      }),
    );
    if (rule === undefined) throw ruleNotFound(id);
    return rule;
  }

  /** PUT one rule: the body's `id`, when given, must be the path's. Omitted fields get their defaults. */
  async update(zone: ZoneRecord, id: string, body: unknown): Promise<RuleJson> {
    return this.store.transaction(async (tx) => {
      const rule = await findRule(tx, zone.id, id);
      const after = await replaced(tx, zone, rule, ruleBody(body, id));
      await save(tx, rule, after);
      return render(tx, after);
    });
  }

  /** PATCH one rule: only the given fields change; `{}` changes nothing. An array, as Cloudflare answers. */
  async edit(zone: ZoneRecord, id: string, body: unknown): Promise<RuleJson[]> {
    return this.store.transaction(async (tx) => {
      const rule = await findRule(tx, zone.id, id);
      const after = await edited(tx, zone, rule, ruleBody(body, id));
      if (after !== rule) await save(tx, rule, after);
      return [await render(tx, after)];
    });
  }

  /**
   * Deletes the rule. Its filter goes too when `deleteFilterIfUnused` is set and no other rule uses it;
   * otherwise it stays, as an ordinary filter if it had been created with this rule.
   */
  async delete(zone: ZoneRecord, id: string, options: { deleteFilterIfUnused: boolean }): Promise<RuleJson> {
    return this.store.transaction(async (tx) => {
      const rule = await findRule(tx, zone.id, id);
      await tx.firewallRules.delete(zone.id, [rule.id]);
      if (options.deleteFilterIfUnused && (await tx.firewallRules.countUsing(zone.id, rule.filterId)) === 0) {
        await tx.filters.delete(zone.id, [rule.filterId]);
        return ruleJson(rule, { id: rule.filterId, deleted: true });
      }
      const filter = await release(tx, zone.id, rule.filterId, rule.id);
      return ruleJson(rule, filter === undefined ? { id: rule.filterId, deleted: true } : filterJson(filter));
    });
  }

  /** The rules named by `?id=` (or the body); unknown ids are skipped. Filters are never deleted. */
  async deleteMany(zone: ZoneRecord, query: QueryParams, body: unknown): Promise<{ id: string }[]> {
    const ids = readIdsToDelete(query, body, CODES.invalidQuery);
    // Naming nothing deletes nothing (Cloudflare's documented answer): an empty list, not an error.
    if (ids.length === 0) return [];
    return this.store.transaction(async (tx) => {
      const rules: FirewallRuleRecord[] = [];
      for (const id of ids.filter(isId)) {
        const rule = await tx.firewallRules.get(zone.id, id);
        if (rule !== undefined) rules.push(rule);
      }
      const deleted = await tx.firewallRules.delete(
        zone.id,
        rules.map((rule) => rule.id),
      );
      for (const rule of rules) await release(tx, zone.id, rule.filterId, rule.id);
      return deleted.map((id) => ({ id }));
    });
  }

  /**
   * A batch of changes to existing rules, each element naming its rule by `id`: all are checked before any
   * is stored, so that one bad element leaves every rule as it was.
   */
  private async eachRule(
    zone: ZoneRecord,
    body: unknown,
    change: (
      tx: StoreTransaction,
      rule: FirewallRuleRecord,
      object: BodyObject,
    ) => Promise<FirewallRuleRecord>,
  ): Promise<RuleJson[]> {
    const items = readBatch(body, CODES.invalidRule, 'firewall rule');
    return this.store.transaction(async (tx) => {
      const seen = new Set<string>();
      const changes: { before: FirewallRuleRecord; after: FirewallRuleRecord }[] = [];
      for (const { value, place } of items) {
        const object = BodyObject.read(value, place, 'a firewall rule');
        const id = object.requiredString('id', Number.POSITIVE_INFINITY);
        const rule = await findRule(tx, zone.id, id, object.placeOf('id').pointer);
        if (seen.has(id)) object.fail('id', `firewall rule ${id} is listed twice`);
        seen.add(id);
        changes.push({ before: rule, after: await change(tx, rule, object) });
      }
      for (const { before, after } of changes) if (after !== before) await save(tx, before, after);
      const rendered: RuleJson[] = [];
      for (const { after } of changes) rendered.push(await render(tx, after));
      return rendered;
    });
  }
}

/** The body of a single-rule PUT or PATCH: an object whose `id`, if any, is the path's. */
function ruleBody(body: unknown, id: string): BodyObject {
  const object = BodyObject.read(body, rootPlace(CODES.invalidRule), 'the request body');
  if (object.has('id') && object.get('id') !== id) {
    object.fail('id', `id must be the firewall rule id of the path (${id}) or be left out`);
  }
  return object;
}

/** The rule as a PUT body describes it; the filter must be given by id. Not stored yet. */
async function replaced(
  tx: StoreTransaction,
  zone: ZoneRecord,
  rule: FirewallRuleRecord,
  object: BodyObject,
): Promise<FirewallRuleRecord> {
  const settings = readSettings(object, zone.plan);
  const filterId = await referencedFilter(tx, zone.id, readFilterId(object), object);
  return { ...rule, ...settings, filterId, modifiedOn: now() };
}

/** The rule after a PATCH body, or the same object when nothing changes. Not stored yet. */
async function edited(
  tx: StoreTransaction,
  zone: ZoneRecord,
  rule: FirewallRuleRecord,
  object: BodyObject,
): Promise<FirewallRuleRecord> {
  const settings = editSettings(object, rule, zone.plan);
  let filterId = rule.filterId;
  if (object.has('filter')) {
    filterId = await referencedFilter(tx, zone.id, readFilterId(object), object);
  }
  const after = { ...rule, ...settings, filterId };
  return sameSettings(rule, after) ? rule : { ...after, modifiedOn: now() };
}

function quotaExceeded(
  plan: Plan,
  { count, adding, filters }: { count: number; adding: number; filters: { index: number; id: string }[] },
): ServiceError {
  const quota = RULE_QUOTA[plan];
  const parts = [
    `firewall rule quota exceeded: the ${planNames[plan]} plan allows ${quota} firewall rules per zone, ` +
      `the zone has ${count} and the request adds ${adding}`,
  ];
  if (filters.length === 0) parts.push('nothing was created');
  for (const { index, id } of filters) {
    parts.push(
      `the inline filter at index ${index} was created as filter ${id}: create its rule with ` +
        `{"filter":{"id":"${id}"}} once there is room`,
    );
  }
  return new ServiceError('bad-request', at(CODES.ruleQuotaExceeded, parts.join('; ')));
}
