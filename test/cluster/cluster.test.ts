import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLOUDFLARE_MANAGED_RULESET_ID } from '../../src/engine/managed/index.js';
import { CODES } from '../../src/service/errors.js';
import { FILTER_LIMIT } from '../../src/service/filters.js';
import { RULE_QUOTA } from '../../src/service/firewall-rules.js';
import { type ServeProcess, startServe } from '../cli/serve-process.js';
import type {} from '../summary-reporter.js';

// Three `cfrules serve` processes (the built binary) on one PostgreSQL database, as a deployment behind a
// round-robin load balancer runs them: writers race on every instance at once, one instance is killed
// (SIGKILL) in the middle, and afterwards every acknowledged write is there, no quota is exceeded, ruleset
// versions are consecutive, the WAF migration happened once, and no answer was a 5xx. Needs a server
// (CFRULES_TEST_POSTGRES): PGlite is one process's.

const server = process.env.CFRULES_TEST_POSTGRES;
const ACCOUNT = '0123456789abcdef0123456789abcdef';
const TOKEN = 'K'.repeat(40);
const ZONES = { free: 'f'.repeat(32), enterprise: 'e'.repeat(32), business: 'b'.repeat(32) } as const;

const config = (permissions: string[]) =>
  JSON.stringify({
    accounts: [{ id: ACCOUNT, email: 'ops@example.com', tokens: [{ value: TOKEN, permissions }] }],
    zones: [
      { id: ZONES.free, name: 'free.example', plan: 'free', account: ACCOUNT },
      { id: ZONES.enterprise, name: 'example.com', plan: 'enterprise', account: ACCOUNT },
      { id: ZONES.business, name: 'business.example', plan: 'business', account: ACCOUNT },
    ],
  });

interface Answer {
  /** 0 when the instance did not answer (it was killed, or the connection was refused). */
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: API answers, checked by the assertions
  body: any;
}

if (server === undefined || server === '') {
  describe('several instances on one PostgreSQL database', () => {
    it('needs a PostgreSQL server, which this run was not given', ({ task }) => {
      task.meta.notRun =
        'cluster tests: not run: no PostgreSQL server (set CFRULES_TEST_POSTGRES=postgres://…; .ci/run does)';
    });
  });
} else {
  describe('several instances on one PostgreSQL database', { timeout: 120_000 }, () => {
    const database = `cfrules_cluster_${randomBytes(5).toString('hex')}`;
    const url = new URL(server);
    url.pathname = `/${database}`;
    let scratch: string;
    let instances: ServeProcess[] = [];
    const answers: { instance: number; status: number }[] = [];

    const admin = async <T>(work: (client: pg.Client) => Promise<T>): Promise<T> => {
      const client = new pg.Client({ connectionString: server });
      await client.connect();
      try {
        return await work(client);
      } finally {
        await client.end();
      }
    };

    /** One call to one instance; every answer is recorded for the no-5xx check. */
    const call = async (instance: number, method: string, path: string, body?: unknown): Promise<Answer> => {
      const target = instances[instance] as ServeProcess;
      try {
        const response = await fetch(`${target.url}${path}`, {
          method,
          headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        const text = await response.text();
        answers.push({ instance, status: response.status });
        return { status: response.status, body: text === '' ? undefined : JSON.parse(text) };
      } catch {
        return { status: 0, body: undefined };
      }
    };

    beforeAll(async () => {
      await admin((client) => client.query(`CREATE DATABASE ${database}`));
      scratch = mkdtempSync(join(tmpdir(), 'cfrules-cluster-'));
      writeFileSync(join(scratch, 'config.json'), config(['read', 'edit']));
      const args = ['--port', '0', '--no-console', '--database', url.toString()];
      // Started together: they race to migrate the new database, and to apply the same config.
      instances = await Promise.all(
        [0, 1, 2].map(() => startServe([...args, '--config', join(scratch, 'config.json')])),
      );
    });

    afterAll(async () => {
      await Promise.all(instances.map((instance) => instance.stop('SIGTERM')));
      rmSync(scratch, { recursive: true, force: true });
      await admin((client) => client.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`));
    });

    it('keeps quotas, versions, the migration and every acknowledged write exact, one instance killed midway', async () => {
      // The WAF migration, asked of every instance at once: one moves it on, the others are told it is done.
      const managed = [
        {
          action: 'execute',
          expression: 'true',
          action_parameters: { id: CLOUDFLARE_MANAGED_RULESET_ID },
        },
      ];
      const migrations = await Promise.all(
        [0, 1, 2].map((instance) =>
          call(
            instance,
            'PUT',
            `/zones/${ZONES.business}/rulesets/phases/http_request_firewall_managed/entrypoint?waf_migration=pending&phase_two=1`,
            { rules: managed },
          ),
        ),
      );
      expect(migrations.map((answer) => answer.status).sort()).toEqual([200, 400, 400]);
      for (const refused of migrations.filter((answer) => answer.status === 400)) {
        expect(refused.body.errors[0].code).toBe(CODES.migrationComplete);
      }

      // Rules racing on a Free zone's quota and versions of one entry point, round-robin over the
      // instances; the third instance is killed while they run.
      const rule = (i: number) => ({
        filter: { expression: `http.request.uri.path eq "/race/${i}"` },
        action: 'block',
        description: `race ${i}`,
      });
      const version = (i: number) => ({
        rules: [{ action: 'block', expression: `http.request.uri.path eq "/v/${i}"`, description: `v${i}` }],
      });
      const writes = Array.from({ length: 60 }, (_, i) =>
        i % 2 === 0
          ? call(i % 3, 'POST', `/zones/${ZONES.free}/firewall/rules`, [rule(i)])
          : call(
              i % 3,
              'PUT',
              `/zones/${ZONES.enterprise}/rulesets/phases/http_request_firewall_custom/entrypoint`,
              version(i),
            ),
      );
      await new Promise((resolve) => setTimeout(resolve, 30));
      (instances[2] as ServeProcess).child.kill('SIGKILL');
      const settled = await Promise.all(writes);

      const rulesAcknowledged = settled
        .filter((answer, i) => i % 2 === 0 && answer.status === 200)
        .map((answer) => answer.body.result[0].id as string);
      const versionsAcknowledged = settled
        .filter((answer, i) => i % 2 === 1 && answer.status === 200)
        .map((answer) => Number(answer.body.result.version));
      for (const [i, answer] of settled.entries()) {
        if (answer.status === 0 || answer.status === 200) continue;
        // Anything else is the quota's refusal, whole.
        expect(i % 2, JSON.stringify(answer.body)).toBe(0);
        expect(answer.body.errors[0].code).toBe(CODES.ruleQuotaExceeded);
      }

      // Read back through a surviving instance.
      const rules = await call(0, 'GET', `/zones/${ZONES.free}/firewall/rules?per_page=100`);
      const stored = (rules.body.result as { id: string }[]).map((each) => each.id);
      expect(stored.length).toBeLessThanOrEqual(RULE_QUOTA.free);
      expect(stored).toEqual(expect.arrayContaining(rulesAcknowledged));
      const versions = await call(
        1,
        'GET',
        `/zones/${ZONES.enterprise}/rulesets/phases/http_request_firewall_custom/entrypoint/versions`,
      );
      const numbers = (versions.body.result as { version: string }[]).map((each) => Number(each.version));
      expect(numbers).toEqual(Array.from({ length: numbers.length }, (_, i) => i + 1));
      expect(numbers).toEqual(expect.arrayContaining(versionsAcknowledged));
      expect(new Set(versionsAcknowledged).size).toBe(versionsAcknowledged.length);
      const status = await call(1, 'GET', `/zones/${ZONES.business}/waf_migration/status`);
      expect(status.body.result.migration_state).toBe('complete');

      expect(answers.filter((answer) => answer.status >= 500)).toEqual([]);
    });

    it("holds a zone's 5,000 filters when the last creations race on the instances left", async () => {
      const filters = `/zones/${ZONES.business}/filters`;
      const expression = (i: number) => `http.request.uri.path eq "/limit/${i}"`;
      // 4,990 filters in batches, then 30 single creations for the last 10 places, on both instances at once.
      for (let start = 0; start < FILTER_LIMIT - 10; start += 1000) {
        const batch = Array.from({ length: Math.min(1000, FILTER_LIMIT - 10 - start) }, (_, i) => ({
          expression: expression(start + i),
        }));
        expect((await call(0, 'POST', filters, batch)).status).toBe(200);
      }
      const racing = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          call(i % 2, 'POST', filters, [{ expression: expression(FILTER_LIMIT + i) }]),
        ),
      );
      expect(racing.filter((answer) => answer.status === 200)).toHaveLength(10);
      for (const refused of racing.filter((answer) => answer.status !== 200)) {
        expect(refused.status).toBe(400);
        expect(refused.body.errors[0].code).toBe(CODES.filterLimitReached);
      }
      const listed = await call(1, 'GET', `${filters}?per_page=5`);
      expect(listed.body.result_info.total_count).toBe(FILTER_LIMIT);
      expect(answers.filter((answer) => answer.status >= 500)).toEqual([]);
    });

    it("drops what each instance keeps in memory when another one writes: a revoked token, another's filter", async () => {
      const filters = `/zones/${ZONES.enterprise}/filters`;
      // Instance 1 reads (and keeps) the list; instance 0 adds a filter; instance 1 sees it.
      expect((await call(1, 'GET', filters)).body.result).toEqual([]);
      const added = await call(0, 'POST', filters, [{ expression: 'http.host eq "seen.example"' }]);
      expect(added.status).toBe(200);
      await eventually(async () =>
        expect((await call(1, 'GET', filters)).body.result.map((f: { id: string }) => f.id)).toEqual([
          added.body.result[0].id,
        ]),
      );

      // The token loses its edit permission by a config applied through another process (a deployment's
      // next start): both running instances refuse its writes within a second.
      writeFileSync(join(scratch, 'readonly.json'), config(['read']));
      const applying = await startServe([
        '--port',
        '0',
        '--no-console',
        '--database',
        url.toString(),
        '--config',
        join(scratch, 'readonly.json'),
      ]);
      await applying.stop('SIGTERM');
      const started = Date.now();
      for (const instance of [0, 1]) {
        await eventually(async () =>
          expect(
            (await call(instance, 'POST', filters, [{ expression: `ip.src eq 10.0.0.${instance}` }])).status,
          ).toBe(403),
        );
      }
      expect(Date.now() - started).toBeLessThan(1000);
      expect(answers.filter((answer) => answer.status >= 500)).toEqual([]);
    });
  });
}

/** Retries `check` for up to a second: another instance's change arrives by notification. */
async function eventually(check: () => Promise<void>): Promise<void> {
  const deadline = Date.now() + 1000;
  for (;;) {
    try {
      await check();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}
