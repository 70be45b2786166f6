import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { schemaVersion } from '../../src/store/migrations.js';
import { cfrules } from './run-binary.js';
import { startServe } from './serve-process.js';

const scratch = mkdtempSync(join(tmpdir(), 'cfrules-migrate-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const all = Array.from({ length: schemaVersion }, (_, i) => i + 1).join(', ');

describe('cfrules migrate', () => {
  it('brings a new SQLite file to the schema, then finds it up to date', async () => {
    const db = join(scratch, 'new.db');
    expect(await cfrules(['migrate', '--db', db])).toEqual({
      code: 0,
      stdout: `${db}: applied migrations ${all} (schema version ${schemaVersion})\n`,
      stderr: '',
    });
    expect(await cfrules(['migrate', '--database', db])).toEqual({
      code: 0,
      stdout: `${db}: up to date (schema version ${schemaVersion})\n`,
      stderr: '',
    });
  });

  it('migrates a PostgreSQL database (PGlite here), which serve then opens as it is', async () => {
    const database = `pglite:${join(scratch, 'pglite')}`;
    const migrated = await cfrules(['migrate', '--database', database]);
    expect(migrated.stdout).toBe(
      `${database}: applied migrations ${all} (schema version ${schemaVersion})\n`,
    );
    expect(migrated.code).toBe(0);
    const server = await startServe(['--port', '0', '--no-console', '--database', database]);
    try {
      const health = await fetch(`${server.url}/health`);
      expect(health.status).toBe(200);
      expect(await health.json()).toMatchObject({
        success: true,
        result: { status: 'ok', database: 'postgres' },
      });
    } finally {
      expect(await server.stop('SIGTERM')).toBe(0);
    }
    expect((await cfrules(['migrate', '--database', database])).stdout).toBe(
      `${database}: up to date (schema version ${schemaVersion})\n`,
    );
    // export --db reads a PostgreSQL database as it reads a SQLite file: the first start's zone.
    const exported = await cfrules(['export', 'zone', '--zone', 'example.com', '--db', database]);
    expect(exported.code, exported.stderr).toBe(0);
    expect(JSON.parse(exported.stdout)).toMatchObject({ plan: 'enterprise' });
  });

  it('says why it cannot, with the password hidden, and refuses two databases', async () => {
    const unreachable = await cfrules(['migrate', '--database', 'postgres://u:s3cret@127.0.0.1:9/db']);
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr).toMatch(
      /^cfrules migrate: cannot migrate postgres:\/\/u:\*\*\*@127\.0\.0\.1:9\/db: /,
    );
    expect(unreachable.stderr).not.toContain('s3cret');
    const both = await cfrules(['migrate', '--db', 'a.db', '--database', 'b.db']);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('give --db or --database, not both');
  });
});
