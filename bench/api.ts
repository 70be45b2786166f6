/**
 * API service benchmark: HTTP throughput and latency of the real service (buildApp on a SQLite store, a
 * real socket), measured with autocannon. Each row has a baseline of its own, measured in the same run in
 * alternating windows: a bare Fastify route answering a JSON body of the same size as the row's answer
 * (the very answer the service gave, captured once and returned as an object, so that Fastify serialises
 * it as any route would). Rows: listing filters and firewall rules (a page of 25 of 100), reading one
 * filter and one rule, and creating filters (each request a new expression) on the in-memory store and on
 * a database file in WAL mode, with synchronous=FULL (the default: one fsync per acknowledged write) and
 * with synchronous=NORMAL (`cfrules serve --synchronous normal`). With CFRULES_BENCH_POSTGRES=postgres://…,
 * also on PostgreSQL (a schema of its own, dropped at the end): listing and creating on one instance, and
 * creating through three instances on the same database, the connections spread over them.
 *
 * The servers run in a worker thread and autocannon in the main thread, so that the load generator does not
 * share an event loop with the service it measures.
 * Usage: npm run bench:api [-- --write]   (--write updates bench/RESULTS.md)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import Fastify, { type FastifyInstance } from 'fastify';
import { API_PREFIX, buildApp } from '../src/http/app.js';
import { applyConfig, readConfig } from '../src/service/setup.js';
import { openPostgresStore } from '../src/store/postgres.js';
import { openSqliteStore, type Synchronous } from '../src/store/sqlite.js';
import type { Store } from '../src/store/store.js';
import { machineDescription } from './machine.js';
import { publish } from './results.js';

const ACCOUNT = '0123456789abcdef0123456789abcdef';
const TOKEN = 'B'.repeat(40);
const ZONE = '023e105f4ecef8ad9ca31a8372d0c353';
/**
 * Zones the creations go to, in turn: a zone holds at most 5,000 filters (10105), and a fast machine creates
 * more than that in a row's windows.
 */
const CREATION_ZONES = Array.from({ length: 32 }, (_, i) => `c${i.toString(16).padStart(31, '0')}`);
const CONFIG = {
  accounts: [
    {
      id: ACCOUNT,
      email: 'bench@example.com',
      tokens: [{ value: TOKEN, zones: ['*'], permissions: ['read', 'edit'] }],
    },
  ],
  zones: [
    { id: ZONE, name: 'example.com', plan: 'enterprise', account: ACCOUNT },
    ...CREATION_ZONES.map((id, i) => ({
      id,
      name: `create-${i}.example`,
      plan: 'enterprise',
      account: ACCOUNT,
    })),
  ],
};
/** Filters and rules in the zone whose lists are measured (the lists answer the default page of 25). */
const SEEDED = 100;
/** Pairs of windows (baseline, then service) per row, and their length. */
const ROUNDS = 2;
const WINDOW_S = 3;
const WARMUP_S = 1;
const CONNECTIONS = 10;

/** What the worker sends once its servers listen and hold their data. */
interface Servers {
  /** The bare Fastify server: `/baseline/{row key}` answers what the row's service request answered. */
  baseline: string;
  memory: string;
  file: Record<Synchronous, string>;
  /** Present with CFRULES_BENCH_POSTGRES: one instance's base URL, and three instances' on one database. */
  postgres?: { one: string; three: string[] };
  filterId: string;
  ruleId: string;
  /** Size in bytes of each row's answer, by row key. */
  sizes: Record<string, number>;
}

/** The service requests whose answers the baseline repeats, by row key (a creation is captured once). */
const CAPTURED = {
  filters: { method: 'GET', path: () => '/filters' },
  rules: { method: 'GET', path: () => '/firewall/rules' },
  filter: { method: 'GET', path: (ids: Ids) => `/filters/${ids.filterId}` },
  rule: { method: 'GET', path: (ids: Ids) => `/firewall/rules/${ids.ruleId}` },
  create: { method: 'POST', path: () => '/filters' },
} as const;
type RowKey = keyof typeof CAPTURED;
interface Ids {
  filterId: string;
  ruleId: string;
}

// ---------------------------------------------------------------------------------------------- worker

async function serveInWorker(): Promise<void> {
  const port = parentPort;
  if (!port) throw new Error('bench/api.ts: not started as a worker');
  const dir = mkdtempSync(join(tmpdir(), 'cfrules-bench-api-'));
  const stores: Store[] = [];
  const apps: FastifyInstance[] = [];
  const listen = async (app: FastifyInstance) => {
    apps.push(app);
    await app.listen({ port: 0, host: '127.0.0.1' });
    return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  };
  const service = async (path: string, synchronous?: Synchronous) => {
    const store = openSqliteStore(path, { synchronous });
    return serveStore(store);
  };
  const serveStore = async (store: Store) => {
    stores.push(store);
    await applyConfig(store, readConfig(CONFIG));
    return `${await listen(buildApp({ store }))}${API_PREFIX}`;
  };
  const postgresUrl = process.env.CFRULES_BENCH_POSTGRES;
  const schema = `bench_${process.pid}_${Date.now()}`;

  const stop = async () => {
    for (const instance of instances) await instance.terminate();
    for (const app of apps) await app.close();
    for (const store of stores) await store.close();
    rmSync(dir, { recursive: true, force: true });
    if (postgresUrl) await dropSchema(postgresUrl, schema);
  };

  /**
   * One instance seeded as the in-memory one; for the creations, it and two more instances on the same
   * database, each in a thread of its own (its own event loop, as a process of its own would have).
   */
  const instances: Worker[] = [];
  const postgresServers = async (url: string) => {
    const one = await serveStore(await openPostgresStore(url, { schema }));
    await seed(one);
    const others: string[] = [];
    for (let i = 0; i < 2; i++) {
      const instance = new Worker(fileURLToPath(import.meta.url), {
        workerData: { instance: { url, schema } },
      });
      instances.push(instance);
      others.push(
        await new Promise<string>((resolve, reject) => {
          instance.once('message', resolve);
          instance.once('error', reject);
        }),
      );
    }
    return { one, three: [one, ...others] };
  };

  let servers: Servers;
  try {
    const memory = await service(':memory:');
    const ids = await seed(memory);
    const answers = {} as Record<RowKey, unknown>;
    const sizes: Record<string, number> = {};
    for (const [key, { method, path }] of Object.entries(CAPTURED) as [RowKey, (typeof CAPTURED)[RowKey]][]) {
      const body = method === 'POST' ? [{ expression: 'http.host eq "bench-captured.example"' }] : undefined;
      const text = await apiText(memory, method, path(ids), body);
      answers[key] = JSON.parse(text);
      sizes[key] = Buffer.byteLength(text);
    }
    const baseline = Fastify({ logger: false });
    for (const [key, answer] of Object.entries(answers)) {
      // The same work as any route: parse the request's JSON body (for POST), serialise an object.
      const method = CAPTURED[key as RowKey].method;
      baseline.route({ method, url: `${API_PREFIX}/baseline/${key}`, handler: async () => answer });
    }
    servers = {
      baseline: `${await listen(baseline)}${API_PREFIX}/baseline`,
      memory,
      file: {
        full: await service(join(dir, 'full.db'), 'full'),
        normal: await service(join(dir, 'normal.db'), 'normal'),
      },
      ...(postgresUrl ? { postgres: await postgresServers(postgresUrl) } : {}),
      ...ids,
      sizes,
    };
  } catch (error) {
    await stop();
    throw error;
  }

  port.on('message', async (message) => {
    if (message !== 'stop') return;
    await stop();
    port.postMessage('stopped');
    port.close();
  });
  port.postMessage(servers);
}

/** A further PostgreSQL instance, in a thread of its own: posts its base URL once it listens. */
async function serveInstance({ url, schema }: { url: string; schema: string }): Promise<void> {
  const store = await openPostgresStore(url, { schema });
  await applyConfig(store, readConfig(CONFIG));
  const app = buildApp({ store });
  await app.listen({ port: 0, host: '127.0.0.1' });
  parentPort?.postMessage(`http://127.0.0.1:${(app.server.address() as AddressInfo).port}${API_PREFIX}`);
}

async function dropSchema(url: string, schema: string): Promise<void> {
  const { Client } = (await import('pg')).default;
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  } finally {
    await client.end();
  }
}

/** SEEDED filters and as many firewall rules (one per filter) in the zone, through the API. */
async function seed(base: string): Promise<Ids> {
  const filters = await api(
    base,
    'POST',
    '/filters',
    Array.from({ length: SEEDED }, (_, n) => ({
      expression: `http.request.uri.path contains "/seed/${n}" and ip.src ne 192.0.2.${n % 250}`,
      description: `seeded filter ${n}`,
    })),
  );
  const rules = await api(
    base,
    'POST',
    '/firewall/rules',
    filters.map((filter: { id: string }, n: number) => ({
      action: n % 2 === 0 ? 'block' : 'managed_challenge',
      description: `seeded rule ${n}`,
      filter: { id: filter.id },
    })),
  );
  return { filterId: filters[0].id, ruleId: rules[0].id };
}

// biome-ignore lint/suspicious/noExplicitAny: the `result` of an API answer
async function api(base: string, method: string, path: string, body?: unknown): Promise<any> {
  return JSON.parse(await apiText(base, method, path, body)).result;
}

/** The text of a successful answer of the zone's API; throws on any other. */
async function apiText(base: string, method: string, path: string, body?: unknown): Promise<string> {
  const response = await fetch(`${base}/zones/${ZONE}${path}`, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok || !(JSON.parse(text) as { success: boolean }).success)
    throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return text;
}

/**
 * Where a request's time went before and after the work of issue 10 (part 3), from CPU profiles: not
 * re-measured by this benchmark, kept here so that the section it writes keeps them.
 */
const PROFILE = `### Where a request's time goes (CPU profiles)

Profiled with \`node --cpu-prof\` on the service alone (buildApp + openSqliteStore(':memory:'), seeded as
above, bundled with esbuild), loaded by autocannon from another process (10 connections, 8 s), each sample
put in the first category its stack matches. Figures are CPU µs per request; a neighbour's load on the
2 vCPUs (load average 2–10 during these runs) inflates them all, the socket writes most, so read the
categories that vanished rather than the totals. "HTTP" is Node's HTTP and Fastify (parsing, routing,
hooks), "JSON" Fastify's serialisation (JSON.stringify), "writes" the samples taken in the socket's writev
system call: one per response for the service as for the bare route (strace), but it carries the kernel's
delivery to the client over loopback, and the sampling lands there more often in the slower process.

| request | before | where it went before | after | where it goes after |
|---|---:|---|---:|---|
| list filters | 405 µs | store 190 (better-sqlite3 making an object and a string per column of 25 rows, and 3 transactions: token, zone, page), HTTP 85, writes 65, JSON 21, credentials 18 (SHA-256, a token query, JSON.parse of its lists), zone 9 | 116 µs | writes 55, HTTP 35, JSON 19, credentials 1.5, zone 1, store 0.4 (the page from memory) |
| list firewall rules | 458 µs | store 249 (the page, then one query per rule for its filter), HTTP 75, writes 57, JSON 33, credentials 21, zone 5 | 194 µs | writes 80, HTTP 55, JSON 44, credentials 2, zone 1.4, store 0.4 |
| get one filter | 92 µs | writes 44, HTTP 21, credentials 12, store 4, zone 4, JSON 3 | 61 µs | writes 32, HTTP 23, JSON 2, credentials 1, zone 0.7, store 0.2 |
| get one firewall rule | 103 µs | writes 50, HTTP 20, credentials 16, store 8 (rule, then filter), zone 5, JSON 3 | 63 µs | writes 36, HTTP 20, JSON 3, credentials 1, zone 0.6, store 0.3 |
| create one filter | 226 µs | writes 77, HTTP 54, store 46 (the INSERT ~23, randomBytes for the id ~11, the duplicate check, BEGIN/COMMIT), credentials 19, expression check 12, zone 9 | 189 µs | writes 77, store 48 (the INSERT ~24 of it, BEGIN/COMMIT ~10, the duplicate check ~5; the id 1), HTTP 44, expression check 10, JSON 3.5, credentials 1.7, zone 1.2 |
| create one filter, then migration 4 (load average 4) | 202 µs | writes 77, HTTP ~50, store 37 (the INSERT 23, BEGIN/COMMIT 9, the duplicate check 5), expression check 14, the date 3.6, JSON 3.4, GC 3.2, credentials 1.8, zone 1.2 | 163 µs | writes 63, HTTP ~45, store 23 (the INSERT, duplicate check included, 17; BEGIN/COMMIT 6), expression check 13, GC 4, JSON 3.2, the date 2.9, credentials 1.6, zone 1.1 |

What changed: known credentials and zones are kept in memory (src/service/store-cache.ts), so a request
no longer hashes its token nor queries for it; the answers of filter and rule reads are kept until the
next write to their tables; rows are read as arrays of values rather than objects (a page read from SQLite,
as right after a write, fell from 190 to 107 µs in the same kind of profile, a page of rules from 249 to
162 µs); a rule's filter comes in the same query (one join, not one query per rule); hooks and handlers
are synchronous (no promise per hook); ids come from a pool of random bytes. Every cached value is dropped
as soon as its tables change: \`Store.generation\` counts this process's writes per table (rollbacks
included) and SQLite's \`data_version\` reveals commits by other processes. Response serialisation was
measured and left alone: fast-json-stringify with a schema for the envelope and the objects took as long
as JSON.stringify on these string-heavy answers (13.6 against 13.5 µs for the page of filters, 24.8 against
26.0 µs for the page of rules), and a schema would have to track every optional key to keep the output
byte for byte. What is left of a read is HTTP and JSON, as on the bare route.

A creation, next (the last row, profiled as above, the bare route beside it at 31.5 µs: writes 14.5, the
rest HTTP, JSON and GC). A filter's INSERT wrote six B-trees: the table, UNIQUE (id), UNIQUE (zone_id,
expression), UNIQUE (zone_id, id), the (zone_id, seq) order index, and sqlite_sequence for AUTOINCREMENT.
Migration 4 rebuilds the table without UNIQUE (id) (every lookup names the zone; ids are 128 random bits)
and without AUTOINCREMENT (a plain INTEGER PRIMARY KEY still orders by creation: a new row gets the
largest seq plus one); and the duplicate check is now the INSERT itself (\`ON CONFLICT (zone_id, expression)
DO NOTHING\`: no row written means a duplicate), one statement instead of a lookup then a write, with the
same errors in the same order. The store's part fell from 37 to 23 µs, the creation from 65 to 46 µs. In a
tight loop the INSERT costs ~8 µs; in the server 17, as the request's other work evicts SQLite's pages from
the CPU caches between requests (with 8 MiB touched between transactions, a transaction takes 60 µs). The
random ids are the costly keys: an index on them is written at a random leaf each time, and the page
splits that follow make SQLite's commit scan the whole page-cache hash table now and then
(pcache1TruncateUnsafe, 26% of a tight loop's time in \`perf\` before the migration, ~1% of the server's
after). What is left, against the bare route: writes +48 µs, not more work but the cost of waking the
client: \`perf\` puts the kernel's time in the wake-up path (finish_task_switch, spin_unlock_irqrestore), and
a bare route made to spin 80 µs per request sees its writev go from 25 to 58 µs, so the slower the server,
the more each write costs on this VM; the expression check ~13 µs (Chevrotain's lexer and parser most of it,
src/lang); the store 23 µs (the INSERT into four B-trees, BEGIN/COMMIT); ~10 µs of HTTP for the
credentials hook, the zone, the envelope and the header; the date, GC. process.cpuUsage over a run gives
140 µs per creation against 34.5 µs for the bare route (162 µs before the migration).`;

// ------------------------------------------------------------------------------------------------ main

/** The part of autocannon's programmatic API used here (the package has no type declarations). */
interface AutocannonRequest {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string;
  setupRequest?: (request: AutocannonRequest) => AutocannonRequest;
}
interface AutocannonOptions {
  /** Several URLs spread the connections over them. */
  url: string | string[];
  connections: number;
  duration: number;
  headers?: Record<string, string>;
  method?: string;
  warmup?: { connections: number; duration: number };
  requests?: AutocannonRequest[];
}
interface AutocannonResult {
  requests: { average: number; total: number };
  errors: number;
  timeouts: number;
  non2xx: number;
  '2xx': number;
  /** The warm-up's own figures, when there was one. */
  warmup?: AutocannonResult;
}
/** A run: a promise of its result that also emits `response` (client, status, bytes, milliseconds). */
type AutocannonRun = Promise<AutocannonResult> & {
  on(event: 'response', listener: (client: unknown, status: number, bytes: number, ms: number) => void): void;
};
type Autocannon = (options: AutocannonOptions) => AutocannonRun;

/** One window of autocannon: its result and the time of every measured response. */
interface Window {
  result: AutocannonResult;
  times: number[];
}

interface Row {
  name: string;
  request: string;
  /** Bytes of the answer (the baseline answers as many). */
  bytes: number;
  /** The lowest acceptable ratio to the baseline; undefined when the row has no target. */
  target?: number;
  service: Window[];
  baseline: Window[];
}

/** The value below which `fraction` of the sorted values lie. */
const percentile = (sorted: Float64Array, fraction: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] ?? Number.NaN;

/** Mean requests per second over windows of equal length. */
const rate = (windows: Window[]): number =>
  windows.reduce((sum, { result }) => sum + result.requests.average, 0) / windows.length;

/** A row's service or baseline side: what autocannon requests. */
type Target = Pick<AutocannonOptions, 'url' | 'requests'>;

async function main(): Promise<void> {
  const machine = machineDescription(); // before the load this benchmark puts on the machine
  // Loaded from node_modules at run time: autocannon is a CommonJS package that a bundle cannot inline.
  const load = createRequire(import.meta.url);
  const autocannon = load('autocannon') as Autocannon;

  const worker = new Worker(fileURLToPath(import.meta.url));
  const servers = await new Promise<Servers>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
  const zonePath = (base: string, rest: string) => `${new URL(base).pathname}/zones/${ZONE}${rest}`;

  const window = async (name: string, target: Target): Promise<Window> => {
    const run = autocannon({
      connections: CONNECTIONS,
      duration: WINDOW_S,
      warmup: { connections: CONNECTIONS, duration: WARMUP_S },
      headers,
      ...target,
    });
    // autocannon's own percentiles are whole milliseconds (an integer histogram): keep the exact times.
    const times: number[] = [];
    run.on('response', (_client, _status, _bytes, ms) => {
      times.push(ms);
    });
    const result = await run;
    const failed = result.errors + result.timeouts + result.non2xx;
    if (failed > 0 || result['2xx'] === 0) {
      throw new Error(
        `${name}: ${result.errors} errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx answers, ${result['2xx']} 2xx`,
      );
    }
    return { result, times };
  };

  /** The row's baseline and service in alternating windows, so that both see the machine as it was. */
  const measure = async (
    row: Omit<Row, 'service' | 'baseline' | 'bytes'>,
    key: RowKey,
    service: Target,
  ): Promise<Row> => {
    const baselineTarget: Target = {
      url: `${servers.baseline}/${key}`,
      requests: service.requests?.map((request) => ({
        ...request,
        path: `${new URL(servers.baseline).pathname}/${key}`,
      })),
    };
    const measured: Row = { ...row, bytes: servers.sizes[key] as number, service: [], baseline: [] };
    for (let round = 0; round < ROUNDS; round++) {
      measured.baseline.push(await window(`${row.name} (baseline)`, baselineTarget));
      measured.service.push(await window(row.name, service));
    }
    console.error(
      `${row.name}: ${rate(measured.service).toFixed(0)} req/s, baseline ${rate(measured.baseline).toFixed(0)} req/s`,
    );
    return measured;
  };

  /** Requests creating one filter each, with an expression no other request of the run uses. */
  let created = 0;
  const creations = (base: string | string[]): AutocannonRequest[] => [
    {
      method: 'POST',
      path: zonePath(Array.isArray(base) ? (base[0] as string) : base, '/filters'),
      setupRequest: (request) => {
        const n = created++;
        const zone = CREATION_ZONES[n % CREATION_ZONES.length] as string;
        return {
          ...request,
          // The service's path names the zone; the baseline's (the same request, to the bare route) does not.
          path: request.path?.replace(`/zones/${ZONE}/`, `/zones/${zone}/`),
          body: JSON.stringify([{ expression: `http.host eq "bench-${n}.example"` }]),
        };
      },
    },
  ];

  const rows: Row[] = [];
  try {
    const get = (base: string, rest: string): Target => ({ url: `${base}/zones/${ZONE}${rest}` });
    rows.push(
      await measure(
        {
          name: `list filters (${SEEDED} in the zone, page of 25)`,
          request: '`GET /zones/{z}/filters`',
          target: 0.5,
        },
        'filters',
        get(servers.memory, '/filters'),
      ),
    );
    rows.push(
      await measure(
        {
          name: `list firewall rules (${SEEDED} in the zone, page of 25)`,
          request: '`GET /zones/{z}/firewall/rules`',
          target: 0.5,
        },
        'rules',
        get(servers.memory, '/firewall/rules'),
      ),
    );
    rows.push(
      await measure(
        { name: 'get one filter', request: '`GET /zones/{z}/filters/{id}`', target: 0.5 },
        'filter',
        get(servers.memory, `/filters/${servers.filterId}`),
      ),
    );
    rows.push(
      await measure(
        { name: 'get one firewall rule', request: '`GET /zones/{z}/firewall/rules/{id}`', target: 0.5 },
        'rule',
        get(servers.memory, `/firewall/rules/${servers.ruleId}`),
      ),
    );
    if (servers.postgres) {
      rows.push(
        await measure(
          {
            name: `list filters (PostgreSQL, ${SEEDED} in the zone, page of 25)`,
            request: '`GET /zones/{z}/filters`',
          },
          'filters',
          get(servers.postgres.one, '/filters'),
        ),
      );
    }
    // [row, creations stored while it ran]: counted right after each row, since the PostgreSQL rows share a database.
    const creationRows: [Row, number][] = [];
    const creationTargets: [string, string | string[], number | undefined][] = [
      ['create one filter (in-memory store)', servers.memory, 0.4],
      ['create one filter (database file, WAL, synchronous=FULL)', servers.file.full, undefined],
      ['create one filter (database file, WAL, synchronous=NORMAL)', servers.file.normal, undefined],
    ];
    if (servers.postgres) {
      creationTargets.push(
        ['create one filter (PostgreSQL, one instance)', servers.postgres.one, undefined],
        [
          'create one filter (PostgreSQL, three instances on one database)',
          servers.postgres.three,
          undefined,
        ],
      );
    }
    for (const [name, base, target] of creationTargets) {
      const first = Array.isArray(base) ? (base[0] as string) : base;
      const before = await count(first);
      const row = await measure({ name, request: '`POST /zones/{z}/filters`', target }, 'create', {
        url: base,
        requests: creations(base),
      });
      rows.push(row);
      creationRows.push([row, (await count(first)) - before]);
    }
    // Every acknowledged creation (warm-ups included) is stored. Requests still in flight when autocannon
    // stops (at most one per connection, at the end of each warm-up and each window) may be stored unseen.
    for (const [row, stored] of creationRows) {
      const acknowledged = row.service.reduce(
        (sum, { result }) => sum + result['2xx'] + (result.warmup?.['2xx'] ?? 0),
        0,
      );
      if (stored < acknowledged || stored > acknowledged + 2 * ROUNDS * CONNECTIONS) {
        throw new Error(`${row.name}: ${acknowledged} creations acknowledged, ${stored} stored`);
      }
    }
  } finally {
    const stopped = new Promise((resolve) => {
      worker.once('message', resolve);
      worker.once('exit', resolve);
    });
    worker.postMessage('stop');
    await stopped;
    await worker.terminate();
  }

  const ms = (value: number) =>
    value < 1 ? value.toFixed(2) : value < 10 ? value.toFixed(1) : value.toFixed(0);
  const table = [
    '| measurement | request | answer | requests/s | baseline requests/s | vs baseline | target | met | p50 latency | p99 latency |',
    '|---|---|---:|---:|---:|---:|---:|:--:|---:|---:|',
    ...rows.map(({ name, request, bytes, target, service, baseline }) => {
      const ratio = rate(service) / rate(baseline);
      const sorted = Float64Array.from(service.flatMap((w) => w.times)).sort();
      const met = target === undefined ? '—' : ratio >= target ? 'yes' : '**no**';
      return `| ${name} | ${request} | ${bytes} B | ${rate(service).toFixed(0)} | ${rate(baseline).toFixed(0)} | ${ratio.toFixed(2)}× | ${target === undefined ? '—' : `≥ ${target}×`} | ${met} | ${ms(percentile(sorted, 0.5))} ms | ${ms(percentile(sorted, 0.99))} ms |`;
    }),
  ];
  const note = `Each row is autocannon (programmatic API, ${CONNECTIONS} connections, pipelining 1) against servers listening
on 127.0.0.1 in a worker thread of the same process, the load generator in the main thread. A row is
${ROUNDS} pairs of windows (${WARMUP_S} s of warm-up then ${WINDOW_S} s measured), its baseline's window then its own, so that
both sides of a ratio ran on the machine as it was at that moment. The baseline of each row is a bare
Fastify 5 route answering the same JSON as the row's request (captured from the service once, returned as
an object that Fastify serialises; for the creations, a POST route that parses the same kind of body):
the floor of HTTP, body parsing and JSON serialisation for an answer of that size on this machine.
"requests/s" is autocannon's mean over the measured seconds, and "vs baseline" the row's figure divided
by its baseline's; the latencies are percentiles of every measured response's time as the client saw it.
Every service request is authenticated with an API token. The read rows repeat one request with no write
in between, so all but the first are answered from the service's in-memory copy of that answer (dropped
at the next write to its tables), as a client polling a list sees it; a read right after a write reads
SQLite again, at the cost shown in the profiles below. The lists read the first page (25) of a zone
holding ${SEEDED} filters and ${SEEDED} firewall rules. Each creation posts \`[{ expression }]\` with a new expression,
so every one is parsed, type-checked with the zone's plan, checked for duplicates and stored in its own
transaction; afterwards the run checks that the zone holds every acknowledged creation. The database-file
rows are the same creation as \`cfrules serve --db\` runs it: with synchronous=FULL (the default) every
commit is fsynced before the answer, so the row measures the disk as much as the service; with
\`--synchronous normal\` commits are fsynced at checkpoints only (see docs/api.md for what that risks).
The PostgreSQL rows (run with CFRULES_BENCH_POSTGRES=postgres://…, a
local server) are the same requests on the PostgreSQL store: a pool of 10 connections, every transaction
SERIALIZABLE, a NOTIFY per write; "three instances" are three services on one database, each in a thread
of its own (its own event loop and pool, as processes would have), autocannon spreading its connections
over them: on 2 vCPUs shared with the server and the load generator, it shows what instances cost each
other (serialisation retries, each other's notifications) more than what more cores would add. Any error, timeout or non-2xx answer fails the benchmark. On this shared 2-vCPU VM the in-memory rows vary
by ±30% between runs, and the synchronous=FULL row, which waits on the disk's fsync, by up to 5×: in the
runs of 2026-11-24 before migration 4, the in-memory creation gave 0.25× its baseline with the machine
quiet (load average 2.6) and 0.36–0.43× while a neighbour kept it at 7–20 (the bare route then loses more
than the service); after it, 0.18–0.45× over five runs at load averages 2.4–6 (the service at 4,900–6,500
requests/s, its bare route anywhere from 14,600 to 30,600: 0.18× is the run where the bare route had the
machine to itself), and in runs of the creation row alone alternating the code before and after the
migration, 5,074 and 6,236 requests/s before against 6,249 and 6,511 after;
synchronous=FULL gave 2,562 requests/s quiet and 237–1,053 loaded, synchronous=NORMAL 2,626 quiet and
1,692–2,358 loaded: NORMAL gains little while fsync is fast, and 2–7× when the disk is busy.`;
  const report = `## API (bench/api.ts)\n\nMachine: ${machine}. Date: ${new Date().toISOString().slice(0, 10)}. Command: \`npm run bench:api -- --write\`.\n\n${table.join('\n')}\n\n${note}\n\n${PROFILE}\n`;
  publish(report);

  /** The filters of the creations' zones, all together. */
  async function count(base: string): Promise<number> {
    let total = 0;
    for (const zone of CREATION_ZONES) {
      const response = await fetch(`${base}/zones/${zone}/filters?per_page=5`, { headers });
      const body = (await response.json()) as { result_info: { total_count: number } };
      total += body.result_info.total_count;
    }
    return total;
  }
}

// Last, once every declaration above is initialised.
if (isMainThread) await main();
else if (workerData?.instance) await serveInstance(workerData.instance);
else await serveInWorker();
