/**
 * API service benchmark: HTTP throughput and latency of the real service (buildApp on a SQLite store, a
 * real socket), measured with autocannon against a baseline measured in the same run: a bare Fastify route
 * answering a fixed envelope. Rows: the baseline, listing filters, listing firewall rules, creating filters
 * (each request a new expression) on the in-memory store, and creating filters on a database file (WAL,
 * synchronous=FULL: one fsync per acknowledged write, as `cfrules serve` runs).
 *
 * The servers run in a worker thread and autocannon in the main thread, so that the load generator does not
 * share an event loop with the service it measures.
 * Usage: npm run bench:api [-- --write]   (--write updates bench/RESULTS.md)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isMainThread, parentPort, Worker } from 'node:worker_threads';
import Fastify, { type FastifyInstance } from 'fastify';
import { API_PREFIX, buildApp } from '../src/http/app.js';
import { applyConfig, readConfig } from '../src/service/setup.js';
import { openSqliteStore } from '../src/store/sqlite.js';
import type { Store } from '../src/store/store.js';
import { publish } from './results.js';

const ACCOUNT = '0123456789abcdef0123456789abcdef';
const TOKEN = 'B'.repeat(40);
const ZONE = '023e105f4ecef8ad9ca31a8372d0c353';
const CONFIG = {
  accounts: [
    {
      id: ACCOUNT,
      email: 'bench@example.com',
      tokens: [{ value: TOKEN, zones: ['*'], permissions: ['read', 'edit'] }],
    },
  ],
  zones: [{ id: ZONE, name: 'example.com', plan: 'enterprise', account: ACCOUNT }],
};
/** Filters and rules in the zone whose lists are measured (the lists answer the default page of 25). */
const SEEDED = 100;
const DURATION_S = 5;
const WARMUP_S = 1;
const CONNECTIONS = 10;

/** Base URLs of the servers, sent by the worker once they listen and hold their data. */
interface Servers {
  baseline: string;
  memory: string;
  file: string;
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
  const service = async (path: string) => {
    const store = openSqliteStore(path);
    stores.push(store);
    applyConfig(store, readConfig(CONFIG));
    return `${await listen(buildApp({ store }))}${API_PREFIX}`;
  };

  const stop = async () => {
    for (const app of apps) await app.close();
    for (const store of stores) store.close();
    rmSync(dir, { recursive: true, force: true });
  };

  let servers: Servers;
  try {
    const baseline = Fastify({ logger: false });
    const envelope = { result: [], success: true, errors: [], messages: [] };
    baseline.get(`${API_PREFIX}/baseline`, async () => envelope);
    servers = {
      baseline: `${await listen(baseline)}${API_PREFIX}`,
      memory: await service(':memory:'),
      file: await service(join(dir, 'bench.db')),
    };
    await seed(servers.memory);
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

/** SEEDED filters and as many firewall rules (one per filter) in the zone, through the API. */
async function seed(base: string): Promise<void> {
  const filters = await api(
    base,
    'POST',
    '/filters',
    Array.from({ length: SEEDED }, (_, n) => ({
      expression: `http.request.uri.path contains "/seed/${n}" and ip.src ne 192.0.2.${n % 250}`,
      description: `seeded filter ${n}`,
    })),
  );
  await api(
    base,
    'POST',
    '/firewall/rules',
    filters.map((filter: { id: string }, n: number) => ({
      action: n % 2 === 0 ? 'block' : 'managed_challenge',
      description: `seeded rule ${n}`,
      filter: { id: filter.id },
    })),
  );
}

// biome-ignore lint/suspicious/noExplicitAny: the `result` of an API answer
async function api(base: string, method: string, path: string, body?: unknown): Promise<any> {
  const response = await fetch(`${base}/zones/${ZONE}${path}`, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await response.json()) as { success: boolean; result: unknown; result_info?: unknown };
  if (!response.ok || !json.success)
    throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
  return json.result;
}

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
  url: string;
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

interface Row {
  name: string;
  request: string;
  result: AutocannonResult;
  /** Latency percentiles in milliseconds, from every measured response's own time. */
  p50: number;
  p99: number;
}

/** The value below which `fraction` of the sorted values lie. */
const percentile = (sorted: Float64Array, fraction: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] ?? Number.NaN;

async function main(): Promise<void> {
  const loadAtStart = loadavg()[0] ?? Number.NaN;
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

  const measure = async (
    name: string,
    request: string,
    options: Pick<AutocannonOptions, 'url' | 'requests'>,
  ): Promise<Row> => {
    const run = autocannon({
      connections: CONNECTIONS,
      duration: DURATION_S,
      warmup: { connections: CONNECTIONS, duration: WARMUP_S },
      headers,
      ...options,
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
    console.error(`${name}: ${result.requests.average.toFixed(0)} req/s`);
    const sorted = Float64Array.from(times).sort();
    return { name, request, result, p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99) };
  };

  /** Requests creating one filter each, with an expression no other request of the run uses. */
  let created = 0;
  const creations = (base: string): AutocannonRequest[] => [
    {
      method: 'POST',
      path: zonePath(base, '/filters'),
      setupRequest: (request) => ({
        ...request,
        body: JSON.stringify([{ expression: `http.host eq "bench-${created++}.example"` }]),
      }),
    },
  ];

  const rows: Row[] = [];
  try {
    rows.push(
      await measure('baseline: bare Fastify route, fixed envelope', '`GET /client/v4/baseline`', {
        url: `${servers.baseline}/baseline`,
      }),
    );
    rows.push(
      await measure(`list filters (${SEEDED} in the zone, page of 25)`, '`GET /zones/{z}/filters`', {
        url: `${servers.memory}/zones/${ZONE}/filters`,
      }),
    );
    rows.push(
      await measure(
        `list firewall rules (${SEEDED} in the zone, page of 25)`,
        '`GET /zones/{z}/firewall/rules`',
        {
          url: `${servers.memory}/zones/${ZONE}/firewall/rules`,
        },
      ),
    );
    const memoryBefore = await count(servers.memory);
    const memory = await measure('create one filter (in-memory store)', '`POST /zones/{z}/filters`', {
      url: servers.memory,
      requests: creations(servers.memory),
    });
    rows.push(memory);
    const file = await measure(
      'create one filter (database file, WAL, synchronous=FULL)',
      '`POST /zones/{z}/filters`',
      {
        url: servers.file,
        requests: creations(servers.file),
      },
    );
    rows.push(file);
    // Every acknowledged creation (warm-up included) is stored. Requests still in flight when autocannon
    // stops (at most one per connection, at the end of the warm-up and of the run) may be stored unseen.
    for (const [base, before, row] of [
      [servers.memory, memoryBefore, memory],
      [servers.file, 0, file],
    ] as const) {
      const stored = (await count(base)) - before;
      const acknowledged = row.result['2xx'] + (row.result.warmup?.['2xx'] ?? 0);
      if (stored < acknowledged || stored > acknowledged + 2 * CONNECTIONS) {
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

  const baseline = rows[0]?.result as AutocannonResult;
  const ms = (value: number) =>
    value < 1 ? value.toFixed(2) : value < 10 ? value.toFixed(1) : value.toFixed(0);
  const table = [
    '| measurement | request | requests/s | vs baseline | p50 latency | p99 latency | errors + non-2xx |',
    '|---|---|---:|---:|---:|---:|---:|',
    ...rows.map(({ name, request, result, p50, p99 }) => {
      const ratio = result.requests.average / baseline.requests.average;
      return `| ${name} | ${request} | ${result.requests.average.toFixed(0)} | ${ratio.toFixed(2)}× | ${ms(p50)} ms | ${ms(p99)} ms | ${result.errors + result.timeouts + result.non2xx} |`;
    }),
  ];
  const machine = `${cpus()[0]?.model ?? 'unknown CPU'} × ${cpus().length}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, load average ${loadAtStart.toFixed(1)} at the start`;
  const note = `Each row is autocannon (programmatic API, ${CONNECTIONS} connections, pipelining 1, ${WARMUP_S} s of warm-up then
${DURATION_S} s measured) against servers listening on 127.0.0.1 in a worker thread of the same process, the load
generator in the main thread. "requests/s" is autocannon's mean over the measured seconds and "vs baseline"
that figure divided by the baseline's; the latencies are percentiles of every measured response's time as
the client saw it (request sent to answer received). The baseline is a bare Fastify 5 route answering a
fixed envelope: the floor of HTTP parsing and JSON serialisation on this machine. Every service request is
authenticated with an API token (a SHA-256 digest and a lookup). The lists read the first page (25) of a
zone holding ${SEEDED} filters and ${SEEDED} firewall rules. Each creation posts \`[{ expression }]\` with a new
expression, so every one is parsed, type-checked with the zone's plan, checked for duplicates and stored
in its own transaction; afterwards the run checks that the zone holds every acknowledged creation. The
last row is the same creation on a database file, as \`cfrules serve --db\` runs it: every commit is
fsynced before the answer, so it measures the disk as much as the service. Any error, timeout or non-2xx
answer fails the benchmark. On this shared 2-vCPU VM, the in-memory rows vary by ±30% between runs, and the
database-file row, which waits on the disk's fsync, by up to 5× (from 270 to 1,600 requests/s in the runs of 2026-11-22).`;
  const report = `## API (bench/api.ts)\n\nMachine: ${machine}. Date: ${new Date().toISOString().slice(0, 10)}. Command: \`npm run bench:api -- --write\`.\n\n${table.join('\n')}\n\n${note}\n`;
  publish(report);

  async function count(base: string): Promise<number> {
    const response = await fetch(`${base}/zones/${ZONE}/filters?per_page=5`, { headers });
    const body = (await response.json()) as { result_info: { total_count: number } };
    return body.result_info.total_count;
  }
}

// Last, once every declaration above is initialised.
if (isMainThread) await main();
else await serveInWorker();
