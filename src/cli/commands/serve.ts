import { parseArgs } from 'node:util';
import { trackConnections } from '../../http/shutdown.js';
import { escapeControlCharacters } from '../../lang/escape.js';
import { MissingPeerError, requirePeer, requireServicePeers } from '../../peers.js';
import type { FirstStart } from '../../service/setup.js';
import type { StoreOptions } from '../../store/open.js';
import type { Store } from '../../store/store.js';
import { SYNCHRONOUS_MODES, type Synchronous } from '../../store/synchronous.js';
import { type CliIo, type Command, UsageError } from '../command.js';
import { binaryFileError, NotTextError } from '../files.js';
import { commandMessage } from '../messages.js';
import { plural } from '../plural.js';

/** How long SIGTERM waits for the requests in progress before closing their connections (docs/api.md §1). */
export const SHUTDOWN_BOUND_MS = 10_000;

const serveOptions = {
  host: { type: 'string', default: '127.0.0.1' },
  port: { type: 'string', default: '8787' },
  db: { type: 'string' },
  database: { type: 'string' },
  'pool-size': { type: 'string' },
  'pool-timeout': { type: 'string' },
  'statement-timeout': { type: 'string' },
  config: { type: 'string' },
  synchronous: { type: 'string', default: 'full' },
  'no-console': { type: 'boolean', default: false },
} as const;

export const serveCommand: Command = {
  name: 'serve',
  help: `Usage: cfrules serve [options]

Runs the Cloudflare-compatible API (zones, Filters, Firewall Rules, the
previous WAF and its migration, Rulesets) at http://HOST:PORT/client/v4,
keeping its data in a SQLite database file, or in PostgreSQL for several
instances behind a load balancer. Every request needs credentials:
X-Auth-Email + X-Auth-Key, or Authorization: Bearer TOKEN (see docs/api.md).
The console, a web page to browse and edit zones with an API token, is at
http://HOST:PORT/ and the playground at http://HOST:PORT/playground
(docs/web.md).

      --host HOST      address to listen on (default 127.0.0.1)
      --port PORT      port to listen on (default 8787; 0 picks a free port)
      --db PATH        the SQLite database file (default ./cfrules.db, created
                       if missing); :memory: keeps nothing after exit
      --database URL   postgres://USER:PASSWORD@HOST:PORT/DB: keep the data in
                       PostgreSQL, which several instances may share
                       (migrated at start; see cfrules migrate); a SQLite
                       path works too. Without --db and --database, the
                       environment variable DATABASE_URL is used if set
      --pool-size N    PostgreSQL connections per instance (default 10)
      --pool-timeout MS
                       how long to wait for a PostgreSQL connection before
                       answering 503 (default 10000)
      --statement-timeout MS
                       the longest a PostgreSQL statement may run (default
                       30000)
      --config PATH    accounts, credentials and zones to declare (YAML or
                       JSON), applied at every start; applying it again
                       changes nothing
      --synchronous MODE
                       full (default): every write is on disk before its
                       answer; normal: faster writes, but an OS crash or
                       power loss can lose the last acknowledged ones (the
                       database stays consistent; a crash of cfrules alone
                       loses nothing). SQLite only
      --no-console     serve the API alone, without the console and the
                       playground
  -h, --help           show this help

With no --config and an empty database, the first start creates an account,
an API token and the zone example.com, and prints them once. It creates them
only once the port is bound: a start that cannot listen (port in use) creates
nothing, and the next start that listens prints them.

Prints "listening on http://HOST:PORT/client/v4" once ready. GET
/client/v4/health (no credentials) answers 200 while the database answers,
503 otherwise and while stopping: point a load balancer at it. SIGTERM or
SIGINT (Ctrl-C) finishes the requests in progress (for at most 10 s, then
closes their connections), closes the database and exits 0.

Exit status: 0 stopped by a signal, 1 could not start (database, config,
port), 2 usage error.
`,
  run(args, io) {
    const { values } = parseArgs({ args, options: serveOptions });
    const port = Number(values.port);
    if (!/^\d+$/.test(values.port) || port > 65535) {
      throw new UsageError(`--port must be a number from 0 to 65535, not '${values.port}'`);
    }
    const synchronous = values.synchronous as Synchronous;
    if (!SYNCHRONOUS_MODES.includes(synchronous)) {
      throw new UsageError(`--synchronous must be full or normal, not '${values.synchronous}'`);
    }
    if (values.db !== undefined && values.database !== undefined) {
      throw new UsageError('give --db or --database, not both');
    }
    const database = values.database ?? values.db ?? (process.env.DATABASE_URL || './cfrules.db');
    return serve(
      {
        host: values.host,
        port,
        database,
        store: {
          synchronous,
          poolSize: positive(values['pool-size'], '--pool-size', 1000),
          connectTimeoutMs: positive(values['pool-timeout'], '--pool-timeout', 3_600_000),
          statementTimeoutMs: positive(values['statement-timeout'], '--statement-timeout', 86_400_000),
        },
        config: values.config,
        console: !values['no-console'],
      },
      io,
    );
  },
};

/** A whole number from 1 to `max`, or undefined when the option is absent. */
function positive(value: string | undefined, option: string, max: number): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!/^\d+$/.test(value) || number < 1 || number > max) {
    throw new UsageError(`${option} must be a whole number from 1 to ${max}, not '${value}'`);
  }
  return number;
}

interface ServeOptions {
  host: string;
  port: number;
  /** A SQLite path or a PostgreSQL URL (src/store/open.ts). */
  database: string;
  store: StoreOptions;
  config: string | undefined;
  /** Whether to serve the browser pages (the console and the playground) beside the API. */
  console: boolean;
}

async function serve(options: ServeOptions, io: CliIo): Promise<number> {
  const fail = (message: string) => {
    io.stderr(commandMessage('serve', message));
    return 1;
  };
  // The service stack (Fastify, SQLite, the store, the HTTP app) is loaded by this command only, so that the
  // others start without it (issue 16); its packages are optional (src/peers.ts) and checked first.
  let service: typeof import('../../server.js');
  try {
    requireServicePeers();
    service = await import('../../server.js');
  } catch (error) {
    if (error instanceof MissingPeerError) return fail(error.message);
    throw error;
  }
  const {
    API_PREFIX,
    applyConfig,
    bootstrap,
    buildApp,
    ConfigError,
    describeDatabase,
    openStore,
    readConfig,
    WEB_DIRECTORY,
  } = service;
  let store: Store;
  try {
    store = await openStore(options.database, options.store);
  } catch (error) {
    if (error instanceof MissingPeerError) return fail(error.message);
    return fail(
      `cannot open the database ${describeDatabase(options.database)}: ${(error as Error).message}`,
    );
  }
  try {
    if (options.config !== undefined) {
      const yaml = requirePeer<typeof import('yaml')>('yaml');
      const applied = await applyConfig(store, readConfig(yaml.parse(io.readFile(options.config))));
      io.stdout(
        `applied ${escapeControlCharacters(options.config)}: ${plural(applied.accounts, 'account')}, ${plural(applied.tokens, 'token')}, ${plural(applied.zones, 'zone')}\n`,
      );
      if (applied.warning)
        io.stderr(commandMessage('serve', `warning: ${options.config}: ${applied.warning}`));
    }
  } catch (error) {
    await store.close();
    if (error instanceof ConfigError) return fail(`${options.config}: ${error.message}`);
    if (error instanceof MissingPeerError) return fail(error.message);
    if (error instanceof NotTextError)
      return fail(binaryFileError(options.config as string, error.at).message);
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return fail(`cannot read ${options.config}: no such file`);
    if ((error as Error).name === 'YAMLParseError')
      return fail(`${options.config}: ${(error as Error).message}`);
    throw error;
  }

  const app = buildApp({
    store,
    webPages: options.console ? WEB_DIRECTORY : undefined,
    reportError: (error) =>
      io.stderr(commandMessage('serve', `internal error: ${String((error as Error)?.stack ?? error)}`)),
  });
  const connections = trackConnections(app.server);
  try {
    await app.listen({ host: options.host, port: options.port });
  } catch (error) {
    await store.close();
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') return fail(`port ${options.port} is in use (--port 0 picks a free one)`);
    return fail(`cannot listen on ${options.host}:${options.port}: ${(error as Error).message}`);
  }
  // The first start's secrets are made up only once the port is bound: they are shown once and only their
  // digests are kept, so a start that cannot listen must not create them. A request that arrives meanwhile
  // is refused like any without valid credentials: none exist yet.
  if (options.config === undefined) {
    let first: FirstStart | undefined;
    try {
      first = await bootstrap(store);
    } catch (error) {
      await app.close();
      await store.close();
      return fail(
        `cannot create the first account in ${describeDatabase(options.database)}: ${(error as Error).message}`,
      );
    }
    if (first) io.stdout(firstStartText(first));
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  return new Promise((resolve) => {
    const stop = async (signal: NodeJS.Signals) => {
      process.off('SIGTERM', stop);
      process.off('SIGINT', stop);
      io.stderr(`cfrules serve: ${signal}: finishing requests in progress\n`);
      // Stops accepting connections, and resolves once every connection is closed: those with no request in
      // progress are closed at once, the others once answered or when the bound is reached.
      const closed = app.close();
      const cut = await connections.drain(SHUTDOWN_BOUND_MS);
      if (cut > 0) {
        io.stderr(
          `cfrules serve: ${cut === 1 ? '1 request was' : `${cut} requests were`} still in progress after ${SHUTDOWN_BOUND_MS / 1000} s: closed ${cut === 1 ? 'its connection' : 'their connections'}\n`,
        );
      }
      await closed;
      await store.close();
      resolve(0);
    };
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
    if (options.console && app.hasRoute({ method: 'GET', url: '/' }))
      io.stdout(`console at http://${escapeControlCharacters(host)}:${port}/\n`);
    // Only now: a supervisor may signal as soon as it reads this line, and must get a clean stop.
    io.stdout(`listening on http://${escapeControlCharacters(host)}:${port}${API_PREFIX}\n`);
  });
}

function firstStartText({ account, apiKey, token, zone }: FirstStart): string {
  return `First start: created an account, its credentials and a zone. The secrets are shown only now
(the database keeps their digests); declare your own with --config (docs/api.md).

  account    ${account.id}
  email      ${account.email}
  api key    ${apiKey}
  api token  ${token}   (every zone, read and edit)
  zone       ${zone.id}   ${zone.name} (${zone.plan})

`;
}
