// The official `cloudflare` SDK (7.3.0, pinned) as a client of the service over a real socket: every Filters
// and Firewall Rules method it has, with the casts and request options its spec bugs need (docs/api.md §9),
// its error classes, both kinds of credentials, and raw calls for validate-expr (which it has no method for).
import type Cloudflare from 'cloudflare';
import { BadRequestError, NotFoundError, PermissionDeniedError } from 'cloudflare';
import type { FirewallFilter } from 'cloudflare/resources/filters/filters';
import type {
  FirewallRule,
  RuleBulkEditParams,
  RuleBulkUpdateParams,
  RuleCreateParams,
  RuleUpdateParams,
} from 'cloudflare/resources/firewall/rules';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY, EMAIL, READ_TOKEN, ZONES } from './harness.js';
import { type Credentials, rejection, type SocketService, serveOnSocket } from './sdk-harness.js';

let service: SocketService;

beforeAll(async () => {
  service = await serveOnSocket();
});
afterAll(async () => {
  await service?.close();
});
afterEach(() => {
  expect(service.internalErrors).toEqual([]);
});

/** A client as a user would set one up (a token by default). */
const client = (credentials?: Credentials) => service.client(credentials);

/** Expressions no other test uses, so that no test trips over another's duplicate (10102). */
let counter = 0;
const expression = (tag: string) => `http.host eq "${tag}-${++counter}.example"`;

const ID = /^[0-9a-f]{32}$/;
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;

describe('filters through the SDK', () => {
  const zone_id = ZONES.enterprise;
  let cf: Cloudflare;
  beforeAll(() => {
    cf = client();
  });

  it('creates filters from an array and gets each back', async () => {
    const [one, two] = [expression('create'), expression('create')];
    const page = await cf.filters.create({
      zone_id,
      body: [
        { expression: one, description: 'first', ref: 'FIL-1' },
        { expression: two, paused: true },
      ],
    });
    expect(page.result).toHaveLength(2);
    expect(page.result[0]).toMatchObject({
      expression: one,
      description: 'first',
      ref: 'FIL-1',
      paused: false,
    });
    expect(page.result[1]).toMatchObject({ expression: two, description: '', paused: true });
    expect(page.result[1]).not.toHaveProperty('ref');
    for (const filter of page.result) {
      expect(filter.id).toMatch(ID);
      expect(await cf.filters.get(filter.id as string, { zone_id })).toEqual(filter);
    }
    expect((page.result[0] as { created_on?: string }).created_on).toMatch(ISO);
  });

  it('lists with query parameters, one page at a time or auto-paginating to the end', async () => {
    const tag = `pages-${++counter}`;
    const body = Array.from({ length: 23 }, (_, i) => ({
      expression: expression(tag),
      description: `${tag} item ${i}`,
      paused: i % 4 === 0,
    }));
    const created = (await cf.filters.create({ zone_id, body })).result;

    const seen: FirewallFilter[] = [];
    for await (const filter of cf.filters.list({ zone_id, per_page: 5, description: tag.toUpperCase() })) {
      seen.push(filter);
    }
    // Every filter once, in creation order: the SDK stopped at the first empty page.
    expect(seen.map((f) => f.id)).toEqual(created.map((f) => f.id));

    const last = await cf.filters.list({ zone_id, per_page: 5, page: 5, description: tag });
    expect(last.result.map((f) => f.id)).toEqual(created.slice(20).map((f) => f.id));
    expect(last.result_info).toEqual({ page: 5, per_page: 5, count: 3, total_count: 23, total_pages: 5 });

    const paused: FirewallFilter[] = [];
    for await (const filter of cf.filters.list({ zone_id, description: tag, paused: true, per_page: 5 })) {
      paused.push(filter);
    }
    expect(paused.map((f) => f.description)).toEqual([0, 4, 8, 12, 16, 20].map((i) => `${tag} item ${i}`));

    const byId = await cf.filters.list({ zone_id, id: created[7]?.id });
    expect(byId.result).toEqual([created[7]]);
  });

  it('replaces one filter with update, which sends no id in the body', async () => {
    const [filter] = (
      await cf.filters.create({
        zone_id,
        body: [{ expression: expression('update'), description: 'before', ref: 'R-1', paused: true }],
      })
    ).result;
    const id = filter?.id as string;
    const replacement = expression('update');
    const updated = await cf.filters.update(id, { zone_id, expression: replacement, description: 'after' });
    // PUT replaces: what the body leaves out goes back to its default.
    expect(updated).toMatchObject({ id, expression: replacement, description: 'after', paused: false });
    expect(updated).not.toHaveProperty('ref');
    expect(await cf.filters.get(id, { zone_id })).toEqual(updated);
  });

  it('bulk-updates (the SDK types the items without their id) and bulk-deletes by ids', async () => {
    const created = (
      await cf.filters.create({
        zone_id,
        body: [
          { expression: expression('bulk') },
          { expression: expression('bulk') },
          { expression: expression('bulk') },
        ],
      })
    ).result;
    const [a, b, c] = created.map((f) => f.id as string) as [string, string, string];
    const [newA, newB] = [expression('bulk'), expression('bulk')];
    // The SDK's item type has no `id`: passed as a variable, the items keep theirs without a cast.
    const items = [
      { id: a, expression: newA, description: 'bulk a' },
      { id: b, expression: newB, paused: true },
    ];
    const updated = await cf.filters.bulkUpdate({ zone_id, body: items });
    expect(updated.result).toMatchObject([
      { id: a, expression: newA, description: 'bulk a', paused: false },
      { id: b, expression: newB, description: '', paused: true },
    ]);
    expect(await cf.filters.get(a, { zone_id })).toMatchObject({ expression: newA, description: 'bulk a' });

    const unknown = 'f'.repeat(32);
    const deleted = await cf.filters.bulkDelete({ zone_id, id: [a, unknown, b] });
    expect(deleted).toEqual([{ id: a }, { id: b }]);
    await rejection(cf.filters.get(a, { zone_id }), NotFoundError);
    await rejection(cf.filters.get(b, { zone_id }), NotFoundError);
    expect((await cf.filters.get(c, { zone_id })).id).toBe(c);
  });

  it('deletes one filter, answering its id; an unknown filter id is a NotFoundError', async () => {
    const [filter] = (await cf.filters.create({ zone_id, body: [{ expression: expression('delete') }] }))
      .result;
    const id = filter?.id as string;
    expect(await cf.filters.delete(id, { zone_id })).toEqual({ id });
    const gone = await rejection(cf.filters.get(id, { zone_id }), NotFoundError);
    expect(gone.status).toBe(404);
    expect(gone.errors[0]?.code).toBe(10101);
    await rejection(cf.filters.delete(id, { zone_id }), NotFoundError);
    await rejection(cf.filters.update(id, { zone_id, expression: expression('delete') }), NotFoundError);
  });

  it('refuses a duplicate expression (BadRequestError, 10102) and creates nothing of that batch', async () => {
    const taken = expression('duplicate');
    await cf.filters.create({ zone_id, body: [{ expression: taken }] });
    const fresh = expression('duplicate');
    const error = await rejection(
      cf.filters.create({ zone_id, body: [{ expression: fresh }, { expression: taken }] }),
      BadRequestError,
    );
    expect(error.status).toBe(400);
    expect(error.errors[0]).toMatchObject({
      code: 10102,
      message: 'config duplicates an already existing config',
    });
    expect((await cf.filters.list({ zone_id, expression: fresh })).result).toEqual([]);
  });

  it("refuses an invalid expression with the parser's text (BadRequestError, 10100)", async () => {
    const error = await rejection(
      cf.filters.create({ zone_id, body: [{ expression: 'http.host eq' }] }),
      BadRequestError,
    );
    expect(error.errors[0]?.code).toBe(10100);
    expect(error.errors[0]?.message).toMatch(/^Filter parsing error \(1:\d+\):/);
  });
});

describe('firewall rules through the SDK', () => {
  const zone_id = ZONES.business;
  let cf: Cloudflare;
  beforeAll(() => {
    cf = client();
  });

  /** Filters to point rules at. */
  const filters = async (tag: string, count: number): Promise<string[]> =>
    (
      await cf.filters.create({
        zone_id,
        body: Array.from({ length: count }, () => ({ expression: expression(tag) })),
      })
    ).result.map((f) => f.id as string);

  // The SDK types `action` as a rate-limit action object and `filter` without its id: bodies go in the
  // request options, which replace the body the SDK builds from its parameters.
  const zoneOnly = { zone_id } as RuleCreateParams;

  it('creates rules from an array given as request options, answering an array', async () => {
    const [id] = await filters('rule-create', 1);
    const inline = expression('rule-create');
    const page = await cf.firewall.rules.create(zoneOnly, {
      body: [
        { action: 'block', filter: { id }, description: 'by id', priority: 10, ref: 'RULE-1' },
        {
          action: 'bypass',
          products: ['waf', 'uaBlock'],
          filter: { expression: inline, description: 'inline' },
        },
      ],
    });
    expect(page.result).toHaveLength(2);
    expect(page.result[0]).toMatchObject({
      action: 'block',
      description: 'by id',
      priority: 10,
      ref: 'RULE-1',
      paused: false,
      filter: { id },
    });
    expect(page.result[1]).toMatchObject({
      action: 'bypass',
      products: ['waf', 'uaBlock'],
      priority: null,
      filter: { expression: inline, description: 'inline', paused: false },
    });
    for (const rule of page.result) {
      expect(rule.id).toMatch(ID);
      expect(await cf.firewall.rules.get(rule.id as string, { zone_id })).toEqual(rule);
    }
  });

  it('answers the one object the SDK sends with an array too', async () => {
    const [id] = await filters('rule-one', 1);
    const page = await cf.firewall.rules.create(zoneOnly, {
      body: { action: 'managed_challenge', filter: { id } },
    });
    expect(page.result).toHaveLength(1);
    expect(page.result[0]).toMatchObject({ action: 'managed_challenge', filter: { id } });
  });

  it("refuses the typed create's rate-limit action object (BadRequestError, 10200, /action)", async () => {
    const inline = expression('rule-typed');
    const error = await rejection(
      cf.firewall.rules.create({ zone_id, action: { mode: 'challenge' }, filter: { expression: inline } }),
      BadRequestError,
    );
    expect(error.errors[0]).toMatchObject({ code: 10200, source: { pointer: '/action' } });
    // Nothing was created, not even the inline filter.
    expect((await cf.filters.list({ zone_id, expression: inline })).result).toEqual([]);
  });

  it('lists with query parameters, one page at a time or auto-paginating to the end', async () => {
    const tag = `rule-pages-${++counter}`;
    const created = (
      await cf.firewall.rules.create(zoneOnly, {
        body: Array.from({ length: 23 }, (_, i) => ({
          action: i % 3 === 0 ? 'js_challenge' : 'allow',
          description: `${tag} rule ${i}`,
          filter: { expression: expression(tag) },
        })),
      })
    ).result;
    const seen: FirewallRule[] = [];
    for await (const rule of cf.firewall.rules.list({ zone_id, per_page: 5, description: tag }))
      seen.push(rule);
    expect(seen.map((r) => r.id)).toEqual(created.map((r) => r.id));
    expect(seen[3]).toEqual(created[3]);

    const second = await cf.firewall.rules.list({ zone_id, per_page: 5, page: 2, description: tag });
    expect(second.result.map((r) => r.id)).toEqual(created.slice(5, 10).map((r) => r.id));
    expect(second.result_info).toEqual({ page: 2, per_page: 5, count: 5, total_count: 23, total_pages: 5 });

    const challenges: FirewallRule[] = [];
    for await (const rule of cf.firewall.rules.list({
      zone_id,
      description: tag,
      action: 'js_challenge',
      per_page: 5,
    })) {
      challenges.push(rule);
    }
    expect(challenges.map((r) => r.description)).toEqual(
      [0, 3, 6, 9, 12, 15, 18, 21].map((i) => `${tag} rule ${i}`),
    );
    const none = await cf.firewall.rules.list({ zone_id, description: tag, paused: true });
    expect(none.result).toEqual([]);
  });

  it('replaces a rule with update (no id in the body) and edits it with PATCH, answering an array', async () => {
    const [first, second] = await filters('rule-update', 2);
    const [rule] = (
      await cf.firewall.rules.create(zoneOnly, {
        body: [{ action: 'block', filter: { id: first }, priority: 3, description: 'old', ref: 'OLD' }],
      })
    ).result;
    const id = rule?.id as string;

    const replaced = await cf.firewall.rules.update(id, { zone_id } as RuleUpdateParams, {
      body: { action: 'challenge', filter: { id: second }, description: 'new' },
    });
    expect(replaced).toMatchObject({
      id,
      action: 'challenge',
      description: 'new',
      priority: null,
      paused: false,
    });
    expect(replaced.filter).toMatchObject({ id: second });
    expect(replaced).not.toHaveProperty('ref');
    expect(await cf.firewall.rules.get(id, { zone_id })).toEqual(replaced);

    // The SDK's edit sends `{}`: nothing changes, and the rule comes back in an array.
    const unchanged = await cf.firewall.rules.edit(id, { zone_id });
    expect(unchanged.result).toEqual([replaced]);

    const edited = await cf.firewall.rules.edit(id, { zone_id }, { body: { paused: true, priority: 7 } });
    expect(edited.result).toHaveLength(1);
    expect(edited.result[0]).toMatchObject({
      id,
      paused: true,
      priority: 7,
      action: 'challenge',
      description: 'new',
    });
    expect(await cf.firewall.rules.get(id, { zone_id })).toEqual(edited.result[0]);
  });

  it('bulk-edits priorities and bulk-replaces rules (bodies as request options)', async () => {
    const [f1, f2, f3] = await filters('rule-bulk', 3);
    const [a, b] = (
      await cf.firewall.rules.create(zoneOnly, {
        body: [
          { action: 'block', filter: { id: f1 } },
          { action: 'allow', filter: { id: f2 }, description: 'b' },
        ],
      })
    ).result.map((r) => r.id as string) as [string, string];

    // As typed, bulkEdit sends `{ id }`: that rule, unchanged, in an array.
    const typed = await cf.firewall.rules.bulkEdit({ zone_id, id: a });
    expect(typed.result).toMatchObject([{ id: a, action: 'block', priority: null }]);

    const priorities = await cf.firewall.rules.bulkEdit({ zone_id } as RuleBulkEditParams, {
      body: [
        { id: a, priority: 20 },
        { id: b, priority: 10 },
      ],
    });
    expect(priorities.result).toMatchObject([
      { id: a, priority: 20, action: 'block' },
      { id: b, priority: 10, action: 'allow', description: 'b' },
    ]);

    // log needs Enterprise: the whole batch is refused, and neither rule changes.
    const refused = await rejection(
      cf.firewall.rules.bulkUpdate({ zone_id } as RuleBulkUpdateParams, {
        body: [
          { id: a, action: 'challenge', filter: { id: f3 } },
          { id: b, action: 'log', filter: { id: f2 } },
        ],
      }),
      BadRequestError,
    );
    expect(refused.errors[0]?.code).toBe(10204);
    expect(await cf.firewall.rules.get(a, { zone_id })).toEqual(priorities.result[0]);

    const replaced = await cf.firewall.rules.bulkUpdate({ zone_id } as RuleBulkUpdateParams, {
      body: [
        { id: a, action: 'challenge', filter: { id: f3 }, description: 'replaced a' },
        { id: b, action: 'js_challenge', filter: { id: f2 }, paused: true },
      ],
    });
    // PUT replaces: the priorities set above go back to null, b's description to ''.
    expect(replaced.result).toMatchObject([
      { id: a, action: 'challenge', description: 'replaced a', priority: null, filter: { id: f3 } },
      { id: b, action: 'js_challenge', description: '', priority: null, paused: true, filter: { id: f2 } },
    ]);
    expect(await cf.firewall.rules.get(b, { zone_id })).toEqual(replaced.result[1]);
  });

  it('deletes one rule, keeping its filter or, when asked, deleting it too', async () => {
    const [kept, dropped] = await filters('rule-delete', 2);
    const [one, two] = (
      await cf.firewall.rules.create(zoneOnly, {
        body: [
          { action: 'block', filter: { id: kept } },
          { action: 'block', filter: { id: dropped } },
        ],
      })
    ).result.map((r) => r.id as string) as [string, string];

    const deleted = await cf.firewall.rules.delete(one, { zone_id });
    expect(deleted).toMatchObject({ id: one, action: 'block', filter: { id: kept } });
    await rejection(cf.firewall.rules.get(one, { zone_id }), NotFoundError);
    expect((await cf.filters.get(kept, { zone_id })).id).toBe(kept);

    const both = await cf.firewall.rules.delete(
      two,
      { zone_id },
      { query: { delete_filter_if_unused: true } },
    );
    expect(both.filter).toEqual({ id: dropped, deleted: true });
    await rejection(cf.filters.get(dropped, { zone_id }), NotFoundError);

    const unknown = await rejection(cf.firewall.rules.delete(two, { zone_id }), NotFoundError);
    expect(unknown.errors[0]?.code).toBe(10201);
  });

  it('bulk-deletes the ids given as request options (the SDK itself sends none)', async () => {
    const ids = await filters('rule-bulk-delete', 3);
    const rules = (
      await cf.firewall.rules.create(zoneOnly, {
        body: ids.map((id) => ({ action: 'block', filter: { id } })),
      })
    ).result.map((r) => r.id as string);

    // As typed, the SDK sends no ids at all: nothing is deleted, and the answer is the empty list that
    // Cloudflare documents for a request naming nothing.
    const bare = await cf.firewall.rules.bulkDelete({ zone_id });
    for (const id of rules) expect((await cf.firewall.rules.get(id, { zone_id })).id).toBe(id);
    expect(bare.result).toEqual([]);

    const page = await cf.firewall.rules.bulkDelete({ zone_id }, { query: { id: [rules[0], rules[2]] } });
    expect(page.result).toEqual([{ id: rules[0] }, { id: rules[2] }]);
    await rejection(cf.firewall.rules.get(rules[0] as string, { zone_id }), NotFoundError);
    expect((await cf.firewall.rules.get(rules[1] as string, { zone_id })).id).toBe(rules[1]);
    // Bulk deletion never deletes filters.
    expect((await cf.filters.get(ids[0] as string, { zone_id })).id).toBe(ids[0]);
  });
});

describe('credentials and raw calls through the SDK', () => {
  it('lets a read-only token read, and answers its writes with PermissionDeniedError (10000)', async () => {
    const reader = client({ apiToken: READ_TOKEN });
    const zone_id = ZONES.pro;
    expect((await reader.filters.list({ zone_id })).result).toEqual([]);
    const error = await rejection(
      reader.filters.create({ zone_id, body: [{ expression: expression('read-only') }] }),
      PermissionDeniedError,
    );
    expect(error.status).toBe(403);
    expect(error.errors[0]).toMatchObject({ code: 10000, message: 'Authentication error' });
    await rejection(
      reader.firewall.rules.bulkDelete({ zone_id }, { query: { id: ['a'.repeat(32)] } }),
      PermissionDeniedError,
    );
  });

  it('works with the e-mail and global key, and refuses a wrong key (9103)', async () => {
    const keyed = client({ apiEmail: EMAIL, apiKey: API_KEY });
    const zone_id = ZONES.pro;
    const text = expression('keyed');
    const [filter] = (await keyed.filters.create({ zone_id, body: [{ expression: text }] })).result;
    expect(filter?.expression).toBe(text);
    expect((await keyed.filters.get(filter?.id as string, { zone_id })).expression).toBe(text);

    const wrong = client({ apiEmail: EMAIL, apiKey: 'b'.repeat(37) });
    const error = await rejection(wrong.filters.list({ zone_id }), PermissionDeniedError);
    expect(error.errors[0]?.code).toBe(9103);
  });

  it('validates expressions with raw get and post calls', async () => {
    const cf = client();
    const valid = await cf.get('/filters/validate-expr', { query: { expression: 'ip.src eq 192.0.2.1' } });
    expect(valid).toMatchObject({ success: true, result: null });
    const posted = await cf.post('/filters/validate-expr', {
      body: { expression: 'http.host matches "^a+$"' },
    });
    expect(posted).toMatchObject({ success: true, result: null });

    const error = await rejection(
      cf.post('/filters/validate-expr', { body: { expression: 'ip.src==34' } }),
      BadRequestError,
    );
    expect(error.errors[0]?.message).toBe(
      "Filter parsing error:\n`ip.src==34`\n          ^^ couldn't parse address in network: invalid IP address syntax\n",
    );
    await rejection(
      cf.get('/filters/validate-expr', { query: { expression: 'http.host eq' } }),
      BadRequestError,
    );
  });
});
