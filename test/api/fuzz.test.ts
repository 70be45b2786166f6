// Properties over random requests (docs/api.md §3): every answer is the envelope, never a 5xx, 2xx exactly
// when `success` is true; a failed write changes nothing; malformed bodies are 6007; huge ones 413.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FIREWALL_RULE_ACTIONS } from '../../src/scheme/actions.js';
import { type Envelope, freshHarnessPerTest, type Harness, ZONES, zonePath } from './harness.js';
import {
  createFilters,
  createRules,
  expectFailure,
  filtersPath,
  idQuery,
  listAll,
  listFilters,
  listRules,
  rulesPath,
  snapshot,
} from './requests.js';

// The default body limit (8 MiB): the 413 property relies on it.
let h: Harness;
freshHarnessPerTest((fresh) => {
  h = fresh;
});

const Z = ZONES.enterprise;
/** Each property runs hundreds of requests. */
const TIMEOUT = 20_000;
const VALIDATE = '/client/v4/filters/validate-expr';

/**
 * The objects requests aim at, named by placeholders (`@filter0`…) in generated bodies, queries and paths,
 * so that a generated request stays meaningful after earlier ones deleted what it names: a successful write
 * seeds fresh objects and the placeholders then name those.
 */
const FILTERS = ['@filter0', '@filter1', '@filter2', '@filter3', '@inline'] as const;
const RULES = ['@rule0', '@rule1', '@rule2'] as const;
const PLACEHOLDERS = [...FILTERS, ...RULES] as const;
type Placeholder = (typeof PLACEHOLDERS)[number];

let seeded: Record<Placeholder, string>;
let generation = 0;

/**
 * @filter0 and @filter1 are used by @rule0 and @rule1 (a bypass rule), @filter2 and @filter3 are free,
 * @inline was created with @rule2.
 */
async function seed(): Promise<void> {
  // Start from an empty zone, so that what earlier requests created neither slows the snapshots down nor
  // reaches the zone's rule quota.
  for (const [list, path] of [
    [await listRules(h, Z), rulesPath],
    [await listFilters(h, Z), filtersPath],
  ] as const) {
    for (let i = 0; i < list.length; i += 50) {
      const ids = list.slice(i, i + 50).map((item) => item.id);
      expect((await h.call({ method: 'DELETE', url: path(Z, idQuery(ids)) })).status).toBe(200);
    }
  }
  const tag = generation++;
  const filters = await createFilters(h, Z, [
    { expression: `http.host eq "seed${tag}-0"`, description: 'seed', ref: 'SEED-1' },
    { expression: `http.host eq "seed${tag}-1"` },
    { expression: `http.host eq "seed${tag}-2"`, paused: true },
    { expression: `http.host eq "seed${tag}-3"` },
  ]);
  const rules = await createRules(h, Z, [
    { action: 'block', filter: { id: filters[0]?.id } },
    { action: 'bypass', products: ['waf'], priority: 3, filter: { id: filters[1]?.id } },
    { action: 'allow', description: 'inline', filter: { expression: `http.host eq "seed${tag}-inline"` } },
  ]);
  const ids = [...filters.map((f) => f.id), rules[2]?.filter.id, ...rules.map((r) => r.id)];
  seeded = Object.fromEntries(PLACEHOLDERS.map((name, i) => [name, ids[i] as string])) as Record<
    Placeholder,
    string
  >;
}

/** The text with every placeholder (plain, JSON-quoted or percent-encoded) replaced by its object's id. */
const resolve = (text: string): string =>
  text.replace(
    /(?:@|%40)(filter[0-3]|inline|rule[0-2])/g,
    (_match, name: string) => seeded[`@${name}` as Placeholder],
  );

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
interface Target {
  method: Method;
  url: string;
}

/** Every endpoint that takes a body (a DELETE may: ids, or delete_filter_if_unused). */
const BODY_TARGETS: Target[] = [
  { method: 'POST', url: filtersPath(Z) },
  { method: 'PUT', url: filtersPath(Z) },
  { method: 'DELETE', url: filtersPath(Z) },
  { method: 'PUT', url: filtersPath(Z, '/@filter2') },
  { method: 'PUT', url: filtersPath(Z, '/@inline') },
  { method: 'DELETE', url: filtersPath(Z, '/@filter3') },
  { method: 'POST', url: VALIDATE },
  { method: 'POST', url: rulesPath(Z) },
  { method: 'PUT', url: rulesPath(Z) },
  { method: 'PATCH', url: rulesPath(Z) },
  { method: 'DELETE', url: rulesPath(Z) },
  { method: 'PUT', url: rulesPath(Z, '/@rule0') },
  { method: 'PATCH', url: rulesPath(Z, '/@rule1') },
  { method: 'DELETE', url: rulesPath(Z, '/@rule2') },
  { method: 'POST', url: '/client/v4/zones' },
  { method: 'PATCH', url: zonePath(ZONES.pro) },
];

/** Every endpoint that reads a query string: the lists, the deletes, validate-expr. */
const QUERY_TARGETS: Target[] = [
  { method: 'GET', url: filtersPath(Z) },
  { method: 'DELETE', url: filtersPath(Z) },
  { method: 'GET', url: filtersPath(Z, '/@filter0') },
  { method: 'DELETE', url: filtersPath(Z, '/@filter3') },
  { method: 'GET', url: rulesPath(Z) },
  { method: 'DELETE', url: rulesPath(Z) },
  { method: 'GET', url: rulesPath(Z, '/@rule0') },
  { method: 'DELETE', url: rulesPath(Z, '/@rule2') },
  { method: 'GET', url: '/client/v4/zones' },
  { method: 'GET', url: VALIDATE },
];

const LISTS = [filtersPath(Z), rulesPath(Z), '/client/v4/zones'];

/** Sends a request with its placeholders resolved (a string body as JSON text, a buffer as raw bytes). */
async function request(target: Target, query: string, payload?: string | Buffer) {
  return h.call({
    method: target.method,
    url: resolve(`${target.url}${query}`),
    ...(payload === undefined
      ? {}
      : {
          headers: { 'content-type': 'application/json' },
          payload: typeof payload === 'string' ? resolve(payload) : payload,
        }),
  });
}

/** After a write that succeeded, the objects the placeholders name may be gone or changed: seed anew. */
async function reseedAfter(target: Target, response: { body: Envelope }): Promise<void> {
  if (response.body.success && target.method !== 'GET' && target.url !== VALIDATE) await seed();
}

/** The envelope of docs/api.md §3, whatever the request. */
function expectEnvelope(response: { status: number; body: Envelope }): void {
  const { status, body } = response;
  expect(status).toBeLessThan(500);
  expect(typeof body.success).toBe('boolean');
  expect(Array.isArray(body.errors)).toBe(true);
  expect(Array.isArray(body.messages)).toBe(true);
  expect(Object.hasOwn(body, 'result')).toBe(true);
  expect(status >= 200 && status < 300).toBe(body.success);
  if (body.success) {
    expect(body.errors).toEqual([]);
  } else {
    expect(body.result).toBeNull();
    expect(body.errors.length).toBeGreaterThan(0);
    for (const error of body.errors) {
      expect(typeof error.code).toBe('number');
      expect(typeof error.message).toBe('string');
    }
  }
  expect(h.internalErrors).toEqual([]);
}

// ——— arbitraries ———

const awkwardChar = fc.constantFrom(
  '"',
  '\\',
  "'",
  '\u0000',
  '\u0007',
  '\u001f',
  '\u007f',
  '\ud800',
  '\udfff',
  '\u2028',
  '\ufeff',
  'é',
  'ß',
  '🙂',
  ' ',
  '\n',
  '\r',
  '\t',
  '%',
  '&',
  '=',
  '?',
  '#',
  '+',
  '/',
  '~',
);
const awkwardString = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: awkwardChar, maxLength: 40 }),
  fc.string({ unit: 'grapheme-ascii', maxLength: 40 }),
);
const hugeNumber = fc.oneof(
  fc.constantFrom(2 ** 31, 2 ** 53, -(2 ** 53), Number.MAX_VALUE, Number.MIN_VALUE, -0, 1e21, 0.1),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.bigInt().map((n) => n.toString()),
);
const expressionText = fc.oneof(
  fc.constantFrom(
    'ssl',
    'not ssl',
    'ip.src eq 1.2.3',
    'ip.src in {192.0.2.0/24}',
    'http.host matches "^a.*"',
    'http.request.uri.path contains "/admin" and ip.src ne 192.0.2.1',
    'http.host eq "seed.example"',
    'lower(http.host) eq "x"',
    '(((',
    '',
  ),
  fc.integer({ min: 0, max: 1_000_000 }).map((n) => `http.host eq "h${n}.example"`),
  awkwardString.map((text) => `http.host eq ${JSON.stringify(text)}`),
  awkwardString,
);

/** A random value for a field: any JSON, hostile text, numbers, ids (placeholders, unknown, malformed)… */
const anId = fc.constantFrom<string>(...PLACEHOLDERS, 'f'.repeat(32), 'nope');
function fieldValue(): fc.Arbitrary<unknown> {
  const id = anId;
  return fc.oneof(
    fc.jsonValue({ maxDepth: 2 }),
    awkwardString,
    hugeNumber,
    id,
    expressionText,
    fc.constantFrom(...FIREWALL_RULE_ACTIONS, 'drop'),
    fc.constantFrom(true, false, null, 0, -1, 2_147_483_647, 2_147_483_648),
    fc.array(fc.constantFrom('waf', 'uaBlock', 'bic', 'hot', 'nothing'), { maxLength: 4 }),
    fc.record({ id }, { requiredKeys: [] }),
    fc.record(
      { expression: expressionText, description: awkwardString, ref: awkwardString },
      { requiredKeys: [] },
    ),
  );
}

const KEYS = [
  'id',
  'expression',
  'description',
  'paused',
  'ref',
  'action',
  'priority',
  'products',
  'filter',
  'delete_filter_if_unused',
  'name',
  'plan',
  'account',
  'type',
  '__proto__',
  'constructor',
] as const;

/** Objects with the keys the API reads, holding random values. */
const shapedObject = fc.dictionary(fc.oneof(fc.constantFrom(...KEYS), awkwardString), fieldValue(), {
  maxKeys: 7,
});

const deeplyNested = fc
  .tuple(
    fc.integer({ min: 50, max: 20_000 }),
    fc.constantFrom('[', '{"filter":', '{"a":[', '[{"expression":'),
  )
  .map(([depth, open]) => {
    const close = open
      .split('')
      .reverse()
      .map((c) => (c === '[' ? ']' : c === '{' ? '}' : ''))
      .join('');
    return `${open.repeat(depth)}1${close.repeat(depth)}`;
  });

/** JSON text of every kind the brief names: any value, API-shaped objects, hostile strings, huge numbers. */
function jsonBody(): fc.Arbitrary<string> {
  const jsonable = fc
    .anything()
    .map((value) => {
      try {
        return JSON.stringify(value);
      } catch {
        return undefined;
      }
    })
    .filter((text): text is string => text !== undefined);
  return fc.oneof(
    fc.jsonValue().map((value) => JSON.stringify(value)),
    jsonable,
    shapedObject.map((value) => JSON.stringify(value)),
    fc.array(shapedObject, { maxLength: 5 }).map((value) => JSON.stringify(value)),
    fc
      .tuple(
        fc.constantFrom(...KEYS),
        fc.constantFrom('1e400', '-1e400', '123456789012345678901234567890', '1e-400'),
      )
      .map(
        ([key, number]) =>
          `[{"${key}":${number},"expression":"ssl","action":"block","filter":{"id":${number}}}]`,
      ),
    deeplyNested,
  );
}

/** A query string: known keys with random values (sometimes repeated), or raw random text. */
function queryText(): fc.Arbitrary<string> {
  const key = fc.constantFrom(
    'page',
    'per_page',
    'id',
    'paused',
    'expression',
    'description',
    'ref',
    'action',
    'delete_filter_if_unused',
    'name',
    'account.id',
  );
  const value = fc.oneof(
    awkwardString,
    fc.constantFrom('1', '5', '25', '100', '101', '0', '-1', '1e3', '99999999999', 'true', 'false', ''),
    anId,
    expressionText,
  );
  const encode = (pairs: [string, string][]) => {
    const params = new URLSearchParams();
    for (const [k, v] of pairs) params.append(k, v);
    return `?${params.toString()}`;
  };
  return fc.oneof(
    fc.dictionary(key, value, { maxKeys: 6 }).map((dict) => encode(Object.entries(dict))),
    fc.array(fc.tuple(key, value), { maxLength: 6 }).map(encode),
    fc
      .string({ unit: fc.oneof(awkwardChar, fc.constantFrom('[', ']', 'a', '1')), maxLength: 30 })
      .map((raw) => `?${raw}`),
    fc.string({ unit: 'binary', maxLength: 30 }).map((raw) => `?${raw}`),
  );
}

// ——— properties ———

describe('random requests always get the envelope, never a 5xx', () => {
  it(
    '(a) random JSON bodies on every write endpoint',
    async () => {
      await seed();
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...BODY_TARGETS), jsonBody(), async (target, payload) => {
          const response = await request(target, '', payload);
          expectEnvelope(response);
          await reseedAfter(target, response);
        }),
        { numRuns: 800 },
      );
    },
    TIMEOUT,
  );

  it(
    '(a) random query strings on every list and delete endpoint',
    async () => {
      await seed();
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...QUERY_TARGETS), queryText(), async (target, query) => {
          const response = await request(target, query);
          expectEnvelope(response);
          if (response.body.success && target.method === 'GET' && LISTS.includes(target.url)) {
            expect(Array.isArray(response.body.result)).toBe(true);
            expect(response.body.result_info?.count).toBe(response.body.result.length);
          }
          await reseedAfter(target, response);
        }),
        { numRuns: 500 },
      );
    },
    TIMEOUT,
  );
});

describe('(b) a failed write changes nothing', () => {
  /** Everything the writes could touch. */
  const state = async () => ({ zone: await snapshot(h, Z), zones: await listAll(h, '/client/v4/zones') });

  /** Compares the state before and after a request that failed. */
  const expectUnchanged = async (
    before: Awaited<ReturnType<typeof state>>,
    response: { body: Envelope },
  ): Promise<void> => {
    const after = await state();
    if (response.body.errors[0]?.code === 10203) {
      // The documented exception (§6.3): the inline filters may be created, never the rules.
      expect(after.zone.rules).toEqual(before.zone.rules);
    } else {
      expect(after).toEqual(before);
    }
  };

  it(
    'random bodies, and batches of valid items with one random item',
    async () => {
      await seed();
      const validFilter = fc
        .integer({ min: 0, max: 1_000_000 })
        .map((n) => ({ expression: `http.host eq "ok${n}.example"` }));
      const validItem = fc.oneof(
        validFilter,
        validFilter.map((filter) => ({ action: 'block', filter })),
        fc.constantFrom(...FILTERS).map((id) => ({ action: 'allow', filter: { id } })),
        fc
          .tuple(fc.constantFrom(...FILTERS), validFilter)
          .map(([id, { expression }]) => ({ id, expression })),
        fc.constantFrom(...RULES).map((id) => ({ id, priority: 1 })),
        fc.constantFrom(...RULES).map((id) => ({ id })),
      );
      const batchWithOneBadItem = fc
        .tuple(fc.array(validItem, { maxLength: 4 }), fieldValue(), fc.nat())
        .map(([items, bad, at]) => {
          const batch: unknown[] = [...items];
          batch.splice(at % (items.length + 1), 0, bad);
          return JSON.stringify(batch);
        });
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...BODY_TARGETS),
          fc.oneof(jsonBody(), batchWithOneBadItem),
          async (target, payload) => {
            const before = await state();
            const response = await request(target, '', payload);
            expectEnvelope(response);
            if (response.body.success) await reseedAfter(target, response);
            else await expectUnchanged(before, response);
          },
        ),
        { numRuns: 300 },
      );
    },
    TIMEOUT,
  );

  it(
    'random queries on the deletes',
    async () => {
      await seed();
      const deletes = QUERY_TARGETS.filter((target) => target.method === 'DELETE');
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...deletes), queryText(), async (target, query) => {
          const before = await state();
          const response = await request(target, query);
          expectEnvelope(response);
          if (response.body.success) await reseedAfter(target, response);
          else await expectUnchanged(before, response);
        }),
        { numRuns: 200 },
      );
    },
    TIMEOUT,
  );
});

describe('(c) random bytes as a JSON body', () => {
  it(
    'are 400 6007 when they are not JSON, and never a 5xx',
    async () => {
      await seed();
      const validJson = JSON.stringify([
        { expression: 'http.host eq "x"', action: 'block', filter: { expression: 'ssl' } },
      ]);
      const bytes = fc.oneof(
        fc.uint8Array({ maxLength: 200 }),
        // Valid JSON with a few bytes changed: mostly malformed, sometimes not.
        fc
          .array(fc.tuple(fc.nat({ max: validJson.length - 1 }), fc.integer({ min: 0, max: 255 })), {
            minLength: 1,
            maxLength: 3,
          })
          .map((changes) => {
            const buffer = Buffer.from(validJson);
            for (const [at, byte] of changes) buffer[at] = byte;
            return new Uint8Array(buffer);
          }),
        // Truncated JSON.
        fc.nat({ max: validJson.length - 1 }).map((n) => new Uint8Array(Buffer.from(validJson.slice(0, n)))),
      );
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...BODY_TARGETS), bytes, async (target, raw) => {
          const buffer = Buffer.from(raw);
          const response = await request(target, '', buffer);
          expectEnvelope(response);
          await reseedAfter(target, response);
          // Bytes that are not UTF-8 are refused as such, even where a lenient decoding would parse.
          let text: string;
          try {
            text = new TextDecoder('utf-8', { fatal: true }).decode(buffer);
          } catch {
            expectFailure(response, 400, 6007);
            expect(response.body.errors[0]?.message).toBe(
              'Malformed JSON in request body: it is not valid UTF-8',
            );
            return;
          }
          let parses = text.trim() === '';
          try {
            JSON.parse(text);
            parses = true;
          } catch {
            // Not JSON.
          }
          if (!parses) {
            expectFailure(response, 400, 6007);
            expect(response.body.errors[0]?.message).toBe('Malformed JSON in request body');
          }
        }),
        { numRuns: 500 },
      );
    },
    TIMEOUT,
  );
});

describe('(d) a 10 MB body', () => {
  it('is refused with 413 and 7002 on every endpoint that takes a body, and nothing is stored', async () => {
    await seed();
    const before = await snapshot(h, Z);
    const payload = JSON.stringify([{ expression: `http.host eq "${'a'.repeat(10 * 1024 * 1024)}"` }]);
    expect(payload.length).toBeGreaterThan(10 * 1024 * 1024);
    for (const target of BODY_TARGETS) {
      const response = await request(target, '', payload);
      expectFailure(response, 413, 7002);
    }
    expect(await snapshot(h, Z)).toEqual(before);
  });
});
