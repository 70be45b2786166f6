import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type {
  AccountRecord,
  FilterRecord,
  FirewallRuleRecord,
  Store,
  StoreTransaction,
  TokenRecord,
  ZoneRecord,
} from '../../src/store/store.js';

/** What each database says when a unique or a foreign key constraint is violated. */
const UNIQUE = /UNIQUE|unique constraint/;
const FOREIGN_KEY = /FOREIGN KEY|foreign key constraint/;

// ——— records ———

let counter = 0;
/** Ids that do not sort in creation order, so that creation order is not id order by chance. */
const newTestId = (): string => {
  counter += 1;
  return `${(counter * 7919) % 65_536}`.padStart(8, '0').repeat(4);
};

export const T0 = '2024-01-02T03:04:05.678Z';
export const T1 = '2024-02-03T04:05:06.789Z';

export const account = (over: Partial<AccountRecord> = {}): AccountRecord => ({
  id: newTestId(),
  name: 'Ada',
  email: `ada${counter}@example.com`,
  apiKeyHash: null,
  createdOn: T0,
  ...over,
});

export const token = (accountId: string, over: Partial<TokenRecord> = {}): TokenRecord => ({
  id: newTestId(),
  accountId,
  tokenHash: `hash-${counter}`,
  zones: ['*'],
  permissions: ['read'],
  createdOn: T0,
  ...over,
});

export const zone = (accountId: string, over: Partial<ZoneRecord> = {}): ZoneRecord => ({
  id: newTestId(),
  name: `zone${counter}.example`,
  plan: 'free',
  accountId,
  paused: false,
  createdOn: T0,
  modifiedOn: T0,
  ...over,
});

export const filter = (zoneId: string, over: Partial<FilterRecord> = {}): FilterRecord => ({
  id: newTestId(),
  zoneId,
  expression: `ip.src eq 10.0.0.${counter % 256}`,
  description: '',
  paused: false,
  ref: null,
  createdWithRule: null,
  createdOn: T0,
  modifiedOn: T0,
  ...over,
});

export const rule = (
  zoneId: string,
  filterId: string,
  over: Partial<FirewallRuleRecord> = {},
): FirewallRuleRecord => ({
  id: newTestId(),
  zoneId,
  filterId,
  action: 'block',
  priority: null,
  paused: false,
  description: '',
  ref: null,
  products: [],
  createdOn: T0,
  modifiedOn: T0,
  ...over,
});

export const all = { page: 1, perPage: 1000 };
export const ids = (page: { items: { id: string }[] }) => page.items.map((item) => item.id);

/**
 * What every Store must do, whatever its database: run by ./sqlite.test.ts and ./postgres.test.ts. `open`
 * gives a new, empty store for each test.
 */
export function storeContract(name: string, open: () => Promise<Store>, ranOn?: string): void {
  describe(name, () => {
    let store: Store;
    let run: <T>(work: (tx: StoreTransaction) => Promise<T>) => Promise<T>;
    beforeEach(async () => {
      store = await open();
      run = (work) => store.transaction(work);
    });
    afterEach(() => store.close());

    /** An account with one zone, the usual parent of filters and rules. */
    const zoneFixture = () =>
      run(async (tx) => {
        const a = account();
        await tx.accounts.put(a);
        const z = zone(a.id);
        await tx.zones.insert(z);
        return z;
      });

    describe('round-trips', () => {
      it('accounts, by id, email and API key hash; put replaces by id', async () => {
        const plain = account();
        const keyed = account({ apiKeyHash: 'a'.repeat(64) });
        await run(async (tx) => {
          await tx.accounts.put(plain);
          await tx.accounts.put(keyed);
        });
        await run(async (tx) => {
          expect(await tx.accounts.get(plain.id)).toEqual(plain);
          expect(await tx.accounts.getByEmail(keyed.email)).toEqual(keyed);
          expect(await tx.accounts.getByApiKeyHash('a'.repeat(64))).toEqual(keyed);
          expect(await tx.accounts.get('f'.repeat(32))).toBeUndefined();
          expect(await tx.accounts.getByEmail('nobody@example.com')).toBeUndefined();
          expect(await tx.accounts.count()).toBe(2);
        });
        const renamed = { ...plain, name: 'Grace', email: 'grace@example.com', apiKeyHash: 'b'.repeat(64) };
        await run(async (tx) => tx.accounts.put(renamed));
        await run(async (tx) => {
          expect(await tx.accounts.get(plain.id)).toEqual(renamed);
          expect(await tx.accounts.getByEmail(plain.email)).toBeUndefined();
          expect(await tx.accounts.count()).toBe(2);
        });
      });

      it('refuses a second account with the same email or API key hash', async () => {
        const first = account({ apiKeyHash: 'c'.repeat(64) });
        await run(async (tx) => tx.accounts.put(first));
        await expect(run(async (tx) => tx.accounts.put(account({ email: first.email })))).rejects.toThrow(
          UNIQUE,
        );
        await expect(
          run(async (tx) => tx.accounts.put(account({ apiKeyHash: first.apiKeyHash }))),
        ).rejects.toThrow(UNIQUE);
      });

      it('tokens, with their zone and permission arrays; put replaces by id', async () => {
        const z = await zoneFixture();
        const t = token(z.accountId, { zones: [z.id, 'other.example'], permissions: ['read', 'edit'] });
        await run(async (tx) => tx.tokens.put(t));
        expect(await run(async (tx) => tx.tokens.getByHash(t.tokenHash))).toEqual(t);
        const narrowed = { ...t, zones: [], permissions: [] };
        await run(async (tx) => tx.tokens.put(narrowed));
        expect(await run(async (tx) => tx.tokens.getByHash(t.tokenHash))).toEqual(narrowed);
        expect(await run(async (tx) => tx.tokens.getByHash('unknown'))).toBeUndefined();
      });

      it('zones, by id and name; update writes every field', async () => {
        const z = await zoneFixture();
        expect(await run(async (tx) => tx.zones.get(z.id))).toEqual(z);
        expect(await run(async (tx) => tx.zones.getByName(z.accountId, z.name))).toEqual(z);
        const changed: ZoneRecord = {
          ...z,
          name: 'renamed.example',
          plan: 'enterprise',
          paused: true,
          modifiedOn: T1,
        };
        await run(async (tx) => tx.zones.update(changed));
        expect(await run(async (tx) => tx.zones.get(z.id))).toEqual(changed);
        expect(await run(async (tx) => tx.zones.getByName(z.accountId, z.name))).toBeUndefined();
      });

      it('zones: a name is unique within an account, and may be used by another account', async () => {
        const z = await zoneFixture();
        const b = account();
        await run(async (tx) => tx.accounts.put(b));
        const twin: ZoneRecord = { ...zone(b.id), name: z.name };
        await run(async (tx) => tx.zones.insert(twin));
        expect(await run(async (tx) => tx.zones.getByName(b.id, z.name))).toEqual(twin);
        expect(await run(async (tx) => tx.zones.getByName(z.accountId, z.name))).toEqual(z);
        await expect(
          run(async (tx) => tx.zones.insert({ ...zone(z.accountId), name: z.name })),
        ).rejects.toThrow(UNIQUE);
      });

      it('filters, with null and non-null ref and createdWithRule', async () => {
        const z = await zoneFixture();
        const bare = filter(z.id);
        const full = filter(z.id, {
          description: 'Block bots',
          paused: true,
          ref: 'FIL-1',
          createdWithRule: 'e'.repeat(32),
          modifiedOn: T1,
        });
        await run(async (tx) => {
          await tx.filters.insert(bare);
          await tx.filters.insert(full);
        });
        await run(async (tx) => {
          expect(await tx.filters.get(z.id, bare.id)).toEqual(bare);
          expect(await tx.filters.get(z.id, full.id)).toEqual(full);
          expect(await tx.filters.getByExpression(z.id, full.expression)).toEqual(full);
          expect(await tx.filters.getByExpression(z.id, full.expression.toUpperCase())).toBeUndefined();
          expect(await tx.filters.count(z.id)).toBe(2);
        });
        const changed = { ...bare, expression: 'http.host eq "a"', paused: true, ref: 'R', modifiedOn: T1 };
        await run(async (tx) => tx.filters.update(changed));
        expect(await run(async (tx) => tx.filters.get(z.id, bare.id))).toEqual(changed);
      });

      it('firewall rules, with null and non-null priority and ref, and products', async () => {
        const z = await zoneFixture();
        const f = filter(z.id);
        const bare = rule(z.id, f.id);
        const full = rule(z.id, f.id, {
          action: 'bypass',
          priority: 42,
          paused: true,
          description: 'Let the monitor through',
          ref: 'RULE-7',
          products: ['zoneLockdown', 'uaBlock'],
        });
        await run(async (tx) => {
          await tx.filters.insert(f);
          await tx.firewallRules.insert(bare);
          await tx.firewallRules.insert(full);
        });
        await run(async (tx) => {
          expect(await tx.firewallRules.get(z.id, bare.id)).toEqual(bare);
          expect(await tx.firewallRules.get(z.id, full.id)).toEqual(full);
          expect(await tx.firewallRules.count(z.id)).toBe(2);
          expect(await tx.firewallRules.countUsing(z.id, f.id)).toBe(2);
          expect(await tx.firewallRules.countUsing(z.id, 'f'.repeat(32))).toBe(0);
        });
        const changed: FirewallRuleRecord = {
          ...full,
          action: 'log',
          priority: null,
          products: [],
          modifiedOn: T1,
        };
        await run(async (tx) => tx.firewallRules.update(changed));
        expect(await run(async (tx) => tx.firewallRules.get(z.id, full.id))).toEqual(changed);
      });

      it('firewall rules with their own filters, in one list or by id', async () => {
        const z = await zoneFixture();
        const other = await zoneFixture();
        const [f1, f2] = [filter(z.id, { ref: 'one' }), filter(z.id, { paused: true })];
        const r1 = rule(z.id, f2.id, { description: 'first' });
        const r2 = rule(z.id, f1.id, { ref: 'second', products: ['waf'], action: 'bypass' });
        const r3 = rule(z.id, f2.id);
        await run(async (tx) => {
          for (const f of [f1, f2]) await tx.filters.insert(f);
          for (const r of [r1, r2, r3]) await tx.firewallRules.insert(r);
        });
        await run(async (tx) => {
          expect(await tx.firewallRules.list(z.id, {}, { page: 1, perPage: 2 })).toEqual({
            items: [
              { rule: r1, filter: f2 },
              { rule: r2, filter: f1 },
            ],
            totalCount: 3,
          });
          expect((await tx.firewallRules.list(z.id, { description: 'FIRST' }, all)).items).toEqual([
            { rule: r1, filter: f2 },
          ]);
          expect(await tx.firewallRules.getWithFilter(z.id, r3.id)).toEqual({ rule: r3, filter: f2 });
          expect(await tx.firewallRules.getWithFilter(other.id, r3.id)).toBeUndefined();
          expect(await tx.firewallRules.getWithFilter(z.id, 'f'.repeat(32))).toBeUndefined();
        });
      });

      it('refuses to update a record that is not there, or to move it to another zone', async () => {
        const z = await zoneFixture();
        const other = await zoneFixture();
        const f = filter(z.id);
        await run(async (tx) => tx.filters.insert(f));
        await expect(run(async (tx) => tx.zones.update(zone(z.accountId)))).rejects.toThrow(/no such record/);
        await expect(run(async (tx) => tx.filters.update({ ...f, zoneId: other.id }))).rejects.toThrow(
          /no such record/,
        );
        await expect(run(async (tx) => tx.firewallRules.update(rule(z.id, f.id)))).rejects.toThrow(
          /no such record/,
        );
      });

      it('looks records up in their own zone only', async () => {
        const z = await zoneFixture();
        const other = await zoneFixture();
        const f = filter(z.id);
        const r = rule(z.id, f.id);
        await run(async (tx) => {
          await tx.filters.insert(f);
          await tx.firewallRules.insert(r);
        });
        await run(async (tx) => {
          expect(await tx.filters.get(other.id, f.id)).toBeUndefined();
          expect(await tx.filters.getByExpression(other.id, f.expression)).toBeUndefined();
          expect(await tx.firewallRules.get(other.id, r.id)).toBeUndefined();
          expect(await tx.firewallRules.countUsing(other.id, f.id)).toBe(0);
        });
      });
    });

    describe('lists', () => {
      it('zones by account, ids or names, exact name, and combined', async () => {
        const [a, b] = [account(), account()];
        const [z1, z2, z3] = [zone(a.id), zone(a.id), zone(b.id)];
        await run(async (tx) => {
          await tx.accounts.put(a);
          await tx.accounts.put(b);
          for (const z of [z1, z2, z3]) await tx.zones.insert(z);
        });
        const list = (query: Parameters<StoreTransaction['zones']['list']>[0]) =>
          run((tx) => tx.zones.list(query, all));
        expect(ids(await list({}))).toEqual([z1.id, z2.id, z3.id]);
        expect(ids(await list({ accountIds: [a.id] }))).toEqual([z1.id, z2.id]);
        expect(ids(await list({ accountIds: [a.id, b.id] }))).toEqual([z1.id, z2.id, z3.id]);
        expect(await list({ accountIds: [] })).toEqual({ items: [], totalCount: 0 });
        expect(ids(await list({ idsOrNames: [z3.name, z1.id] }))).toEqual([z1.id, z3.id]);
        expect(await list({ idsOrNames: [] })).toEqual({ items: [], totalCount: 0 });
        expect(ids(await list({ name: z2.name }))).toEqual([z2.id]);
        expect(ids(await list({ name: z2.name.toUpperCase() }))).toEqual([]);
        expect(ids(await list({ accountIds: [a.id], idsOrNames: [z1.name, z3.name] }))).toEqual([z1.id]);
        expect(ids(await list({ accountIds: [b.id], name: z1.name }))).toEqual([]);
        expect((await list({ accountIds: [a.id] })).items[0]).toEqual(z1);
      });

      it('filters by id, expression and description substrings (case-insensitive), ref, paused, combined', async () => {
        const z = await zoneFixture();
        const f1 = filter(z.id, { expression: 'http.host eq "Shop.example"', description: 'Shop', ref: 'A' });
        const f2 = filter(z.id, {
          expression: 'ip.src in {10.0.0.0/8}',
          description: 'Office 100%',
          paused: true,
        });
        const f3 = filter(z.id, {
          expression: 'http.host eq "blog.example"',
          description: 'shop_blog',
          ref: 'A',
        });
        await run(async (tx) => {
          for (const f of [f1, f2, f3]) await tx.filters.insert(f);
        });
        const list = async (query: Parameters<StoreTransaction['filters']['list']>[1]) =>
          ids(await run((tx) => tx.filters.list(z.id, query, all)));
        expect(await list({})).toEqual([f1.id, f2.id, f3.id]);
        expect(await list({ id: f2.id })).toEqual([f2.id]);
        expect(await list({ expression: 'HTTP.HOST' })).toEqual([f1.id, f3.id]);
        expect(await list({ expression: 'shop.EXAMPLE' })).toEqual([f1.id]);
        expect(await list({ description: 'SHOP' })).toEqual([f1.id, f3.id]);
        // LIKE wildcards are plain characters.
        expect(await list({ description: '%' })).toEqual([f2.id]);
        expect(await list({ description: 'p_b' })).toEqual([f3.id]);
        expect(await list({ description: 'S%p' })).toEqual([]);
        expect(await list({ ref: 'A' })).toEqual([f1.id, f3.id]);
        expect(await list({ ref: 'a' })).toEqual([]);
        expect(await list({ paused: true })).toEqual([f2.id]);
        expect(await list({ paused: false })).toEqual([f1.id, f3.id]);
        expect(await list({ ref: 'A', description: 'blog', paused: false })).toEqual([f3.id]);
        expect(await list({ id: f1.id, paused: true })).toEqual([]);
        const empty = await zoneFixture();
        expect(await run(async (tx) => tx.filters.list(empty.id, {}, all))).toEqual({
          items: [],
          totalCount: 0,
        });
      });

      it('firewall rules by id, action, description substring, paused, combined', async () => {
        const z = await zoneFixture();
        const f = filter(z.id);
        const r1 = rule(z.id, f.id, { action: 'block', description: 'Block the Bad' });
        const r2 = rule(z.id, f.id, { action: 'allow', description: 'allow good', paused: true });
        const r3 = rule(z.id, f.id, { action: 'block', description: 'bad bots', paused: true });
        await run(async (tx) => {
          await tx.filters.insert(f);
          for (const r of [r1, r2, r3]) await tx.firewallRules.insert(r);
        });
        const list = async (query: Parameters<StoreTransaction['firewallRules']['list']>[1]) =>
          (await run((tx) => tx.firewallRules.list(z.id, query, all))).items.map(({ rule }) => rule.id);
        expect(await list({})).toEqual([r1.id, r2.id, r3.id]);
        expect(await list({ id: r3.id })).toEqual([r3.id]);
        expect(await list({ action: 'block' })).toEqual([r1.id, r3.id]);
        expect(await list({ action: 'BLOCK' })).toEqual([]);
        expect(await list({ description: 'BAD' })).toEqual([r1.id, r3.id]);
        expect(await list({ paused: true })).toEqual([r2.id, r3.id]);
        expect(await list({ paused: false })).toEqual([r1.id]);
        expect(await list({ action: 'block', paused: true, description: 'bots' })).toEqual([r3.id]);
        expect(await list({ action: 'allow', description: 'bad' })).toEqual([]);
      });

      it('paginates with the total over all pages, also past the last page', async () => {
        const z = await zoneFixture();
        const filters = Array.from({ length: 5 }, (_, i) => filter(z.id, { paused: i % 2 === 0 }));
        await run(async (tx) => {
          for (const f of filters) await tx.filters.insert(f);
        });
        const page = (page: number, perPage: number, paused?: boolean) =>
          run((tx) => tx.filters.list(z.id, { paused }, { page, perPage }));
        const expected = filters.map((f) => f.id);
        expect(await page(1, 2)).toEqual({ items: filters.slice(0, 2), totalCount: 5 });
        expect(ids(await page(2, 2))).toEqual(expected.slice(2, 4));
        expect(ids(await page(3, 2))).toEqual(expected.slice(4));
        expect(await page(4, 2)).toEqual({ items: [], totalCount: 5 });
        expect(await page(100, 2)).toEqual({ items: [], totalCount: 5 });
        expect(ids(await page(1, 5))).toEqual(expected);
        expect(ids(await page(1, 50))).toEqual(expected);
        expect(await page(2, 5)).toEqual({ items: [], totalCount: 5 });
        expect(ids(await page(5, 1))).toEqual([expected[4]]);
        // The total counts what the query matches, not the whole table.
        expect(await page(1, 2, true)).toEqual({ items: [filters[0], filters[2]], totalCount: 3 });
        expect(await page(2, 2, true)).toEqual({ items: [filters[4]], totalCount: 3 });
        expect(await page(2, 2, false)).toEqual({ items: [], totalCount: 2 });
        await expect(page(0, 2)).rejects.toThrow(RangeError);
        await expect(page(1, 0)).rejects.toThrow(RangeError);
        await expect(page(1.5, 2)).rejects.toThrow(RangeError);
      });

      it('keeps creation order, whatever the ids and updates', async () => {
        const z = await zoneFixture();
        const filters = ['c', 'a', 'e', 'b', 'd'].map((letter) => filter(z.id, { id: letter.repeat(32) }));
        await run(async (tx) => {
          for (const f of filters) await tx.filters.insert(f);
        });
        await run(async (tx) => tx.filters.update({ ...filters[0], description: 'changed', modifiedOn: T1 }));
        await run(async (tx) => tx.filters.delete(z.id, [filters[4].id]));
        const later = filter(z.id, { id: '0'.repeat(32) });
        await run(async (tx) => tx.filters.insert(later));
        expect(ids(await run((tx) => tx.filters.list(z.id, {}, all)))).toEqual([
          ...filters.slice(0, 4).map((f) => f.id),
          later.id,
        ]);
      });
    });

    describe('deletes', () => {
      it('return only the ids that existed, once, in request order', async () => {
        const z = await zoneFixture();
        const [f1, f2] = [filter(z.id), filter(z.id)];
        const [r1, r2] = [rule(z.id, f1.id), rule(z.id, f1.id)];
        await run(async (tx) => {
          await tx.filters.insert(f1);
          await tx.filters.insert(f2);
          await tx.firewallRules.insert(r1);
          await tx.firewallRules.insert(r2);
        });
        const missing = 'f'.repeat(32);
        expect(
          await run(async (tx) => tx.firewallRules.delete(z.id, [r2.id, missing, r1.id, r2.id])),
        ).toEqual([r2.id, r1.id]);
        expect(await run(async (tx) => tx.firewallRules.count(z.id))).toBe(0);
        // Another zone's filter is not this zone's to delete.
        const other = await zoneFixture();
        expect(await run(async (tx) => tx.filters.delete(other.id, [f1.id]))).toEqual([]);
        expect(await run(async (tx) => tx.filters.delete(z.id, [missing, f2.id, f1.id]))).toEqual([
          f2.id,
          f1.id,
        ]);
        expect(await run(async (tx) => tx.filters.delete(z.id, []))).toEqual([]);
        expect(await run(async (tx) => tx.filters.count(z.id))).toBe(0);
      });

      it('of a zone takes its filters and rules with it, and nothing of other zones', async () => {
        const z = await zoneFixture();
        const other = await zoneFixture();
        const [f, otherFilter] = [filter(z.id), filter(other.id)];
        const [r, otherRule] = [rule(z.id, f.id), rule(other.id, otherFilter.id)];
        await run(async (tx) => {
          await tx.filters.insert(f);
          await tx.filters.insert(otherFilter);
          await tx.firewallRules.insert(r);
          await tx.firewallRules.insert(otherRule);
        });
        expect(await run(async (tx) => tx.zones.delete(z.id))).toBe(true);
        expect(await run(async (tx) => tx.zones.delete(z.id))).toBe(false);
        await run(async (tx) => {
          expect(await tx.zones.get(z.id)).toBeUndefined();
          expect(await tx.filters.get(z.id, f.id)).toBeUndefined();
          expect(await tx.firewallRules.get(z.id, r.id)).toBeUndefined();
          expect(await tx.filters.count(z.id)).toBe(0);
          expect(await tx.firewallRules.count(z.id)).toBe(0);
          expect(await tx.filters.get(other.id, otherFilter.id)).toEqual(otherFilter);
          expect(await tx.firewallRules.get(other.id, otherRule.id)).toEqual(otherRule);
        });
      });
    });

    describe('counts', () => {
      it("follow a zone's filters and rules through inserts, refused inserts, deletes and rollbacks", async () => {
        const z = await zoneFixture();
        const other = await zoneFixture();
        const counts = (zoneId: string) =>
          run(async (tx) => [await tx.filters.count(zoneId), await tx.firewallRules.count(zoneId)]);
        expect(await counts(z.id)).toEqual([0, 0]);
        const filters = Array.from({ length: 5 }, () => filter(z.id));
        const rules = filters.slice(0, 2).map((f) => rule(z.id, f.id));
        await run(async (tx) => {
          for (const f of filters) await tx.filters.insert(f);
          await tx.filters.insert(filter(other.id));
          for (const r of rules) await tx.firewallRules.insert(r);
          // A duplicate expression writes nothing, and counts nothing.
          expect(
            await tx.filters.insertUnlessDuplicate({
              ...filter(z.id),
              expression: filters[2]?.expression as string,
            }),
          ).toBe(false);
        });
        expect(await counts(z.id)).toEqual([5, 2]);
        expect(await counts(other.id)).toEqual([1, 0]);
        // A refused insert (a filter id the zone has) and a rolled-back transaction leave the counts alone.
        await expect(run((tx) => tx.filters.insert(filters[3] as FilterRecord))).rejects.toThrow(UNIQUE);
        await expect(
          run(async (tx) => {
            await tx.filters.insert(filter(z.id));
            await tx.filters.delete(z.id, [(filters[4] as FilterRecord).id]);
            throw new Error('rolled back');
          }),
        ).rejects.toThrow('rolled back');
        expect(await counts(z.id)).toEqual([5, 2]);
        await run(async (tx) => {
          await tx.filters.delete(z.id, [(filters[4] as FilterRecord).id, 'no-such-filter']);
          await tx.firewallRules.delete(z.id, [(rules[0] as FirewallRuleRecord).id]);
        });
        expect(await counts(z.id)).toEqual([4, 1]);
        // A zone's deletion takes its counts with it; a zone made again with its id starts from nothing.
        await run((tx) => tx.zones.delete(z.id));
        expect(await counts(z.id)).toEqual([0, 0]);
        await run((tx) => tx.zones.insert(z));
        expect(await counts(z.id)).toEqual([0, 0]);
        expect(await counts(other.id)).toEqual([1, 0]);
      });
    });

    describe('constraints', () => {
      it('one filter per expression in a zone; the same expression in another zone is fine', async () => {
        const z = await zoneFixture();
        const other = await zoneFixture();
        const f = filter(z.id, { expression: 'http.host eq "x"' });
        await run(async (tx) => tx.filters.insert(f));
        await expect(
          run(async (tx) => tx.filters.insert(filter(z.id, { expression: f.expression }))),
        ).rejects.toThrow(UNIQUE);
        await run(async (tx) => tx.filters.insert(filter(other.id, { expression: f.expression })));
        expect(await run(async (tx) => tx.filters.count(other.id))).toBe(1);
        // Expressions are compared exactly.
        await run(async (tx) => tx.filters.insert(filter(z.id, { expression: 'HTTP.HOST eq "x"' })));
        expect(await run(async (tx) => tx.filters.count(z.id))).toBe(2);
      });

      it('insertUnlessDuplicate writes nothing and says so when the zone has the expression', async () => {
        const z = await zoneFixture();
        const other = await zoneFixture();
        const f = filter(z.id, { expression: 'http.host eq "x"' });
        expect(await run(async (tx) => tx.filters.insertUnlessDuplicate(f))).toBe(true);
        expect(await run(async (tx) => tx.filters.get(z.id, f.id))).toEqual(f);
        const twin = filter(z.id, { expression: f.expression });
        expect(await run(async (tx) => tx.filters.insertUnlessDuplicate(twin))).toBe(false);
        expect(await run(async (tx) => tx.filters.get(z.id, twin.id))).toBeUndefined();
        // Written earlier in the same transaction counts too.
        const [first, second] = [filter(z.id, { expression: 'http.host eq "y"' }), filter(z.id)];
        await run(async (tx) => {
          expect(await tx.filters.insertUnlessDuplicate(first)).toBe(true);
          expect(await tx.filters.insertUnlessDuplicate({ ...second, expression: first.expression })).toBe(
            false,
          );
        });
        expect(await run(async (tx) => tx.filters.count(z.id))).toBe(2);
        expect(
          await run(async (tx) =>
            tx.filters.insertUnlessDuplicate(filter(other.id, { expression: f.expression })),
          ),
        ).toBe(true);
        // Other constraints still throw: an id already in the zone, a zone that does not exist.
        await expect(
          run(async (tx) => tx.filters.insertUnlessDuplicate({ ...f, expression: 'http.host eq "z"' })),
        ).rejects.toThrow(UNIQUE);
        await expect(
          run(async (tx) => tx.filters.insertUnlessDuplicate(filter('f'.repeat(32)))),
        ).rejects.toThrow(FOREIGN_KEY);
      });

      it('a rule uses a filter of its own zone, and a filter in use cannot be deleted', async () => {
        const z = await zoneFixture();
        const other = await zoneFixture();
        const f = filter(z.id);
        await run(async (tx) => tx.filters.insert(f));
        await expect(run(async (tx) => tx.firewallRules.insert(rule(other.id, f.id)))).rejects.toThrow(
          FOREIGN_KEY,
        );
        await expect(run(async (tx) => tx.firewallRules.insert(rule(z.id, 'f'.repeat(32))))).rejects.toThrow(
          FOREIGN_KEY,
        );
        await run(async (tx) => tx.firewallRules.insert(rule(z.id, f.id)));
        await expect(run(async (tx) => tx.filters.delete(z.id, [f.id]))).rejects.toThrow(FOREIGN_KEY);
        expect(await run(async (tx) => tx.filters.get(z.id, f.id))).toEqual(f);
      });

      it('zones and tokens belong to existing accounts', async () => {
        const missing = 'f'.repeat(32);
        await expect(run(async (tx) => tx.zones.insert(zone(missing)))).rejects.toThrow(FOREIGN_KEY);
        await expect(run(async (tx) => tx.tokens.put(token(missing)))).rejects.toThrow(FOREIGN_KEY);
      });
    });

    describe('transactions', () => {
      it('return what the work returns', async ({ task }) => {
        if (ranOn !== undefined) task.meta.ranOn = ranOn;
        expect(await run(async () => 42)).toBe(42);
      });

      it('roll back everything when the work throws, and rethrow the error', async () => {
        const z = await zoneFixture();
        const boom = new Error('boom');
        const f = filter(z.id);
        const a = account();
        await expect(
          run(async (tx) => {
            await tx.accounts.put(a);
            await tx.filters.insert(f);
            await tx.zones.update({ ...z, paused: true });
            await tx.zones.delete(z.id);
            throw boom;
          }),
        ).rejects.toThrow(boom);
        await run(async (tx) => {
          expect(await tx.accounts.get(a.id)).toBeUndefined();
          expect(await tx.filters.count(z.id)).toBe(0);
          expect(await tx.zones.get(z.id)).toEqual(z);
        });
      });

      it('roll back the earlier writes when a later one violates a constraint', async () => {
        const z = await zoneFixture();
        const f = filter(z.id);
        await expect(
          run(async (tx) => {
            await tx.filters.insert(f);
            await tx.filters.insert(filter(z.id, { expression: f.expression }));
          }),
        ).rejects.toThrow(UNIQUE);
        expect(await run(async (tx) => tx.filters.count(z.id))).toBe(0);
      });

      it('run one after another when started together, each seeing the writes of those before', async () => {
        const z = await zoneFixture();
        // Each reads the count, yields, then writes: interleaved, two would read the same count.
        const counts = await Promise.all(
          Array.from({ length: 5 }, () =>
            run(async (tx) => {
              const count = await tx.filters.count(z.id);
              await new Promise((resolve) => setTimeout(resolve, 1));
              await tx.filters.insert(filter(z.id));
              return count;
            }),
          ),
        );
        expect([...counts].sort()).toEqual([0, 1, 2, 3, 4]);
      });

      it('refuse table calls on a transaction object used after its transaction', async () => {
        const leaked = await run(async (tx) => tx);
        await expect(leaked.accounts.count()).rejects.toThrow(/inside the work of store.transaction/);
        await expect(leaked.accounts.put(account())).rejects.toThrow(/inside the work of store.transaction/);
      });
    });

    describe('generations', () => {
      it('move on with every write to a table (cascades included), and only then', async () => {
        const z = await zoneFixture();
        const generations = () => ({
          credentials: store.generation(['accounts', 'tokens']),
          zones: store.generation(['zones']),
          filters: store.generation(['filters']),
          rules: store.generation(['firewallRules']),
        });
        const before = generations();
        await run(async (tx) => [
          await tx.zones.get(z.id),
          await tx.filters.list(z.id, {}, all),
          await tx.tokens.getByHash('x'),
        ]);
        expect(generations()).toEqual(before);

        const f = filter(z.id);
        await run(async (tx) => tx.filters.insert(f));
        const afterFilter = generations();
        expect(afterFilter).toMatchObject({ credentials: before.credentials, zones: before.zones });
        expect(afterFilter.filters).not.toBe(before.filters);
        expect(afterFilter.rules).toBe(before.rules);

        await run(async (tx) => tx.tokens.put(token(z.accountId)));
        expect(generations().credentials).not.toBe(before.credentials);

        // Deleting the zone deletes its filters and rules too.
        const beforeDelete = generations();
        await run(async (tx) => tx.zones.delete(z.id));
        const afterDelete = generations();
        for (const table of ['zones', 'filters', 'rules'] as const) {
          expect(afterDelete[table]).not.toBe(beforeDelete[table]);
        }
        expect(afterDelete.credentials).toBe(beforeDelete.credentials);
      });

      it('move on when a transaction that wrote rolls back, after anything read inside it', async () => {
        const z = await zoneFixture();
        let inside = 0;
        await expect(
          run(async (tx) => {
            await tx.filters.insert(filter(z.id));
            // What a cache would record here holds the insert that the rollback undoes.
            inside = store.generation(['filters']);
            throw new Error('rolled back');
          }),
        ).rejects.toThrow('rolled back');
        expect(store.generation(['filters'])).not.toBe(inside);
      });
    });

    describe('close', () => {
      it('makes later calls throw, and is harmless twice', async () => {
        const leaked = await run(async (tx) => tx);
        await Promise.all([store.close(), store.close()]);
        await store.close();
        await expect(run(async () => 1)).rejects.toThrow(/the store is closed/);
        await expect(leaked.accounts.count()).rejects.toThrow(/the store is closed/);
      });

      it('waits for the transactions under way', async () => {
        const z = await zoneFixture();
        const writing = run(async (tx) => {
          await new Promise((resolve) => setTimeout(resolve, 20));
          await tx.filters.insert(filter(z.id));
          return 'written';
        });
        const closing = store.close();
        expect(await writing).toBe('written');
        await closing;
      });
    });
  });
}
