// The service as deployed (the built `cfrules serve`, a database file, real sockets) under the conditions
// docs/api.md §1 promises to survive: a kill -9 in the middle of a burst of writes loses no acknowledged
// write; concurrent writers to one zone each get a correct answer and every acknowledged write is stored;
// SIGTERM lets the request in progress finish before the process exits 0.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { stringify } from 'yaml';
import { type ServeProcess, startServe } from '../cli/serve-process.js';
import { CONFIG, TOKEN, ZONES } from './harness.js';

// biome-ignore lint/suspicious/noExplicitAny: API answers, checked by the assertions
type Json = any;

let dir: string;
let configFile: string;
const running: ServeProcess[] = [];

beforeAll(() => {
  const buildError = inject('cliBuildError');
  if (buildError) throw new Error(`the CLI could not be bundled: ${buildError}`);
  dir = mkdtempSync(join(tmpdir(), 'cfrules-reliability-'));
  configFile = join(dir, 'cfrules.yaml');
  writeFileSync(configFile, stringify(CONFIG));
});
afterEach(() => {
  // A test that failed half-way must not leave a service running.
  for (const server of running.splice(0)) {
    if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
  }
});
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function serve(db: string): Promise<ServeProcess> {
  const server = await startServe(['--port', '0', '--db', db, '--config', configFile]);
  running.push(server);
  return server;
}

const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };

/** One API call; `status: 0` when no answer came (connection refused or cut). */
async function call(
  url: string,
  method: string,
  body?: unknown,
): Promise<{ status: number; body: Json | undefined }> {
  try {
    const response = await fetch(url, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: await response.json() };
  } catch {
    return { status: 0, body: undefined };
  }
}

/** Every filter of the zone, reading the pages until an empty one. */
async function allFilters(server: ServeProcess, zone: string): Promise<Json[]> {
  const filters: Json[] = [];
  for (let page = 1; ; page++) {
    const { status, body } = await call(
      `${server.url}/zones/${zone}/filters?per_page=100&page=${page}`,
      'GET',
    );
    expect(status).toBe(200);
    if (body.result.length === 0) return filters;
    filters.push(...body.result);
  }
}

/** The database file is sound: SQLite's own checks find nothing wrong. */
function expectSoundDatabase(path: string): void {
  const db = new Database(path, { readonly: true });
  try {
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(db.pragma('foreign_key_check')).toEqual([]);
  } finally {
    db.close();
  }
}

/** Resolves once the process has printed text matching `pattern` (on stdout or stderr). */
function printed(server: ServeProcess, pattern: RegExp): Promise<void> {
  return new Promise((resolve) => {
    const check = () => {
      if (!pattern.test(server.output)) return;
      server.child.stdout?.off('data', check);
      server.child.stderr?.off('data', check);
      resolve();
    };
    server.child.stdout?.on('data', check);
    server.child.stderr?.on('data', check);
    check();
  });
}

const host = (n: number | string) => `http.host eq "h${n}.example"`;

describe('cfrules serve under stress', { timeout: 60_000 }, () => {
  it('loses no acknowledged write when killed (SIGKILL) in the middle of a burst, and reopens cleanly', async () => {
    const db = join(dir, 'kill.db');
    const zone = ZONES.enterprise;
    const first = await serve(db);
    const url = `${first.url}/zones/${zone}/filters`;

    const TOTAL = 300;
    const IN_FLIGHT = 8;
    const KILL_AFTER = 100;
    const acknowledged = new Map<string, string>(); // expression → id
    let next = 0;
    let killed: Promise<number | null> | undefined;
    const worker = async () => {
      while (next < TOTAL && killed === undefined) {
        const expression = host(next++);
        const { status, body } = await call(url, 'POST', [{ expression }]);
        if (status === 200) {
          expect(body.result).toHaveLength(1);
          expect(body.result[0].expression).toBe(expression);
          acknowledged.set(expression, body.result[0].id);
          if (acknowledged.size >= KILL_AFTER && killed === undefined) killed = first.stop('SIGKILL');
        } else {
          // Before the kill every creation succeeds; after it, none gets an answer.
          expect(status).toBe(0);
          expect(killed).toBeDefined();
        }
      }
    };
    await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
    expect(await killed).toBeNull(); // killed by the signal, not exited
    const attempted = next;
    expect(acknowledged.size).toBeGreaterThanOrEqual(KILL_AFTER);
    expect(attempted).toBeLessThan(TOTAL);

    const second = await serve(db);
    const stored = await allFilters(second, zone);
    const byExpression = new Map(stored.map((filter) => [filter.expression, filter.id]));
    for (const [expression, id] of acknowledged) expect(byExpression.get(expression), expression).toBe(id);
    // Nothing else: only expressions that were sent, each once; at most the requests cut short by the
    // kill were stored without being acknowledged.
    const sent = new Set(Array.from({ length: attempted }, (_, n) => host(n)));
    for (const filter of stored) expect(sent.has(filter.expression), filter.expression).toBe(true);
    expect(new Set(stored.map((filter) => filter.id)).size).toBe(stored.length);
    expect(byExpression.size).toBe(stored.length);
    expect(stored.length).toBeLessThanOrEqual(acknowledged.size + IN_FLIGHT);

    // The reopened database takes writes, and it is sound once the service stops.
    const after = await call(`${second.url}/zones/${zone}/filters`, 'POST', [{ expression: host('after') }]);
    expect(after.status).toBe(200);
    expect(await second.stop('SIGTERM')).toBe(0);
    expect(second.output).not.toMatch(/internal error/);
    expectSoundDatabase(db);
  });

  it('answers concurrent writers to one zone correctly and stores every acknowledged write', async () => {
    const db = join(dir, 'concurrent.db');
    const zone = ZONES.enterprise;
    const server = await serve(db);
    const url = `${server.url}/zones/${zone}/filters`;

    // Filters that bulk PUTs will rewrite, eight disjoint groups of five.
    const base = await call(
      url,
      'POST',
      Array.from({ length: 40 }, (_, n) => ({ expression: host(`base-${n}`) })),
    );
    expect(base.status).toBe(200);
    const baseIds: string[] = base.body.result.map((filter: Json) => filter.id);

    const singles = Array.from({ length: 200 }, (_, n) => [{ expression: host(`single-${n}`) }]);
    const batches = Array.from({ length: 20 }, (_, b) =>
      Array.from({ length: 5 }, (_, n) => ({
        expression: host(`batch-${b}-${n}`),
        description: `batch ${b}`,
      })),
    );
    // The same expression posted twice at once: exactly one of the two may win.
    const pairs = Array.from({ length: 30 }, (_, n) => [{ expression: host(`pair-${n}`) }]);
    const puts = Array.from({ length: 8 }, (_, g) =>
      baseIds.slice(g * 5, g * 5 + 5).map((id, n) => ({
        id,
        expression: host(`put-${g}-${n}`),
        description: `put ${g}`,
        paused: true,
      })),
    );

    const [singleAnswers, batchAnswers, pairAnswers, putAnswers] = await Promise.all([
      Promise.all(singles.map((body) => call(url, 'POST', body))),
      Promise.all(batches.map((body) => call(url, 'POST', body))),
      Promise.all(pairs.flatMap((body) => [call(url, 'POST', body), call(url, 'POST', body)])),
      Promise.all(puts.map((body) => call(url, 'PUT', body))),
    ]);

    const all = [...singleAnswers, ...batchAnswers, ...pairAnswers, ...putAnswers];
    expect(all.filter((answer) => answer.status === 0 || answer.status >= 500)).toEqual([]);
    singleAnswers.forEach((answer, n) => {
      expect(answer.status).toBe(200);
      expect(answer.body.result).toMatchObject(singles[n] as object[]);
    });
    batchAnswers.forEach((answer, b) => {
      expect(answer.status).toBe(200);
      expect(answer.body.result).toMatchObject(batches[b] as object[]);
    });
    const pairWinners: Json[] = [];
    for (let n = 0; n < pairs.length; n++) {
      const two = [pairAnswers[2 * n], pairAnswers[2 * n + 1]] as { status: number; body: Json }[];
      const won = two.filter((answer) => answer.status === 200);
      const lost = two.filter((answer) => answer.status !== 200);
      expect(won).toHaveLength(1);
      expect(lost[0]?.status).toBe(400);
      expect(lost[0]?.body.errors[0].code).toBe(10102);
      pairWinners.push(won[0]?.body.result[0]);
    }
    putAnswers.forEach((answer, g) => {
      expect(answer.status).toBe(200);
      expect(answer.body.result).toMatchObject(puts[g] as object[]);
    });

    // The stored state is exactly the acknowledged writes.
    const expected = new Map<string, Json>();
    for (const answer of [...singleAnswers, ...batchAnswers]) {
      for (const filter of answer.body.result) expected.set(filter.id, filter);
    }
    for (const filter of pairWinners) expected.set(filter.id, filter);
    for (const answer of putAnswers) for (const filter of answer.body.result) expected.set(filter.id, filter);
    expect(expected.size).toBe(40 + 200 + 100 + 30);

    const stored = await allFilters(server, zone);
    expect(stored).toHaveLength(expected.size);
    expect(new Set(stored.map((filter) => filter.id)).size).toBe(stored.length);
    for (const filter of stored) expect(filter).toEqual(expected.get(filter.id));
    const page = await call(`${url}?per_page=5`, 'GET');
    expect(page.body.result_info.total_count).toBe(expected.size);

    // The rule quota holds under concurrency: a free zone takes 5 rules, however many arrive at once.
    const free = ZONES.free;
    const freeFilters = await call(
      `${server.url}/zones/${free}/filters`,
      'POST',
      Array.from({ length: 12 }, (_, n) => ({ expression: host(`free-${n}`) })),
    );
    expect(freeFilters.status).toBe(200);
    const ruleAnswers = await Promise.all(
      freeFilters.body.result.map((filter: Json) =>
        call(`${server.url}/zones/${free}/firewall/rules`, 'POST', [
          { action: 'block', filter: { id: filter.id } },
        ]),
      ),
    );
    const created = ruleAnswers.filter((answer) => answer.status === 200);
    expect(created).toHaveLength(5);
    for (const answer of ruleAnswers.filter((a) => a.status !== 200)) {
      expect(answer.status).toBe(400);
      expect(answer.body.errors[0].code).toBe(10203);
    }
    const rules = await call(`${server.url}/zones/${free}/firewall/rules`, 'GET');
    expect(rules.body.result.map((rule: Json) => rule.id).sort()).toEqual(
      created.map((answer) => answer.body.result[0].id).sort(),
    );

    expect(await server.stop('SIGTERM')).toBe(0);
    expect(server.output).not.toMatch(/internal error/);
    expectSoundDatabase(db);
  });

  it('answers the request in progress when SIGTERM arrives, then exits 0 with the write stored', async () => {
    const db = join(dir, 'term.db');
    const zone = ZONES.enterprise;
    const server = await serve(db);
    const expression = host('in-flight');
    const payload = JSON.stringify([{ expression, description: 'sent across SIGTERM' }]);

    // The request's headers go first; the service's "100 Continue" proves it has taken the request on.
    const target = new URL(`${server.url}/zones/${zone}/filters`);
    const req = request(target, {
      method: 'POST',
      agent: false,
      headers: { ...headers, expect: '100-continue', 'content-length': Buffer.byteLength(payload) },
    });
    const answered = new Promise<{ status: number; body: Json }>((resolve, reject) => {
      req.on('error', reject);
      req.on('response', (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          text += chunk;
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) }));
        response.on('error', reject);
      });
    });
    const accepted = new Promise<void>((resolve) => req.once('continue', resolve));
    req.flushHeaders();
    await accepted;

    // SIGTERM while the body is still to come; the body is sent once the service says it is stopping.
    const exited = server.stop('SIGTERM');
    await printed(server, /SIGTERM: finishing requests in progress/);
    req.end(payload);

    const { status, body } = await answered;
    expect(status).toBe(200);
    expect(body.result).toMatchObject([{ expression, description: 'sent across SIGTERM' }]);
    expect(await exited).toBe(0);
    expect(server.output).not.toMatch(/internal error/);

    const again = await serve(db);
    expect((await allFilters(again, zone)).map((filter) => filter.id)).toEqual([body.result[0].id]);
    expect(await again.stop('SIGTERM')).toBe(0);
    expectSoundDatabase(db);
  });
});
