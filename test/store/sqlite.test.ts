import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrate, schemaVersion } from '../../src/store/migrations.js';
import { configure, openSqliteStore } from '../../src/store/sqlite.js';
import type {
  AccountRecord,
  FilterRecord,
  FirewallRuleRecord,
  Store,
  StoreTransaction,
  TokenRecord,
  ZoneRecord,
} from '../../src/store/store.js';

// ——— records ———

let counter = 0;
/** Ids that do not sort in creation order, so that creation order is not id order by chance. */
const newTestId = (): string => {
  counter += 1;
  return `${(counter * 7919) % 65_536}`.padStart(8, '0').repeat(4);
};

const T0 = '2024-01-02T03:04:05.678Z';
const T1 = '2024-02-03T04:05:06.789Z';

const account = (over: Partial<AccountRecord> = {}): AccountRecord => ({
  id: newTestId(),
  name: 'Ada',
  email: `ada${counter}@example.com`,
  apiKeyHash: null,
  createdOn: T0,
  ...over,
});

const token = (accountId: string, over: Partial<TokenRecord> = {}): TokenRecord => ({
  id: newTestId(),
  accountId,
  tokenHash: `hash-${counter}`,
  zones: ['*'],
  permissions: ['read'],
  createdOn: T0,
  ...over,
});

const zone = (accountId: string, over: Partial<ZoneRecord> = {}): ZoneRecord => ({
  id: newTestId(),
  name: `zone${counter}.example`,
  plan: 'free',
  accountId,
  paused: false,
  createdOn: T0,
  modifiedOn: T0,
  ...over,
});

const filter = (zoneId: string, over: Partial<FilterRecord> = {}): FilterRecord => ({
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

const rule = (
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

const all = { page: 1, perPage: 1000 };
const ids = (page: { items: { id: string }[] }) => page.items.map((item) => item.id);

// ——— in-memory store ———

describe('SQLite store', () => {
  let store: Store;
  let run: <T>(work: (tx: StoreTransaction) => T) => T;
  beforeEach(() => {
    store = openSqliteStore(':memory:');
    run = (work) => store.transaction(work);
  });
  afterEach(() => store.close());

  /** An account with one zone, the usual parent of filters and rules. */
  const zoneFixture = () =>
    run((tx) => {
      const a = account();
      tx.accounts.put(a);
      const z = zone(a.id);
      tx.zones.insert(z);
      return z;
    });

  describe('round-trips', () => {
    it('accounts, by id, email and API key hash; put replaces by id', () => {
      const plain = account();
      const keyed = account({ apiKeyHash: 'a'.repeat(64) });
      run((tx) => {
        tx.accounts.put(plain);
        tx.accounts.put(keyed);
      });
      run((tx) => {
        expect(tx.accounts.get(plain.id)).toEqual(plain);
        expect(tx.accounts.getByEmail(keyed.email)).toEqual(keyed);
        expect(tx.accounts.getByApiKeyHash('a'.repeat(64))).toEqual(keyed);
        expect(tx.accounts.get('f'.repeat(32))).toBeUndefined();
        expect(tx.accounts.getByEmail('nobody@example.com')).toBeUndefined();
        expect(tx.accounts.count()).toBe(2);
      });
      const renamed = { ...plain, name: 'Grace', email: 'grace@example.com', apiKeyHash: 'b'.repeat(64) };
      run((tx) => tx.accounts.put(renamed));
      run((tx) => {
        expect(tx.accounts.get(plain.id)).toEqual(renamed);
        expect(tx.accounts.getByEmail(plain.email)).toBeUndefined();
        expect(tx.accounts.count()).toBe(2);
      });
    });

    it('refuses a second account with the same email or API key hash', () => {
      const first = account({ apiKeyHash: 'c'.repeat(64) });
      run((tx) => tx.accounts.put(first));
      expect(() => run((tx) => tx.accounts.put(account({ email: first.email })))).toThrow(/UNIQUE/);
      expect(() => run((tx) => tx.accounts.put(account({ apiKeyHash: first.apiKeyHash })))).toThrow(/UNIQUE/);
    });

    it('tokens, with their zone and permission arrays; put replaces by id', () => {
      const z = zoneFixture();
      const t = token(z.accountId, { zones: [z.id, 'other.example'], permissions: ['read', 'edit'] });
      run((tx) => tx.tokens.put(t));
      expect(run((tx) => tx.tokens.getByHash(t.tokenHash))).toEqual(t);
      const narrowed = { ...t, zones: [], permissions: [] };
      run((tx) => tx.tokens.put(narrowed));
      expect(run((tx) => tx.tokens.getByHash(t.tokenHash))).toEqual(narrowed);
      expect(run((tx) => tx.tokens.getByHash('unknown'))).toBeUndefined();
    });

    it('zones, by id and name; update writes every field', () => {
      const z = zoneFixture();
      expect(run((tx) => tx.zones.get(z.id))).toEqual(z);
      expect(run((tx) => tx.zones.getByName(z.accountId, z.name))).toEqual(z);
      const changed: ZoneRecord = {
        ...z,
        name: 'renamed.example',
        plan: 'enterprise',
        paused: true,
        modifiedOn: T1,
      };
      run((tx) => tx.zones.update(changed));
      expect(run((tx) => tx.zones.get(z.id))).toEqual(changed);
      expect(run((tx) => tx.zones.getByName(z.accountId, z.name))).toBeUndefined();
    });

    it('zones: a name is unique within an account, and may be used by another account', () => {
      const z = zoneFixture();
      const b = account();
      run((tx) => tx.accounts.put(b));
      const twin: ZoneRecord = { ...zone(b.id), name: z.name };
      run((tx) => tx.zones.insert(twin));
      expect(run((tx) => tx.zones.getByName(b.id, z.name))).toEqual(twin);
      expect(run((tx) => tx.zones.getByName(z.accountId, z.name))).toEqual(z);
      expect(() => run((tx) => tx.zones.insert({ ...zone(z.accountId), name: z.name }))).toThrow(/UNIQUE/);
    });

    it('filters, with null and non-null ref and createdWithRule', () => {
      const z = zoneFixture();
      const bare = filter(z.id);
      const full = filter(z.id, {
        description: 'Block bots',
        paused: true,
        ref: 'FIL-1',
        createdWithRule: 'e'.repeat(32),
        modifiedOn: T1,
      });
      run((tx) => {
        tx.filters.insert(bare);
        tx.filters.insert(full);
      });
      run((tx) => {
        expect(tx.filters.get(z.id, bare.id)).toEqual(bare);
        expect(tx.filters.get(z.id, full.id)).toEqual(full);
        expect(tx.filters.getByExpression(z.id, full.expression)).toEqual(full);
        expect(tx.filters.getByExpression(z.id, full.expression.toUpperCase())).toBeUndefined();
        expect(tx.filters.count(z.id)).toBe(2);
      });
      const changed = { ...bare, expression: 'http.host eq "a"', paused: true, ref: 'R', modifiedOn: T1 };
      run((tx) => tx.filters.update(changed));
      expect(run((tx) => tx.filters.get(z.id, bare.id))).toEqual(changed);
    });

    it('firewall rules, with null and non-null priority and ref, and products', () => {
      const z = zoneFixture();
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
      run((tx) => {
        tx.filters.insert(f);
        tx.firewallRules.insert(bare);
        tx.firewallRules.insert(full);
      });
      run((tx) => {
        expect(tx.firewallRules.get(z.id, bare.id)).toEqual(bare);
        expect(tx.firewallRules.get(z.id, full.id)).toEqual(full);
        expect(tx.firewallRules.count(z.id)).toBe(2);
        expect(tx.firewallRules.countUsing(z.id, f.id)).toBe(2);
        expect(tx.firewallRules.countUsing(z.id, 'f'.repeat(32))).toBe(0);
      });
      const changed: FirewallRuleRecord = {
        ...full,
        action: 'log',
        priority: null,
        products: [],
        modifiedOn: T1,
      };
      run((tx) => tx.firewallRules.update(changed));
      expect(run((tx) => tx.firewallRules.get(z.id, full.id))).toEqual(changed);
    });

    it('firewall rules with their own filters, in one list or by id', () => {
      const z = zoneFixture();
      const other = zoneFixture();
      const [f1, f2] = [filter(z.id, { ref: 'one' }), filter(z.id, { paused: true })];
      const r1 = rule(z.id, f2.id, { description: 'first' });
      const r2 = rule(z.id, f1.id, { ref: 'second', products: ['waf'], action: 'bypass' });
      const r3 = rule(z.id, f2.id);
      run((tx) => {
        for (const f of [f1, f2]) tx.filters.insert(f);
        for (const r of [r1, r2, r3]) tx.firewallRules.insert(r);
      });
      run((tx) => {
        expect(tx.firewallRules.list(z.id, {}, { page: 1, perPage: 2 })).toEqual({
          items: [
            { rule: r1, filter: f2 },
            { rule: r2, filter: f1 },
          ],
          totalCount: 3,
        });
        expect(tx.firewallRules.list(z.id, { description: 'FIRST' }, all).items).toEqual([
          { rule: r1, filter: f2 },
        ]);
        expect(tx.firewallRules.getWithFilter(z.id, r3.id)).toEqual({ rule: r3, filter: f2 });
        expect(tx.firewallRules.getWithFilter(other.id, r3.id)).toBeUndefined();
        expect(tx.firewallRules.getWithFilter(z.id, 'f'.repeat(32))).toBeUndefined();
      });
    });

    it('refuses to update a record that is not there, or to move it to another zone', () => {
      const z = zoneFixture();
      const other = zoneFixture();
      const f = filter(z.id);
      run((tx) => tx.filters.insert(f));
      expect(() => run((tx) => tx.zones.update(zone(z.accountId)))).toThrow(/no such record/);
      expect(() => run((tx) => tx.filters.update({ ...f, zoneId: other.id }))).toThrow(/no such record/);
      expect(() => run((tx) => tx.firewallRules.update(rule(z.id, f.id)))).toThrow(/no such record/);
    });

    it('looks records up in their own zone only', () => {
      const z = zoneFixture();
      const other = zoneFixture();
      const f = filter(z.id);
      const r = rule(z.id, f.id);
      run((tx) => {
        tx.filters.insert(f);
        tx.firewallRules.insert(r);
      });
      run((tx) => {
        expect(tx.filters.get(other.id, f.id)).toBeUndefined();
        expect(tx.filters.getByExpression(other.id, f.expression)).toBeUndefined();
        expect(tx.firewallRules.get(other.id, r.id)).toBeUndefined();
        expect(tx.firewallRules.countUsing(other.id, f.id)).toBe(0);
      });
    });
  });

  describe('lists', () => {
    it('zones by account, ids or names, exact name, and combined', () => {
      const [a, b] = [account(), account()];
      const [z1, z2, z3] = [zone(a.id), zone(a.id), zone(b.id)];
      run((tx) => {
        tx.accounts.put(a);
        tx.accounts.put(b);
        for (const z of [z1, z2, z3]) tx.zones.insert(z);
      });
      const list = (query: Parameters<StoreTransaction['zones']['list']>[0]) =>
        run((tx) => tx.zones.list(query, all));
      expect(ids(list({}))).toEqual([z1.id, z2.id, z3.id]);
      expect(ids(list({ accountIds: [a.id] }))).toEqual([z1.id, z2.id]);
      expect(ids(list({ accountIds: [a.id, b.id] }))).toEqual([z1.id, z2.id, z3.id]);
      expect(list({ accountIds: [] })).toEqual({ items: [], totalCount: 0 });
      expect(ids(list({ idsOrNames: [z3.name, z1.id] }))).toEqual([z1.id, z3.id]);
      expect(list({ idsOrNames: [] })).toEqual({ items: [], totalCount: 0 });
      expect(ids(list({ name: z2.name }))).toEqual([z2.id]);
      expect(ids(list({ name: z2.name.toUpperCase() }))).toEqual([]);
      expect(ids(list({ accountIds: [a.id], idsOrNames: [z1.name, z3.name] }))).toEqual([z1.id]);
      expect(ids(list({ accountIds: [b.id], name: z1.name }))).toEqual([]);
      expect(list({ accountIds: [a.id] }).items[0]).toEqual(z1);
    });

    it('filters by id, expression and description substrings (case-insensitive), ref, paused, combined', () => {
      const z = zoneFixture();
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
      run((tx) => {
        for (const f of [f1, f2, f3]) tx.filters.insert(f);
      });
      const list = (query: Parameters<StoreTransaction['filters']['list']>[1]) =>
        ids(run((tx) => tx.filters.list(z.id, query, all)));
      expect(list({})).toEqual([f1.id, f2.id, f3.id]);
      expect(list({ id: f2.id })).toEqual([f2.id]);
      expect(list({ expression: 'HTTP.HOST' })).toEqual([f1.id, f3.id]);
      expect(list({ expression: 'shop.EXAMPLE' })).toEqual([f1.id]);
      expect(list({ description: 'SHOP' })).toEqual([f1.id, f3.id]);
      // LIKE wildcards are plain characters.
      expect(list({ description: '%' })).toEqual([f2.id]);
      expect(list({ description: 'p_b' })).toEqual([f3.id]);
      expect(list({ description: 'S%p' })).toEqual([]);
      expect(list({ ref: 'A' })).toEqual([f1.id, f3.id]);
      expect(list({ ref: 'a' })).toEqual([]);
      expect(list({ paused: true })).toEqual([f2.id]);
      expect(list({ paused: false })).toEqual([f1.id, f3.id]);
      expect(list({ ref: 'A', description: 'blog', paused: false })).toEqual([f3.id]);
      expect(list({ id: f1.id, paused: true })).toEqual([]);
      const empty = zoneFixture();
      expect(run((tx) => tx.filters.list(empty.id, {}, all))).toEqual({ items: [], totalCount: 0 });
    });

    it('firewall rules by id, action, description substring, paused, combined', () => {
      const z = zoneFixture();
      const f = filter(z.id);
      const r1 = rule(z.id, f.id, { action: 'block', description: 'Block the Bad' });
      const r2 = rule(z.id, f.id, { action: 'allow', description: 'allow good', paused: true });
      const r3 = rule(z.id, f.id, { action: 'block', description: 'bad bots', paused: true });
      run((tx) => {
        tx.filters.insert(f);
        for (const r of [r1, r2, r3]) tx.firewallRules.insert(r);
      });
      const list = (query: Parameters<StoreTransaction['firewallRules']['list']>[1]) =>
        run((tx) => tx.firewallRules.list(z.id, query, all)).items.map(({ rule }) => rule.id);
      expect(list({})).toEqual([r1.id, r2.id, r3.id]);
      expect(list({ id: r3.id })).toEqual([r3.id]);
      expect(list({ action: 'block' })).toEqual([r1.id, r3.id]);
      expect(list({ action: 'BLOCK' })).toEqual([]);
      expect(list({ description: 'BAD' })).toEqual([r1.id, r3.id]);
      expect(list({ paused: true })).toEqual([r2.id, r3.id]);
      expect(list({ paused: false })).toEqual([r1.id]);
      expect(list({ action: 'block', paused: true, description: 'bots' })).toEqual([r3.id]);
      expect(list({ action: 'allow', description: 'bad' })).toEqual([]);
    });

    it('paginates with the total over all pages, also past the last page', () => {
      const z = zoneFixture();
      const filters = Array.from({ length: 5 }, (_, i) => filter(z.id, { paused: i % 2 === 0 }));
      run((tx) => {
        for (const f of filters) tx.filters.insert(f);
      });
      const page = (page: number, perPage: number, paused?: boolean) =>
        run((tx) => tx.filters.list(z.id, { paused }, { page, perPage }));
      const expected = filters.map((f) => f.id);
      expect(page(1, 2)).toEqual({ items: filters.slice(0, 2), totalCount: 5 });
      expect(ids(page(2, 2))).toEqual(expected.slice(2, 4));
      expect(ids(page(3, 2))).toEqual(expected.slice(4));
      expect(page(4, 2)).toEqual({ items: [], totalCount: 5 });
      expect(page(100, 2)).toEqual({ items: [], totalCount: 5 });
      expect(ids(page(1, 5))).toEqual(expected);
      expect(ids(page(1, 50))).toEqual(expected);
      expect(page(2, 5)).toEqual({ items: [], totalCount: 5 });
      expect(ids(page(5, 1))).toEqual([expected[4]]);
      // The total counts what the query matches, not the whole table.
      expect(page(1, 2, true)).toEqual({ items: [filters[0], filters[2]], totalCount: 3 });
      expect(page(2, 2, true)).toEqual({ items: [filters[4]], totalCount: 3 });
      expect(page(2, 2, false)).toEqual({ items: [], totalCount: 2 });
      expect(() => page(0, 2)).toThrow(RangeError);
      expect(() => page(1, 0)).toThrow(RangeError);
      expect(() => page(1.5, 2)).toThrow(RangeError);
    });

    it('keeps creation order, whatever the ids and updates', () => {
      const z = zoneFixture();
      const filters = ['c', 'a', 'e', 'b', 'd'].map((letter) => filter(z.id, { id: letter.repeat(32) }));
      run((tx) => {
        for (const f of filters) tx.filters.insert(f);
      });
      run((tx) => tx.filters.update({ ...filters[0], description: 'changed', modifiedOn: T1 }));
      run((tx) => tx.filters.delete(z.id, [filters[4].id]));
      const later = filter(z.id, { id: '0'.repeat(32) });
      run((tx) => tx.filters.insert(later));
      expect(ids(run((tx) => tx.filters.list(z.id, {}, all)))).toEqual([
        ...filters.slice(0, 4).map((f) => f.id),
        later.id,
      ]);
    });
  });

  describe('deletes', () => {
    it('return only the ids that existed, once, in request order', () => {
      const z = zoneFixture();
      const [f1, f2] = [filter(z.id), filter(z.id)];
      const [r1, r2] = [rule(z.id, f1.id), rule(z.id, f1.id)];
      run((tx) => {
        tx.filters.insert(f1);
        tx.filters.insert(f2);
        tx.firewallRules.insert(r1);
        tx.firewallRules.insert(r2);
      });
      const missing = 'f'.repeat(32);
      expect(run((tx) => tx.firewallRules.delete(z.id, [r2.id, missing, r1.id, r2.id]))).toEqual([
        r2.id,
        r1.id,
      ]);
      expect(run((tx) => tx.firewallRules.count(z.id))).toBe(0);
      // Another zone's filter is not this zone's to delete.
      const other = zoneFixture();
      expect(run((tx) => tx.filters.delete(other.id, [f1.id]))).toEqual([]);
      expect(run((tx) => tx.filters.delete(z.id, [missing, f2.id, f1.id]))).toEqual([f2.id, f1.id]);
      expect(run((tx) => tx.filters.delete(z.id, []))).toEqual([]);
      expect(run((tx) => tx.filters.count(z.id))).toBe(0);
    });

    it('of a zone takes its filters and rules with it, and nothing of other zones', () => {
      const [z, other] = [zoneFixture(), zoneFixture()];
      const [f, otherFilter] = [filter(z.id), filter(other.id)];
      const [r, otherRule] = [rule(z.id, f.id), rule(other.id, otherFilter.id)];
      run((tx) => {
        tx.filters.insert(f);
        tx.filters.insert(otherFilter);
        tx.firewallRules.insert(r);
        tx.firewallRules.insert(otherRule);
      });
      expect(run((tx) => tx.zones.delete(z.id))).toBe(true);
      expect(run((tx) => tx.zones.delete(z.id))).toBe(false);
      run((tx) => {
        expect(tx.zones.get(z.id)).toBeUndefined();
        expect(tx.filters.get(z.id, f.id)).toBeUndefined();
        expect(tx.firewallRules.get(z.id, r.id)).toBeUndefined();
        expect(tx.filters.count(z.id)).toBe(0);
        expect(tx.firewallRules.count(z.id)).toBe(0);
        expect(tx.filters.get(other.id, otherFilter.id)).toEqual(otherFilter);
        expect(tx.firewallRules.get(other.id, otherRule.id)).toEqual(otherRule);
      });
    });
  });

  describe('constraints', () => {
    it('one filter per expression in a zone; the same expression in another zone is fine', () => {
      const [z, other] = [zoneFixture(), zoneFixture()];
      const f = filter(z.id, { expression: 'http.host eq "x"' });
      run((tx) => tx.filters.insert(f));
      expect(() => run((tx) => tx.filters.insert(filter(z.id, { expression: f.expression })))).toThrow(
        /UNIQUE/,
      );
      run((tx) => tx.filters.insert(filter(other.id, { expression: f.expression })));
      expect(run((tx) => tx.filters.count(other.id))).toBe(1);
      // Expressions are compared exactly.
      run((tx) => tx.filters.insert(filter(z.id, { expression: 'HTTP.HOST eq "x"' })));
      expect(run((tx) => tx.filters.count(z.id))).toBe(2);
    });

    it('insertUnlessDuplicate writes nothing and says so when the zone has the expression', () => {
      const [z, other] = [zoneFixture(), zoneFixture()];
      const f = filter(z.id, { expression: 'http.host eq "x"' });
      expect(run((tx) => tx.filters.insertUnlessDuplicate(f))).toBe(true);
      expect(run((tx) => tx.filters.get(z.id, f.id))).toEqual(f);
      const twin = filter(z.id, { expression: f.expression });
      expect(run((tx) => tx.filters.insertUnlessDuplicate(twin))).toBe(false);
      expect(run((tx) => tx.filters.get(z.id, twin.id))).toBeUndefined();
      // Written earlier in the same transaction counts too.
      const [first, second] = [filter(z.id, { expression: 'http.host eq "y"' }), filter(z.id)];
      run((tx) => {
        expect(tx.filters.insertUnlessDuplicate(first)).toBe(true);
        expect(tx.filters.insertUnlessDuplicate({ ...second, expression: first.expression })).toBe(false);
      });
      expect(run((tx) => tx.filters.count(z.id))).toBe(2);
      expect(
        run((tx) => tx.filters.insertUnlessDuplicate(filter(other.id, { expression: f.expression }))),
      ).toBe(true);
      // Other constraints still throw: an id already in the zone, a zone that does not exist.
      expect(() =>
        run((tx) => tx.filters.insertUnlessDuplicate({ ...f, expression: 'http.host eq "z"' })),
      ).toThrow(/UNIQUE/);
      expect(() => run((tx) => tx.filters.insertUnlessDuplicate(filter('f'.repeat(32))))).toThrow(
        /FOREIGN KEY/,
      );
    });

    it('a rule uses a filter of its own zone, and a filter in use cannot be deleted', () => {
      const [z, other] = [zoneFixture(), zoneFixture()];
      const f = filter(z.id);
      run((tx) => tx.filters.insert(f));
      expect(() => run((tx) => tx.firewallRules.insert(rule(other.id, f.id)))).toThrow(/FOREIGN KEY/);
      expect(() => run((tx) => tx.firewallRules.insert(rule(z.id, 'f'.repeat(32))))).toThrow(/FOREIGN KEY/);
      run((tx) => tx.firewallRules.insert(rule(z.id, f.id)));
      expect(() => run((tx) => tx.filters.delete(z.id, [f.id]))).toThrow(/FOREIGN KEY/);
      expect(run((tx) => tx.filters.get(z.id, f.id))).toEqual(f);
    });

    it('zones and tokens belong to existing accounts', () => {
      const missing = 'f'.repeat(32);
      expect(() => run((tx) => tx.zones.insert(zone(missing)))).toThrow(/FOREIGN KEY/);
      expect(() => run((tx) => tx.tokens.put(token(missing)))).toThrow(/FOREIGN KEY/);
    });
  });

  describe('transactions', () => {
    it('return what the work returns', () => {
      expect(run(() => 42)).toBe(42);
    });

    it('roll back everything when the work throws, and rethrow the error', () => {
      const z = zoneFixture();
      const boom = new Error('boom');
      const f = filter(z.id);
      const a = account();
      expect(() =>
        run((tx) => {
          tx.accounts.put(a);
          tx.filters.insert(f);
          tx.zones.update({ ...z, paused: true });
          tx.zones.delete(z.id);
          throw boom;
        }),
      ).toThrow(boom);
      run((tx) => {
        expect(tx.accounts.get(a.id)).toBeUndefined();
        expect(tx.filters.count(z.id)).toBe(0);
        expect(tx.zones.get(z.id)).toEqual(z);
      });
    });

    it('roll back the earlier writes when a later one violates a constraint', () => {
      const z = zoneFixture();
      const f = filter(z.id);
      expect(() =>
        run((tx) => {
          tx.filters.insert(f);
          tx.filters.insert(filter(z.id, { expression: f.expression }));
        }),
      ).toThrow(/UNIQUE/);
      expect(run((tx) => tx.filters.count(z.id))).toBe(0);
    });

    it('refuse to nest', () => {
      const z = zoneFixture();
      expect(() =>
        run((tx) => {
          tx.filters.insert(filter(z.id));
          run(() => 1);
        }),
      ).toThrow(/cannot be nested/);
      expect(run((tx) => tx.filters.count(z.id))).toBe(0);
      // The store still works afterwards.
      run((tx) => tx.filters.insert(filter(z.id)));
      expect(run((tx) => tx.filters.count(z.id))).toBe(1);
    });

    it('refuse work that returns a promise, rolling back what it did', () => {
      const a = account();
      const work = async (tx: StoreTransaction) => {
        tx.accounts.put(a);
      };
      expect(() => run(work)).toThrow(/synchronous/);
      expect(run((tx) => tx.accounts.get(a.id))).toBeUndefined();
    });

    it('refuse table calls on a transaction object used after its transaction', () => {
      const leaked = run((tx) => tx);
      expect(() => leaked.accounts.count()).toThrow(/inside the work of store.transaction/);
      expect(() => leaked.accounts.put(account())).toThrow(/inside the work of store.transaction/);
    });
  });

  describe('generations', () => {
    it('move on with every write to a table (cascades included), and only then', () => {
      const z = zoneFixture();
      const generations = () => ({
        credentials: store.generation(['accounts', 'tokens']),
        zones: store.generation(['zones']),
        filters: store.generation(['filters']),
        rules: store.generation(['firewallRules']),
      });
      const before = generations();
      run((tx) => [tx.zones.get(z.id), tx.filters.list(z.id, {}, all), tx.tokens.getByHash('x')]);
      expect(generations()).toEqual(before);

      const f = filter(z.id);
      run((tx) => tx.filters.insert(f));
      const afterFilter = generations();
      expect(afterFilter).toMatchObject({ credentials: before.credentials, zones: before.zones });
      expect(afterFilter.filters).not.toBe(before.filters);
      expect(afterFilter.rules).toBe(before.rules);

      run((tx) => tx.tokens.put(token(z.accountId)));
      expect(generations().credentials).not.toBe(before.credentials);

      // Deleting the zone deletes its filters and rules too.
      const beforeDelete = generations();
      run((tx) => tx.zones.delete(z.id));
      const afterDelete = generations();
      for (const table of ['zones', 'filters', 'rules'] as const) {
        expect(afterDelete[table]).not.toBe(beforeDelete[table]);
      }
      expect(afterDelete.credentials).toBe(beforeDelete.credentials);
    });

    it('move on when a transaction that wrote rolls back, after anything read inside it', () => {
      const z = zoneFixture();
      let inside = 0;
      expect(() =>
        run((tx) => {
          tx.filters.insert(filter(z.id));
          // What a cache would record here holds the insert that the rollback undoes.
          inside = store.generation(['filters']);
          throw new Error('rolled back');
        }),
      ).toThrow('rolled back');
      expect(store.generation(['filters'])).not.toBe(inside);
    });
  });

  describe('close', () => {
    it('makes later calls throw, and is harmless twice', () => {
      const leaked = run((tx) => tx);
      store.close();
      store.close();
      expect(() => run(() => 1)).toThrow(/the store is closed/);
      expect(() => leaked.accounts.count()).toThrow(/the store is closed/);
    });

    it('is refused inside a transaction', () => {
      expect(() => run(() => store.close())).toThrow(/inside one of its transactions/);
      expect(run(() => 1)).toBe(1);
    });
  });
});

// ——— database files ———

describe('SQLite store files', () => {
  let dir: string;
  let path: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'cfrules-store-'));
    path = join(dir, 'cfrules.db');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** Every file of the directory (database, WAL, shared memory) with its bytes. */
  const snapshot = () =>
    Object.fromEntries(readdirSync(dir).map((name) => [name, readFileSync(join(dir, name))]));

  const userVersion = (file: string) => {
    const db = new Database(file, { readonly: true });
    try {
      return db.pragma('user_version', { simple: true });
    } finally {
      db.close();
    }
  };

  it('keep their data over close and reopen, in WAL mode, without running migrations again', () => {
    const first = openSqliteStore(path);
    const a = account({ apiKeyHash: 'd'.repeat(64) });
    const z = zone(a.id, { plan: 'business' });
    const f = filter(z.id, { ref: 'kept' });
    first.transaction((tx) => {
      tx.accounts.put(a);
      tx.zones.insert(z);
      tx.filters.insert(f);
    });
    first.close();
    expect(userVersion(path)).toBe(schemaVersion);

    // Migration 1 creates tables: running it again would throw.
    const second = openSqliteStore(path);
    try {
      second.transaction((tx) => {
        expect(tx.accounts.getByApiKeyHash(a.apiKeyHash ?? '')).toEqual(a);
        expect(tx.zones.get(z.id)).toEqual(z);
        expect(tx.filters.list(z.id, {}, all)).toEqual({ items: [f], totalCount: 1 });
      });
    } finally {
      second.close();
    }
    expect(userVersion(path)).toBe(schemaVersion);
    const raw = new Database(path);
    try {
      expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
    } finally {
      raw.close();
    }
  });

  it('flush every commit (synchronous=FULL) unless told synchronous=normal, and refuse other modes', () => {
    // synchronous is a setting of each connection, so it is read back on the connection configured.
    const levels = { full: 2, normal: 1 } as const;
    for (const [mode, level] of [
      [undefined, levels.full],
      ['full', levels.full],
      ['normal', levels.normal],
    ] as const) {
      const db = new Database(path);
      try {
        configure(db, { synchronous: mode });
        expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
        expect(db.pragma('synchronous', { simple: true })).toBe(level);
      } finally {
        db.close();
      }
    }
    // @ts-expect-error: a mode from an untyped caller (a config file, JavaScript)
    expect(() => openSqliteStore(path, { synchronous: 'off' })).toThrow(
      'synchronous must be one of full, normal, not off',
    );
    const normal = openSqliteStore(path, { synchronous: 'normal' });
    const a = account();
    normal.transaction((tx) => tx.accounts.put(a));
    normal.close();
    const reopened = openSqliteStore(path);
    try {
      expect(reopened.transaction((tx) => tx.accounts.get(a.id))).toEqual(a);
    } finally {
      reopened.close();
    }
  });

  it('see the commits of another connection to the same file as a new generation of every table', () => {
    const first = openSqliteStore(path);
    const second = openSqliteStore(path);
    try {
      const a = account();
      const before = first.generation(['accounts']);
      const filters = first.generation(['filters']);
      expect(first.generation(['accounts'])).toBe(before);
      second.transaction((tx) => tx.accounts.put(a));
      expect(first.generation(['accounts'])).not.toBe(before);
      expect(first.generation(['filters'])).not.toBe(filters);
      expect(first.transaction((tx) => tx.accounts.get(a.id))).toEqual(a);
    } finally {
      first.close();
      second.close();
    }
  });

  it('migrate only what has not run', () => {
    const db = new Database(path);
    try {
      expect(migrate(db)).toEqual(Array.from({ length: schemaVersion }, (_, i) => i + 1));
      expect(migrate(db)).toEqual([]);
      expect(db.pragma('user_version', { simple: true })).toBe(schemaVersion);
    } finally {
      db.close();
    }
  });

  it('at version 3 are migrated with their filters, rules, order and keys intact', () => {
    const db = new Database(path);
    expect(migrate(db, 3)).toEqual([1, 2, 3]);
    const a = account();
    const [z, other] = [zone(a.id), zone(a.id)];
    // Inserted out of creation order on purpose (seq 3 before 1), with a gap left by a deleted filter.
    const [f1, f2, f3] = [filter(z.id, { ref: 'one' }), filter(z.id, { paused: true }), filter(other.id)];
    const r = rule(z.id, f2.id);
    const values = (f: FilterRecord) => [
      f.id,
      f.zoneId,
      f.expression,
      f.description,
      f.paused ? 1 : 0,
      f.ref,
    ];
    try {
      db.prepare('INSERT INTO accounts (id, name, email, created_on) VALUES (?, ?, ?, ?)').run(
        a.id,
        a.name,
        a.email,
        a.createdOn,
      );
      const insertZone = db.prepare(
        'INSERT INTO zones (id, name, plan, account_id, paused, created_on, modified_on) VALUES (?, ?, ?, ?, 0, ?, ?)',
      );
      for (const each of [z, other]) insertZone.run(each.id, each.name, each.plan, a.id, T0, T0);
      const insertFilter = db.prepare(
        `INSERT INTO filters (seq, id, zone_id, expression, description, paused, ref, created_on, modified_on)
          VALUES (?, ?, ?, ?, ?, ?, ?, '${T0}', '${T0}')`,
      );
      insertFilter.run(3, ...values(f2));
      insertFilter.run(1, ...values(f1));
      insertFilter.run(4, ...values(filter(z.id)));
      insertFilter.run(2, ...values(f3));
      db.prepare('DELETE FROM filters WHERE seq = 4').run();
      db.prepare(
        `INSERT INTO firewall_rules (id, zone_id, filter_id, action, paused, description, products, created_on,
          modified_on) VALUES (?, ?, ?, 'block', 0, '', '[]', '${T0}', '${T0}')`,
      ).run(r.id, z.id, f2.id);
    } finally {
      db.close();
    }

    const store = openSqliteStore(path);
    try {
      expect(userVersion(path)).toBe(schemaVersion);
      const run = <T>(work: (tx: StoreTransaction) => T): T => store.transaction(work);
      expect(run((tx) => tx.filters.list(z.id, {}, all))).toEqual({ items: [f1, f2], totalCount: 2 });
      expect(run((tx) => tx.filters.list(other.id, {}, all).items)).toEqual([f3]);
      expect(run((tx) => tx.firewallRules.getWithFilter(z.id, r.id))).toEqual({ rule: r, filter: f2 });
      // The foreign keys and the cascade hold on the rebuilt table.
      expect(() => run((tx) => tx.filters.delete(z.id, [f2.id]))).toThrow(/FOREIGN KEY/);
      expect(() => run((tx) => tx.firewallRules.insert(rule(other.id, f2.id)))).toThrow(/FOREIGN KEY/);
      // New filters come after the old ones, also after the last one was deleted.
      const [f4, f5] = [filter(z.id), filter(z.id)];
      run((tx) => tx.filters.insert(f4));
      run((tx) => tx.filters.delete(z.id, [f4.id]));
      run((tx) => tx.filters.insert(f5));
      expect(run((tx) => ids(tx.filters.list(z.id, {}, all)))).toEqual([f1.id, f2.id, f5.id]);
      expect(
        run((tx) => tx.filters.insertUnlessDuplicate({ ...filter(z.id), expression: f1.expression })),
      ).toBe(false);
      expect(run((tx) => tx.zones.delete(z.id))).toBe(true);
      expect(run((tx) => [tx.filters.count(z.id), tx.firewallRules.count(z.id)])).toEqual([0, 0]);
      expect(run((tx) => tx.filters.list(other.id, {}, all).items)).toEqual([f3]);
    } finally {
      store.close();
    }
    const raw = new Database(path, { readonly: true });
    try {
      expect(raw.prepare("SELECT name FROM sqlite_sequence WHERE name = 'filters'").all()).toEqual([]);
      expect(raw.pragma('foreign_key_check')).toEqual([]);
      expect(raw.pragma('integrity_check', { simple: true })).toBe('ok');
    } finally {
      raw.close();
    }
  });

  it('at version 4 are migrated with their zones, order and children intact; names then unique per account', () => {
    const db = new Database(path);
    expect(migrate(db, 4)).toEqual([1, 2, 3, 4]);
    const [a, b] = [account(), account()];
    const [z1, z2] = [zone(a.id), zone(a.id)];
    const f = filter(z2.id);
    try {
      for (const each of [a, b])
        db.prepare('INSERT INTO accounts (id, name, email, created_on) VALUES (?, ?, ?, ?)').run(
          each.id,
          each.name,
          each.email,
          each.createdOn,
        );
      const insertZone = db.prepare(
        'INSERT INTO zones (id, name, plan, account_id, paused, created_on, modified_on) VALUES (?, ?, ?, ?, 0, ?, ?)',
      );
      for (const each of [z1, z2]) insertZone.run(each.id, each.name, each.plan, a.id, T0, T0);
      db.prepare(
        `INSERT INTO filters (id, zone_id, expression, description, paused, created_on, modified_on)
          VALUES (?, ?, ?, '', 0, '${T0}', '${T0}')`,
      ).run(f.id, z2.id, f.expression);
    } finally {
      db.close();
    }
    const store = openSqliteStore(path);
    try {
      const run = <T>(work: (tx: StoreTransaction) => T): T => store.transaction(work);
      expect(run((tx) => ids(tx.zones.list({}, all)))).toEqual([z1.id, z2.id]);
      expect(run((tx) => tx.filters.count(z2.id))).toBe(1);
      // Another account may now use a name; the same account still may not, and new zones come last.
      const twin = { ...zone(b.id), name: z1.name };
      run((tx) => tx.zones.insert(twin));
      expect(() => run((tx) => tx.zones.insert({ ...zone(a.id), name: z1.name }))).toThrow(/UNIQUE/);
      expect(run((tx) => ids(tx.zones.list({}, all)))).toEqual([z1.id, z2.id, twin.id]);
      // The cascade holds on the rebuilt table.
      run((tx) => tx.zones.delete(z2.id));
      expect(run((tx) => tx.filters.count(z2.id))).toBe(0);
    } finally {
      store.close();
    }
  });

  it('from a newer cfrules are refused and left untouched', () => {
    openSqliteStore(path).close();
    const db = new Database(path);
    db.pragma(`user_version = ${schemaVersion + 5}`);
    db.close();
    const before = snapshot();
    expect(() => openSqliteStore(path)).toThrow(
      `database schema version ${schemaVersion + 5} is newer than this cfrules (${schemaVersion}); upgrade cfrules`,
    );
    expect(snapshot()).toEqual(before);
  });

  it('from a newer cfrules are not even switched to WAL', () => {
    const db = new Database(path);
    db.exec('CREATE TABLE future (x)');
    db.pragma(`user_version = ${schemaVersion + 1}`);
    db.close();
    const before = snapshot();
    expect(() => openSqliteStore(path)).toThrow(/is newer than this cfrules/);
    expect(snapshot()).toEqual(before);
  });
});
