// POST /zones/{zone_id}/simulate on a large zone (docs/api.md §12, Limits): the answer stays within its
// budget, each result marked with what was left out, and the service answers other requests while a
// simulation runs, in the worker thread that ships (dist/simulate-worker.js, built by the tests' setup).
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type SimulationRunner, WorkerRunner } from '../../src/service/simulate-runner.js';
import { type Harness, harness, TOKEN, ZONES, zonePath } from './harness.js';

const Z = ZONES.enterprise;
let h: Harness | undefined;
afterEach(async () => {
  expect(h?.internalErrors ?? []).toEqual([]);
  await h?.close();
  h = undefined;
});

/** `count` custom rules of about 1.5 kB, each matching the path /pN/ only. */
const bigRules = (count: number) =>
  Array.from({ length: count }, (_, i) => ({
    action: 'log',
    description: `rule ${i}`,
    expression: `http.request.uri.path contains "/p${i}/" and not http.host in {${Array.from(
      { length: 70 },
      (_, k) => `"h${k}.n${i}.example.com"`,
    ).join(' ')}}`,
  }));

const sample = (i: number) => ({
  method: 'GET',
  url: `https://example.com/p${i}/x`,
  headers: [
    ['Host', 'example.com'],
    ['User-Agent', 'Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0'],
  ],
  clientIp: '203.0.113.7',
});

async function deploy(service: Harness, count: number): Promise<void> {
  const put = await service.call({
    method: 'PUT',
    url: zonePath(Z, '/rulesets/phases/http_request_firewall_custom/entrypoint'),
    payload: { rules: bigRules(count) },
  });
  expect(put.status, JSON.stringify(put.body.errors)).toBe(200);
}

describe('POST /zones/{zone_id}/simulate: the answer is bounded', () => {
  it('cuts each result to its share of the budget and says what it left out', async () => {
    h = await harness({ simulate: { answerBytes: 100_000 } });
    await deploy(h, 200);
    const requests = Array.from({ length: 20 }, (_, i) => sample(i));
    const response = await h.app.inject({
      method: 'POST',
      url: zonePath(Z, '/simulate'),
      headers: { authorization: `Bearer ${TOKEN}` },
      payload: { requests },
    });
    expect(response.statusCode).toBe(200);
    const results = response.json().result;
    expect(results).toHaveLength(20);
    for (const [i, result] of results.entries()) {
      expect(JSON.stringify(result).length).toBeLessThanOrEqual(5000);
      expect(result.truncated).toMatchObject({ limit: 5000, omitted: ['expressions', 'unmatched_rules'] });
      // The 199 custom rules that did not match, and the previous WAF's that did not either.
      expect(result.truncated.rules).toBeGreaterThanOrEqual(199);
      // What matters is still there: the rule that matched, in the trace and in `matched`.
      expect(result.matched.map((rule: { description: string }) => rule.description)).toEqual([`rule ${i}`]);
      expect(JSON.stringify(result.trace)).toContain(`"description":"rule ${i}"`);
    }
    expect(response.body.length).toBeLessThan(100_000 + 1000);
  });

  it('answers one request of the same zone whole', async () => {
    h = await harness({ simulate: { answerBytes: 1_000_000 } });
    await deploy(h, 200);
    const response = await h.call({
      method: 'POST',
      url: zonePath(Z, '/simulate'),
      payload: { request: sample(3) },
    });
    expect(response.status).toBe(200);
    expect(response.body.result.truncated).toBeUndefined();
    const trace = JSON.stringify(response.body.result.trace);
    for (const i of [0, 100, 199])
      expect(trace).toContain(`"expression":"http.request.uri.path contains \\"/p${i}/\\"`);
  });
});

describe('POST /zones/{zone_id}/simulate: in a worker thread', () => {
  it('answers other requests while a large zone is compiled and simulated', async () => {
    const worker = new WorkerRunner(new URL('../../dist/simulate-worker.js', import.meta.url));
    // Says when the service hands the job over, so that the reads below are sent while it runs.
    let jobStarted = () => {};
    const started = new Promise<void>((resolve) => {
      jobStarted = resolve;
    });
    const runner: SimulationRunner = {
      run: (job) => {
        jobStarted();
        return worker.run(job);
      },
      close: () => worker.close(),
    };
    h = await harness({ simulate: { runner } });
    await deploy(h, 200);
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
    const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
    let simulated = false;
    const simulation = fetch(`${base}${zonePath(Z, '/simulate')}`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ requests: Array.from({ length: 100 }, (_, i) => sample(i)) }),
    }).then(async (response) => {
      simulated = true;
      return { status: response.status, body: await response.json() };
    });
    // Zone reads sent one after another while the simulation runs: with the simulation on the event loop,
    // none would be answered before it.
    await started;
    let answeredDuring = 0;
    while (!simulated) {
      const read = await fetch(`${base}${zonePath(Z)}`, { headers });
      expect(read.status).toBe(200);
      await read.arrayBuffer();
      if (!simulated) answeredDuring++;
    }
    const { status, body } = await simulation;
    expect(status).toBe(200);
    expect(body.result).toHaveLength(100);
    expect(body.result[42].matched.map((rule: { description: string }) => rule.description)).toEqual([
      'rule 42',
    ]);
    expect(answeredDuring).toBeGreaterThan(0);
  });

  it('answers 500 in the envelope, without hanging, when the worker cannot run', async () => {
    const runner = new WorkerRunner(new URL('../../dist/no-such-worker.js', import.meta.url));
    h = await harness({ simulate: { runner } });
    const response = await h.call({
      method: 'POST',
      url: zonePath(Z, '/simulate'),
      payload: { request: sample(1) },
    });
    expect(response.status).toBe(500);
    expect(response.body.success).toBe(false);
    expect(h.internalErrors).toHaveLength(1);
    h.internalErrors.length = 0;
  });
});
