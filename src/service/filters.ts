import type { Plan } from '../scheme/profile.js';
import type { FilterRecord, Store, StoreTransaction, ZoneRecord } from '../store/store.js';
import { at, CODES, ServiceError } from './errors.js';
import { isId, newId, now } from './ids.js';
import {
  BodyObject,
  childPlace,
  invalid,
  type Place,
  readBatch,
  readIdsToDelete,
  rootPlace,
  shown,
} from './input.js';
import {
  type QueryParams,
  queryBoolean,
  queryId,
  queryString,
  type ResultInfo,
  readPage,
  resultInfo,
} from './pagination.js';
import { readFilterFields } from './rules/filter.js';
import { StoreCache } from './store-cache.js';

/**
 * Filters (`/zones/{zone_id}/filters`): named expressions that firewall rules refer to. The checks of a
 * filter object are in ./rules/filter.ts (firewall rules' inline filters and `cfrules validate` apply them
 * too); the JSON shape and the uniqueness of expressions, which needs the store, are here.
 */

/** Cloudflare's answer to an expression that another filter of the zone already has. */
export const DUPLICATE_MESSAGE = 'config duplicates an already existing config';

/**
 * Filters a zone may hold (cfrules' own limit, docs/api.md §5). Filters outlive failed requests (an
 * exceeded rule quota keeps the inline filters, as Cloudflare documents), so without a cap, failing
 * requests could grow the database forever. Five times the largest rule quota leaves room for every rule's
 * filter and for spares.
 */
export const FILTER_LIMIT = 5_000;

/** Refuses a request that would take the zone past FILTER_LIMIT, before it writes anything. */
export async function requireFilterRoom(tx: StoreTransaction, zoneId: string, adding: number): Promise<void> {
  if (adding === 0) return;
  const count = await tx.filters.count(zoneId);
  if (count + adding <= FILTER_LIMIT) return;
  throw new ServiceError(
    'bad-request',
    at(
      CODES.filterLimitReached,
      `filter limit reached: a zone holds at most ${FILTER_LIMIT} filters, this one has ${count} and the ` +
        `request adds ${adding}; delete filters no rule uses, then try again`,
    ),
  );
}

export interface FilterJson {
  id: string;
  expression: string;
  paused: boolean;
  description: string;
  ref?: string;
  created_on: string;
  modified_on: string;
}

export function filterJson(filter: FilterRecord): FilterJson {
  return {
    id: filter.id,
    expression: filter.expression,
    paused: filter.paused,
    description: filter.description,
    // Cloudflare leaves `ref` out when it was never set.
    ...(filter.ref === null ? {} : { ref: filter.ref }),
    created_on: filter.createdOn,
    modified_on: filter.modifiedOn,
  };
}

/**
 * Keeps a zone's expressions unique over one batch: an expression may not be another filter's, already
 * stored or earlier in the same request. A filter may keep its own expression. Expressions that another
 * filter of the batch is giving up still count as taken: the store's uniqueness holds after every write.
 */
export class ExpressionClaims {
  private readonly claimed = new Set<string>();

  constructor(
    private readonly tx: StoreTransaction,
    private readonly zoneId: string,
  ) {}

  /** Claims the expression for the filter `ownerId` (undefined for a new filter) or throws at `place`. */
  async claim(expression: string, ownerId: string | undefined, place: Place): Promise<void> {
    const stored = await this.tx.filters.getByExpression(this.zoneId, expression);
    if (this.claimed.has(expression) || (stored !== undefined && stored.id !== ownerId)) {
      throw invalid(place, DUPLICATE_MESSAGE);
    }
    this.claimed.add(expression);
  }
}

/** A filter id that names nothing in the zone (or is not an id at all). */
const filterNotFound = (id: string, pointer?: string): ServiceError =>
  new ServiceError('not-found', at(CODES.filterNotFound, `filter not found: ${shown(id)}`, pointer));

/** The zone's filter with this id, or a 404. */
async function findFilter(
  tx: StoreTransaction,
  zoneId: string,
  id: string,
  pointer?: string,
): Promise<FilterRecord> {
  const filter = isId(id) ? await tx.filters.get(zoneId, id) : undefined;
  if (filter === undefined) throw filterNotFound(id, pointer);
  return filter;
}

/** A filter made in one call with its rule belongs to the rule until the rule is deleted or moves on. */
function refuseIfCreatedWithRule(
  filter: FilterRecord,
  change: 'replaced' | 'deleted',
  pointer?: string,
): void {
  const rule = filter.createdWithRule;
  if (rule === null) return;
  const message =
    `filter ${filter.id} was created together with firewall rule ${rule} and cannot be ${change} through ` +
    `the Filters API: delete the rule with {"delete_filter_if_unused":true} to delete both, or delete the ` +
    'rule alone to keep the filter as an ordinary one';
  throw new ServiceError('bad-request', at(CODES.filterOwnedByRule, message, pointer));
}

export interface FilterList {
  result: FilterJson[];
  resultInfo: ResultInfo;
}

export class FilterService {
  /** Answers of reads, until the next write to filters (see StoreCache). */
  private readonly lists: StoreCache<FilterList>;
  private readonly filters: StoreCache<FilterJson>;

  constructor(private readonly store: Store) {
    this.lists = new StoreCache(store, ['filters']);
    this.filters = new StoreCache(store, ['filters']);
  }

  /** Query: `id` (exact), `expression` and `description` (case-insensitive substrings), `ref`, `paused`. */
  async list(zone: ZoneRecord, query: QueryParams): Promise<FilterList> {
    const page = readPage(query);
    const search = {
      id: queryId(query),
      expression: queryString(query, 'expression'),
      description: queryString(query, 'description'),
      ref: queryString(query, 'ref'),
      paused: queryBoolean(query, 'paused'),
    };
    const key = JSON.stringify([zone.id, page.page, page.perPage, search]);
    return this.lists.get(key, () =>
      this.store.transaction(async (tx) => {
        const found = await tx.filters.list(zone.id, search, page);
        return {
          result: found.items.map(filterJson),
          resultInfo: resultInfo(page, found.items.length, found.totalCount),
        };
      }),
    );
  }

  /** `[{expression, description?, paused?, ref?}]` (or one such object): all are created, or none. */
  async create(zone: ZoneRecord, body: unknown): Promise<FilterJson[]> {
    const items = readBatch(body, CODES.invalidFilter, 'filter');
    return this.store.transaction(async (tx) => {
      await requireFilterRoom(tx, zone.id, items.length);
      const time = now();
      const created: FilterJson[] = [];
      for (const { value, place } of items) {
        const fields = readFilterFields(BodyObject.read(value, place, 'a filter'), zone.plan);
        const filter: FilterRecord = {
          id: newId(),
          zoneId: zone.id,
          ...fields,
          createdWithRule: null,
          createdOn: time,
          modifiedOn: time,
        };
        // Each filter is written as soon as it is read, and the insert itself refuses a duplicate, of a
        // stored filter or of one earlier in the batch: one statement instead of a lookup then a write. The
        // errors are the same, in the same order (each item's fields, then its expression's uniqueness);
        // any of them rolls back the whole batch.
        if (!(await tx.filters.insertUnlessDuplicate(filter)))
          throw invalid(duplicatePlace(place), DUPLICATE_MESSAGE);
        created.push(filterJson(filter));
      }
      return created;
    });
  }

  /** PUT `[{id, expression, description?, paused?, ref?}]`: every filter replaced, or none. */
  async updateMany(zone: ZoneRecord, body: unknown): Promise<FilterJson[]> {
    const items = readBatch(body, CODES.invalidFilter, 'filter');
    return this.store.transaction(async (tx) => {
      const claims = new ExpressionClaims(tx, zone.id);
      const time = now();
      const seen = new Set<string>();
      const replaced: FilterRecord[] = [];
      for (const { value, place } of items) {
        const object = BodyObject.read(value, place, 'a filter');
        const id = object.requiredString('id', Number.POSITIVE_INFINITY);
        const existing = await findFilter(tx, zone.id, id, object.placeOf('id').pointer);
        if (seen.has(id)) object.fail('id', `filter ${id} is listed twice`);
        seen.add(id);
        replaced.push(await replacement(existing, object, zone.plan, claims, time));
      }
      for (const filter of replaced) await tx.filters.update(filter);
      return replaced.map(filterJson);
    });
  }

  /** The filters named by `?id=` (or the body); unknown ids are skipped. None is deleted if one is in use. */
  async deleteMany(zone: ZoneRecord, query: QueryParams, body: unknown): Promise<{ id: string }[]> {
    const ids = readIdsToDelete(query, body, CODES.invalidQuery);
    // Naming nothing deletes nothing (Cloudflare's documented answer): an empty list, not an error.
    if (ids.length === 0) return [];
    return this.store.transaction(async (tx) => {
      const existing: FilterRecord[] = [];
      for (const id of ids.filter(isId)) {
        const filter = await tx.filters.get(zone.id, id);
        if (filter !== undefined) existing.push(filter);
      }
      for (const filter of existing) await refuseDeletion(tx, filter);
      const deleted = await tx.filters.delete(
        zone.id,
        existing.map((filter) => filter.id),
      );
      return deleted.map((id) => ({ id }));
    });
  }

  async get(zone: ZoneRecord, id: string): Promise<FilterJson> {
    const filter = await this.filters.get(`${zone.id}/${id}`, () =>
      this.store.transaction(async (tx) => {
        const found = isId(id) ? await tx.filters.get(zone.id, id) : undefined;
        return found === undefined ? undefined : filterJson(found);
      }),
    );
    if (filter === undefined) throw filterNotFound(id);
    return filter;
  }

  /** PUT one filter: the body's `id`, when given, must be the path's. Omitted fields get their defaults. */
  async update(zone: ZoneRecord, id: string, body: unknown): Promise<FilterJson> {
    return this.store.transaction(async (tx) => {
      const existing = await findFilter(tx, zone.id, id);
      const object = BodyObject.read(body, rootPlace(CODES.invalidFilter), 'the request body');
      if (object.has('id') && object.get('id') !== id) {
        object.fail('id', `id must be the filter id of the path (${id}) or be left out`);
      }
      const filter = await replacement(existing, object, zone.plan, new ExpressionClaims(tx, zone.id), now());
      await tx.filters.update(filter);
      return filterJson(filter);
    });
  }

  async delete(zone: ZoneRecord, id: string): Promise<{ id: string }> {
    return this.store.transaction(async (tx) => {
      const filter = await findFilter(tx, zone.id, id);
      await refuseDeletion(tx, filter);
      await tx.filters.delete(zone.id, [filter.id]);
      return { id: filter.id };
    });
  }
}

/** In the Filters API, a duplicate has Cloudflare's code of its own (10102), not the invalid-filter one. */
const duplicatePlace = (place: Place): Place => ({
  ...childPlace(place, 'expression'),
  code: CODES.duplicateFilter,
});

/** The filter as the PUT body describes it (PUT semantics: omitted fields are reset). */
async function replacement(
  existing: FilterRecord,
  object: BodyObject,
  plan: Plan,
  claims: ExpressionClaims,
  time: string,
): Promise<FilterRecord> {
  refuseIfCreatedWithRule(existing, 'replaced', object.place.pointer || undefined);
  const fields = readFilterFields(object, plan);
  await claims.claim(fields.expression, existing.id, duplicatePlace(object.place));
  return { ...existing, ...fields, modifiedOn: time };
}

/** A filter stays while a rule uses it: deleting it would leave the rule without a filter. */
async function refuseDeletion(tx: StoreTransaction, filter: FilterRecord): Promise<void> {
  refuseIfCreatedWithRule(filter, 'deleted');
  const users = await tx.firewallRules.countUsing(filter.zoneId, filter.id);
  if (users > 0) {
    const rules = users === 1 ? '1 firewall rule' : `${users} firewall rules`;
    const message = `filter ${filter.id} is used by ${rules}: delete them or give them another filter first`;
    throw new ServiceError('bad-request', at(CODES.filterInUse, message));
  }
}
