// What the service tests share: a store with one zone and the services over it, a snapshot of the zone,
// and the ServiceError a call throws.
import type { Plan } from '../../src/scheme/profile.js';
import { ServiceError } from '../../src/service/errors.js';
import { FilterService } from '../../src/service/filters.js';
import { FirewallRuleService } from '../../src/service/firewall-rules.js';
import { newId, now } from '../../src/service/ids.js';
import { openSqliteStore } from '../../src/store/sqlite.js';
import type { Store, ZoneRecord } from '../../src/store/store.js';

/** A fresh in-memory store with one zone on `plan`, and the services over it. */
export async function setup(plan: Plan = 'business') {
  const store = openSqliteStore(':memory:');
  const time = now();
  const zone: ZoneRecord = {
    id: newId(),
    name: 'example.com',
    plan,
    accountId: newId(),
    paused: false,
    createdOn: time,
    modifiedOn: time,
  };
  await store.transaction(async (tx) => {
    await tx.accounts.put({
      id: zone.accountId,
      name: 'test',
      email: 'test@example.com',
      apiKeyHash: null,
      createdOn: time,
    });
    await tx.zones.insert(zone);
  });
  const filters = new FilterService(store);
  const rules = new FirewallRuleService(store);
  /** A new filter of the zone; its id. */
  const filter = async (expression: string): Promise<string> =>
    ((await filters.create(zone, [{ expression }]))[0] as { id: string }).id;
  return { store, zone, filters, rules, filter };
}

/** Everything stored for the zone, to check that a failed call left it as it was. */
export const snapshot = (store: Store, zoneId: string) =>
  store.transaction(async (tx) => ({
    filters: (await tx.filters.list(zoneId, {}, { page: 1, perPage: 10_000 })).items,
    rules: (await tx.firewallRules.list(zoneId, {}, { page: 1, perPage: 10_000 })).items.map(
      ({ rule }) => rule,
    ),
  }));

/**
 * The ServiceError `run` throws or its promise rejects with; fails the test when it fails with nothing or
 * something else.
 */
export async function failure(run: () => unknown): Promise<ServiceError> {
  try {
    await run();
  } catch (error) {
    if (error instanceof ServiceError) return error;
    throw error;
  }
  throw new Error('expected a ServiceError');
}
