// The service as a library (`import { buildApp, openSqliteStore } from 'cfrules/server'`): the API of `cfrules serve`,
// embedded in a test suite or a tool, with no child process. Separate from the main entry point, which
// stays free of Node-only dependencies (Fastify, SQLite).

export { API_PREFIX, type AppOptions, BODY_LIMIT, buildApp, TIMEOUTS, type Timeouts } from './http/app.js';
export { WEB_CSP, WEB_DIRECTORY } from './http/web-pages.js';
export type { ApiMessage } from './service/errors.js';
export {
  type AppliedConfig,
  applyConfig,
  bootstrap,
  ConfigError,
  type FirstStart,
  readConfig,
  type ServiceConfig,
} from './service/setup.js';
export { describeDatabase, openStore, type StoreOptions } from './store/open.js';
export { openPostgresStore, type PostgresStoreOptions } from './store/postgres.js';
export { openSqliteStore, type SqliteStoreOptions, type Synchronous } from './store/sqlite.js';
export type { Store } from './store/store.js';
