// Prints the URL of a PostgreSQL server the tests can use, or nothing (exit 1) when none answers: the
// first of CFRULES_TEST_POSTGRES, DATABASE_URL and a local server as user postgres or root that accepts a
// connection. On that server it makes sure a database cfrules_test exists and prints a URL naming it, so
// that the tests' schemas (each dropped after its test) never land in a database that holds anything else.
// Used by .ci/run; see the README's development section.
import pg from 'pg';

const candidates = [
  process.env.CFRULES_TEST_POSTGRES,
  process.env.DATABASE_URL,
  'postgres://postgres@127.0.0.1:5432/postgres',
  'postgres://root@127.0.0.1:5432/postgres',
].filter((url) => url !== undefined && url !== '');

async function connects(url) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    return client;
  } catch {
    return undefined;
  }
}

for (const url of candidates) {
  const client = await connects(url);
  if (client === undefined) continue;
  try {
    const { rows } = await client.query("SELECT 1 FROM pg_database WHERE datname = 'cfrules_test'");
    if (rows.length === 0) await client.query('CREATE DATABASE cfrules_test');
    const test = new URL(url);
    test.pathname = '/cfrules_test';
    process.stdout.write(`${test}\n`);
    process.exit(0);
  } catch {
    // No right to create databases: the server's own database will do.
    process.stdout.write(`${url}\n`);
    process.exit(0);
  } finally {
    await client.end();
  }
}
process.exit(1);
