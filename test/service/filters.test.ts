import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Plan } from '../../src/scheme/profile.js';
import { CODES, ServiceError } from '../../src/service/errors.js';
import { newId } from '../../src/service/ids.js';
import { failure, setup, snapshot } from './fixtures.js';

const HOST_A = 'http.host eq "a.example.com"';
const HOST_B = 'http.host eq "b.example.com"';
const HOST_C = 'http.host eq "c.example.com"';

// ——— tests ———

describe('FilterService.create', () => {
  it('creates a batch with defaults and returns Cloudflare-shaped filters', async () => {
    const { zone, filters } = await setup();
    const created = await filters.create(zone, [
      { expression: HOST_A },
      { expression: HOST_B, description: 'b', paused: true, ref: 'FIL-2' },
    ]);
    expect(created).toHaveLength(2);
    expect(created[0]).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{32}$/),
      expression: HOST_A,
      paused: false,
      description: '',
      created_on: expect.any(String),
      modified_on: expect.any(String),
    });
    expect(Object.keys(created[0] as object)).not.toContain('ref');
    expect(created[1]).toMatchObject({ expression: HOST_B, description: 'b', paused: true, ref: 'FIL-2' });
    expect((await filters.list(zone, {})).result.map((filter) => filter.expression)).toEqual([
      HOST_A,
      HOST_B,
    ]);
  });

  it('accepts one object, as older SDKs send it, and still answers an array', async () => {
    const { zone, filters } = await setup();
    expect(await filters.create(zone, { expression: HOST_A })).toEqual([
      expect.objectContaining({ expression: HOST_A }),
    ]);
  });

  it('refuses an invalid expression with the parser text, creating nothing', async () => {
    const { store, zone, filters } = await setup();
    const before = await snapshot(store, zone.id);
    const error = await failure(() =>
      filters.create(zone, [{ expression: HOST_A }, { expression: 'ip.src eq 1.2.3' }]),
    );
    expect(error.kind).toBe('bad-request');
    expect(error.errors).toEqual([
      {
        code: CODES.invalidFilter,
        message:
          "Filter parsing error (1:11):\nip.src eq 1.2.3\n          ^^^^^ couldn't parse address in network: invalid IP address syntax\n",
        source: { pointer: '/1/expression' },
      },
    ]);
    expect(await snapshot(store, zone.id)).toEqual(before);
  });

  it("applies the zone's plan: matches is refused on Pro, accepted on Business", async () => {
    const expression = 'http.request.uri.path matches "^/admin"';
    const pro = await setup('pro');
    const error = await failure(() => pro.filters.create(pro.zone, [{ expression }]));
    expect(error.errors[0]?.code).toBe(CODES.invalidFilter);
    expect(error.errors[0]?.message).toMatch(/^Filter parsing error \(1:23\):\n/);
    expect(error.errors[0]?.message).toContain('matches operator is not available on the Pro plan');
    const business = await setup('business');
    expect(await business.filters.create(business.zone, [{ expression }])).toHaveLength(1);
  });

  it('accepts an expression that only draws warnings', async () => {
    const { zone, filters } = await setup();
    expect(await filters.create(zone, [{ expression: 'http.host matches "[a-z&&[^aeiou]]"' }])).toHaveLength(
      1,
    );
  });

  it('refuses an expression already in the zone (10102)', async () => {
    const { store, zone, filters } = await setup();
    await filters.create(zone, [{ expression: HOST_A }]);
    const before = await snapshot(store, zone.id);
    const error = await failure(() => filters.create(zone, [{ expression: HOST_B }, { expression: HOST_A }]));
    expect(error.errors).toEqual([
      {
        code: CODES.duplicateFilter,
        message: 'config duplicates an already existing config',
        source: { pointer: '/1/expression' },
      },
    ]);
    expect(await snapshot(store, zone.id)).toEqual(before);
  });

  it('refuses the same expression twice in one batch (10102)', async () => {
    const { store, zone, filters } = await setup();
    const error = await failure(() => filters.create(zone, [{ expression: HOST_A }, { expression: HOST_A }]));
    expect(error.errors[0]).toMatchObject({
      code: CODES.duplicateFilter,
      source: { pointer: '/1/expression' },
    });
    expect((await snapshot(store, zone.id)).filters).toEqual([]);
  });

  it("reports the first item's error, whether its expression is a duplicate or a field is invalid", async () => {
    const { store, zone, filters } = await setup();
    await filters.create(zone, [{ expression: HOST_A }]);
    const before = await snapshot(store, zone.id);
    const duplicateFirst = await failure(() =>
      filters.create(zone, [{ expression: HOST_B }, { expression: HOST_A }, { expression: 'http.host eq' }]),
    );
    expect(duplicateFirst.errors).toHaveLength(1);
    expect(duplicateFirst.errors[0]).toMatchObject({
      code: CODES.duplicateFilter,
      source: { pointer: '/1/expression' },
    });
    const invalidFirst = await failure(() =>
      filters.create(zone, [{ expression: HOST_B, paused: 'no' }, { expression: HOST_A }]),
    );
    expect(invalidFirst.errors).toHaveLength(1);
    expect(invalidFirst.errors[0]).toMatchObject({
      code: CODES.invalidFilter,
      source: { pointer: '/0/paused' },
    });
    expect(await snapshot(store, zone.id)).toEqual(before);
  });

  it('allows the same expression in another zone', async () => {
    const first = await setup();
    await first.filters.create(first.zone, [{ expression: HOST_A }]);
    const second = await setup();
    expect(await second.filters.create(second.zone, [{ expression: HOST_A }])).toHaveLength(1);
  });

  it('limits description to 500 characters and ref to 50 (characters, not UTF-16 units)', async () => {
    const { zone, filters } = await setup();
    expect(
      await filters.create(zone, [
        { expression: HOST_A, description: '😀'.repeat(500), ref: 'r'.repeat(50) },
      ]),
    ).toHaveLength(1);
    expect(
      (await failure(() => filters.create(zone, [{ expression: HOST_B, description: 'd'.repeat(501) }])))
        .errors,
    ).toEqual([
      {
        code: CODES.invalidFilter,
        message: 'description must be a string of at most 500 characters',
        source: { pointer: '/0/description' },
      },
    ]);
    expect(
      (await failure(() => filters.create(zone, [{ expression: HOST_B, ref: 'r'.repeat(51) }]))).errors[0],
    ).toMatchObject({
      message: 'ref must be a string of at most 50 characters',
      source: { pointer: '/0/ref' },
    });
  });

  it.each<[unknown, string, string | undefined]>([
    [null, 'the request body must be an array of filters, or one filter', undefined],
    ['ip.src eq 192.0.2.1', 'the request body must be an array of filters, or one filter', undefined],
    [[], 'the request body must list at least one filter', undefined],
    [[null], 'a filter must be a JSON object', '/0'],
    [[{}], 'expression is required: a non-empty string', '/0/expression'],
    [[{ expression: '' }], 'expression is required: a non-empty string', '/0/expression'],
    [[{ expression: 42 }], 'expression must be a string', '/0/expression'],
    [[{ expression: HOST_A, paused: 'yes' }], 'paused must be true or false', '/0/paused'],
    [
      [{ expression: HOST_A, description: 5 }],
      'description must be a string of at most 500 characters',
      '/0/description',
    ],
    [
      [{ expression: 'http.host eq "\ud800"' }],
      'expression must be valid Unicode text (it has a lone surrogate)',
      '/0/expression',
    ],
  ])('refuses the body %j', async (body, message, pointer) => {
    const { zone, filters } = await setup();
    const error = await failure(() => filters.create(zone, body));
    expect(error.kind).toBe('bad-request');
    expect(error.errors).toEqual([
      pointer === undefined
        ? { code: CODES.invalidFilter, message }
        : { code: CODES.invalidFilter, message, source: { pointer } },
    ]);
  });

  it('reads only own properties: inherited names are not fields', async () => {
    const { zone, filters } = await setup();
    const body = JSON.parse(`[{"__proto__": {"expression": "${HOST_A.replaceAll('"', '\\"')}"}}]`);
    // An own `__proto__` member is an unknown member; its contents never count as the filter's fields.
    expect((await failure(() => filters.create(zone, body))).errors[0]?.message).toMatch(
      /^unknown member "__proto__": a filter has /,
    );
  });
});

describe('FilterService.list', () => {
  async function listed() {
    const context = await setup();
    const [a, b, c] = await context.filters.create(context.zone, [
      { expression: HOST_A, description: 'Blocks A', ref: 'one' },
      { expression: HOST_B, description: 'allows b', paused: true, ref: 'two' },
      { expression: 'ip.src eq 192.0.2.1', description: 'office' },
    ]);
    return { ...context, ids: [a?.id, b?.id, c?.id] as string[] };
  }
  const expressions = (result: { expression: string }[]) => result.map((filter) => filter.expression);

  it('lists in creation order with result_info', async () => {
    const { zone, filters } = await listed();
    expect(await filters.list(zone, {})).toEqual({
      result: [
        expect.objectContaining({ expression: HOST_A }),
        expect.objectContaining({ expression: HOST_B }),
        expect.objectContaining({ expression: 'ip.src eq 192.0.2.1' }),
      ],
      resultInfo: { page: 1, per_page: 25, count: 3, total_count: 3, total_pages: 1 },
    });
  });

  it('filters by id, expression, description, ref and paused', async () => {
    const { zone, filters, ids } = await listed();
    expect(expressions((await filters.list(zone, { id: ids[1] })).result)).toEqual([HOST_B]);
    expect((await failure(() => filters.list(zone, { id: 'not-an-id' }))).errors[0]?.code).toBe(
      CODES.invalidQuery,
    );
    expect(expressions((await filters.list(zone, { expression: 'HTTP.HOST' })).result)).toEqual([
      HOST_A,
      HOST_B,
    ]);
    expect(expressions((await filters.list(zone, { description: 'blocks' })).result)).toEqual([HOST_A]);
    expect(expressions((await filters.list(zone, { ref: 'two' })).result)).toEqual([HOST_B]);
    expect((await filters.list(zone, { ref: 'tw' })).result).toEqual([]);
    expect(expressions((await filters.list(zone, { paused: 'true' })).result)).toEqual([HOST_B]);
    expect((await filters.list(zone, { paused: 'false' })).result).toHaveLength(2);
    expect((await failure(() => filters.list(zone, { paused: '1' }))).errors[0]?.code).toBe(
      CODES.invalidQuery,
    );
  });

  it('pages, and answers an empty page past the end', async () => {
    const { zone, filters } = await setup();
    await filters.create(
      zone,
      Array.from({ length: 12 }, (_, i) => ({ expression: `http.host eq "h${i}.example.com"` })),
    );
    const third = await filters.list(zone, { page: '3', per_page: '5' });
    expect(third.result).toHaveLength(2);
    expect(third.resultInfo).toEqual({ page: 3, per_page: 5, count: 2, total_count: 12, total_pages: 3 });
    const past = await filters.list(zone, { page: '4', per_page: '5' });
    expect(past).toEqual({
      result: [],
      resultInfo: { page: 4, per_page: 5, count: 0, total_count: 12, total_pages: 3 },
    });
    expect((await failure(() => filters.list(zone, { per_page: '200' }))).errors[0]).toEqual({
      code: CODES.invalidQuery,
      message: 'per_page must be an integer from 5 to 100',
    });
  });
});

describe('FilterService.get', () => {
  it('finds a filter of the zone, and 404s otherwise', async () => {
    const { zone, filters } = await setup();
    const [created] = await filters.create(zone, [{ expression: HOST_A }]);
    expect(await filters.get(zone, created?.id as string)).toEqual(created);
    for (const id of [newId(), 'nope']) {
      const error = await failure(() => filters.get(zone, id));
      expect(error.kind).toBe('not-found');
      expect(error.errors).toEqual([{ code: CODES.filterNotFound, message: `filter not found: ${id}` }]);
    }
    const other = await setup();
    expect((await failure(() => other.filters.get(other.zone, created?.id as string))).kind).toBe(
      'not-found',
    );
  });
});

describe('FilterService.updateMany and update', () => {
  it('replaces filters, resetting omitted fields (PUT)', async () => {
    const { zone, filters } = await setup();
    const [a] = await filters.create(zone, [
      { expression: HOST_A, description: 'a', paused: true, ref: 'r' },
    ]);
    const [updated] = await filters.updateMany(zone, [{ id: a?.id, expression: HOST_B }]);
    expect(updated).toEqual({
      id: a?.id,
      expression: HOST_B,
      paused: false,
      description: '',
      created_on: a?.created_on,
      modified_on: expect.any(String),
    });
    expect(await filters.get(zone, a?.id as string)).toEqual(updated);
  });

  it('lets a filter keep its own expression', async () => {
    const { zone, filters } = await setup();
    const [a] = await filters.create(zone, [{ expression: HOST_A }]);
    expect(
      await filters.update(zone, a?.id as string, { expression: HOST_A, description: 'same' }),
    ).toMatchObject({
      expression: HOST_A,
      description: 'same',
    });
  });

  it('changes nothing when one id is unknown (404 naming it)', async () => {
    const { store, zone, filters } = await setup();
    const [a] = await filters.create(zone, [{ expression: HOST_A }]);
    const before = await snapshot(store, zone.id);
    const missing = newId();
    const error = await failure(() =>
      filters.updateMany(zone, [
        { id: a?.id, expression: HOST_B },
        { id: missing, expression: HOST_C },
      ]),
    );
    expect(error.kind).toBe('not-found');
    expect(error.errors).toEqual([
      { code: CODES.filterNotFound, message: `filter not found: ${missing}`, source: { pointer: '/1/id' } },
    ]);
    expect(await snapshot(store, zone.id)).toEqual(before);
  });

  it('changes nothing when one item is invalid or duplicates another filter', async () => {
    const { store, zone, filters } = await setup();
    const [a, b] = await filters.create(zone, [{ expression: HOST_A }, { expression: HOST_B }]);
    const before = await snapshot(store, zone.id);
    const invalid = await failure(() =>
      filters.updateMany(zone, [
        { id: a?.id, expression: HOST_C },
        { id: b?.id, expression: 'ip.src eq 1.2.3' },
      ]),
    );
    expect(invalid.errors[0]).toMatchObject({
      code: CODES.invalidFilter,
      source: { pointer: '/1/expression' },
    });
    const duplicate = await failure(() => filters.updateMany(zone, [{ id: a?.id, expression: HOST_B }]));
    expect(duplicate.errors[0]).toMatchObject({
      code: CODES.duplicateFilter,
      source: { pointer: '/0/expression' },
    });
    const twice = await failure(() =>
      filters.updateMany(zone, [
        { id: a?.id, expression: HOST_C },
        { id: b?.id, expression: HOST_C },
      ]),
    );
    expect(twice.errors[0]?.code).toBe(CODES.duplicateFilter);
    const sameId = await failure(() =>
      filters.updateMany(zone, [
        { id: a?.id, expression: HOST_C },
        { id: a?.id, expression: HOST_A },
      ]),
    );
    expect(sameId.errors[0]).toMatchObject({ code: CODES.invalidFilter, source: { pointer: '/1/id' } });
    expect((await failure(() => filters.updateMany(zone, [{ expression: HOST_C }]))).errors[0]).toMatchObject(
      {
        message: 'id is required: a non-empty string',
        source: { pointer: '/0/id' },
      },
    );
    expect(await snapshot(store, zone.id)).toEqual(before);
  });

  it('PUT one: takes the id from the path; a different body id is refused', async () => {
    const { zone, filters } = await setup();
    const [a] = await filters.create(zone, [{ expression: HOST_A }]);
    const id = a?.id as string;
    expect(await filters.update(zone, id, { id, expression: HOST_B })).toMatchObject({
      id,
      expression: HOST_B,
    });
    const error = await failure(() => filters.update(zone, id, { id: newId(), expression: HOST_C }));
    expect(error.errors[0]).toMatchObject({ code: CODES.invalidFilter, source: { pointer: '/id' } });
    expect((await failure(() => filters.update(zone, newId(), { expression: HOST_C }))).kind).toBe(
      'not-found',
    );
    expect((await failure(() => filters.update(zone, id, [{ expression: HOST_C }]))).errors[0]?.message).toBe(
      'the request body must be a JSON object',
    );
  });
});

describe('FilterService.deleteMany and delete', () => {
  it('deletes the ids of the query, ignoring unknown ones', async () => {
    const { zone, filters } = await setup();
    const [a, b, c] = await filters.create(zone, [
      { expression: HOST_A },
      { expression: HOST_B },
      { expression: HOST_C },
    ]);
    expect(
      await filters.deleteMany(zone, { id: [a?.id as string, newId(), 'junk', b?.id as string] }, undefined),
    ).toEqual([{ id: a?.id }, { id: b?.id }]);
    expect((await filters.list(zone, {})).result.map((filter) => filter.id)).toEqual([c?.id]);
  });

  it('takes ids from the body too: {id}, {id: [...]}, [{id}]', async () => {
    const { zone, filters } = await setup();
    const [a, b, c] = await filters.create(zone, [
      { expression: HOST_A },
      { expression: HOST_B },
      { expression: HOST_C },
    ]);
    expect(await filters.deleteMany(zone, {}, { id: a?.id })).toEqual([{ id: a?.id }]);
    expect(await filters.deleteMany(zone, {}, { id: [b?.id] })).toEqual([{ id: b?.id }]);
    expect(await filters.deleteMany(zone, {}, [{ id: c?.id }])).toEqual([{ id: c?.id }]);
    expect((await filters.list(zone, {})).result).toEqual([]);
  });

  it('deletes nothing and answers [] for a request without ids; refuses ids that are not strings', async () => {
    const { zone, filters } = await setup();
    const kept = await filters.create(zone, [{ expression: HOST_A }]);
    for (const body of [undefined, {}, []]) expect(await filters.deleteMany(zone, {}, body)).toEqual([]);
    expect((await filters.list(zone, {})).result).toEqual(kept);
    expect((await failure(() => filters.deleteMany(zone, {}, { id: 5 }))).errors[0]).toMatchObject({
      code: CODES.invalidQuery,
      source: { pointer: '/id' },
    });
  });

  it('deletes nothing when one filter is used by a rule (10103)', async () => {
    const { store, zone, filters, rules } = await setup();
    const [a, b] = await filters.create(zone, [{ expression: HOST_A }, { expression: HOST_B }]);
    await rules.create(zone, [
      { action: 'block', filter: { id: b?.id } },
      { action: 'allow', filter: { id: b?.id } },
    ]);
    const before = await snapshot(store, zone.id);
    const error = await failure(() =>
      filters.deleteMany(zone, { id: [a?.id as string, b?.id as string] }, undefined),
    );
    expect(error.kind).toBe('bad-request');
    expect(error.errors).toEqual([
      {
        code: CODES.filterInUse,
        message: `filter ${b?.id} is used by 2 firewall rules: delete them or give them another filter first`,
      },
    ]);
    expect(await snapshot(store, zone.id)).toEqual(before);
    expect((await failure(() => filters.delete(zone, b?.id as string))).errors[0]?.code).toBe(
      CODES.filterInUse,
    );
  });

  it('deletes one filter; unknown ids 404', async () => {
    const { zone, filters } = await setup();
    const [a] = await filters.create(zone, [{ expression: HOST_A }]);
    expect(await filters.delete(zone, a?.id as string)).toEqual({ id: a?.id });
    expect((await failure(() => filters.delete(zone, a?.id as string))).kind).toBe('not-found');
  });
});

describe('filters created together with a rule', () => {
  it('can be read but not replaced or deleted through the Filters API (10104)', async () => {
    const { store, zone, filters, rules } = await setup();
    const [rule] = await rules.create(zone, [{ action: 'block', filter: { expression: HOST_A } }]);
    const id = rule?.filter.id as string;
    expect(await filters.get(zone, id)).toMatchObject({ id, expression: HOST_A });
    const before = await snapshot(store, zone.id);
    for (const run of [
      () => filters.update(zone, id, { expression: HOST_B }),
      () => filters.updateMany(zone, [{ id, expression: HOST_B }]),
      () => filters.delete(zone, id),
      () => filters.deleteMany(zone, { id }, undefined),
    ]) {
      const error = await failure(run);
      expect(error.kind).toBe('bad-request');
      expect(error.errors[0]?.code).toBe(CODES.filterOwnedByRule);
      expect(error.errors[0]?.message).toContain(`created together with firewall rule ${rule?.id}`);
      expect(error.errors[0]?.message).toContain('delete_filter_if_unused');
    }
    expect(await snapshot(store, zone.id)).toEqual(before);
  });
});

// ——— robustness ———

const EXPRESSIONS = [HOST_A, HOST_B, HOST_C, 'ip.src eq 1.2.3', '', 'http.request.uri.path matches "^/x"'];

/** Placeholders in generated bodies for the ids of the filters each run creates. */
const ID_PLACEHOLDERS = ['@filter-0', '@filter-1'];

/** `value` with the placeholders replaced by real ids (arrays and plain objects are copied). */
function withIds(value: unknown, ids: readonly string[]): unknown {
  if (typeof value === 'string') {
    const index = ID_PLACEHOLDERS.indexOf(value);
    return index === -1 ? value : ids[index];
  }
  if (Array.isArray(value)) return value.map((item) => withIds(item, ids));
  if (typeof value === 'object' && value !== null) {
    // fromEntries defines own properties: a generated "__proto__" key stays a plain key.
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, withIds(item, ids)]));
  }
  return value;
}

/** Bodies shaped like filters, with random values where the fields are, or anything at all. */
const filterBodies: fc.Arbitrary<unknown> = (() => {
  const value = fc.oneof(fc.jsonValue(), fc.constantFrom(...EXPRESSIONS, ...ID_PLACEHOLDERS));
  const item = fc
    .array(
      fc.tuple(
        fc.constantFrom('id', 'expression', 'description', 'paused', 'ref', '__proto__', 'constructor'),
        value,
      ),
    )
    .map((entries) => Object.fromEntries(entries));
  const good = fc.record(
    {
      id: fc.constantFrom(...ID_PLACEHOLDERS),
      expression: fc.constantFrom(...EXPRESSIONS),
      description: fc.oneof(fc.string(), fc.jsonValue()),
      paused: fc.oneof(fc.boolean(), fc.jsonValue()),
      ref: fc.oneof(fc.string({ maxLength: 60 }), fc.constant(null)),
    },
    { requiredKeys: ['expression'] },
  );
  const element = fc.oneof(item, good, fc.anything());
  return fc.oneof(fc.anything(), fc.jsonValue(), item, good, fc.array(element, { maxLength: 4 }));
})();

describe('FilterService with arbitrary bodies', () => {
  it('either succeeds or throws a ServiceError, and a failure changes nothing', async () => {
    const outcomes = { succeeded: 0, failed: 0 };
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom<Plan>('free', 'pro', 'business', 'enterprise'),
        fc.constantFrom('create', 'updateMany', 'update', 'deleteMany'),
        filterBodies,
        async (plan, method, generated) => {
          const { store, zone, filters, rules } = await setup(plan);
          const [a, b] = await filters.create(zone, [{ expression: HOST_A }, { expression: HOST_B }]);
          await rules.create(zone, [{ action: 'block', filter: { id: b?.id } }]);
          const ids = [a?.id as string, b?.id as string];
          const body = withIds(generated, ids);
          const before = await snapshot(store, zone.id);
          try {
            if (method === 'create') await filters.create(zone, body);
            else if (method === 'updateMany') await filters.updateMany(zone, body);
            else if (method === 'update') await filters.update(zone, ids[0] as string, body);
            else await filters.deleteMany(zone, {}, body);
            outcomes.succeeded++;
          } catch (error) {
            if (!(error instanceof ServiceError)) throw error;
            outcomes.failed++;
            expect(await snapshot(store, zone.id)).toEqual(before);
          } finally {
            await store.close();
          }
        },
      ),
      { numRuns: 500 },
    );
    // Both paths were exercised: the property is not vacuous.
    expect(outcomes.succeeded).toBeGreaterThan(10);
    expect(outcomes.failed).toBeGreaterThan(10);
  }, 60_000); // a store per run: slower than one test's default 5 s when suites run in parallel
});
