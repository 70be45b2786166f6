// The service on a real socket for the official `cloudflare` SDK (7.3.0), shared by the SDK tests: a store
// (in memory, or a database file to test restarts) with the test accounts and zones of harness.ts, the app
// listening on a free port, and clients set up as a user would.
import type { AddressInfo } from 'node:net';
import Cloudflare from 'cloudflare';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { API_PREFIX, buildApp } from '../../src/http/app.js';
import { applyConfig, readConfig } from '../../src/service/setup.js';
import { openSqliteStore } from '../../src/store/sqlite.js';
import type { Store } from '../../src/store/store.js';
import { CONFIG, openTestStore, TOKEN } from './harness.js';

export interface Credentials {
  apiToken?: string;
  apiEmail?: string;
  apiKey?: string;
}

export interface SocketService {
  store: Store;
  app: FastifyInstance;
  /** Internal errors the app reported (tests expect none). */
  internalErrors: unknown[];
  /** An SDK client; `null` for the others keeps CLOUDFLARE_* environment variables out of it. */
  client(credentials?: Credentials): Cloudflare;
  close(): Promise<void>;
}

/**
 * Starts the service on 127.0.0.1 with a free port, on the SQLite database file `path` (or the store
 * `open` gives), or by default on a new store of the kind the API tests run on.
 */
export async function serveOnSocket(path?: string | (() => Promise<Store>)): Promise<SocketService> {
  const store =
    path === undefined
      ? await openTestStore()
      : typeof path === 'string'
        ? openSqliteStore(path)
        : await path();
  await applyConfig(store, readConfig(CONFIG));
  const internalErrors: unknown[] = [];
  const app = buildApp({ store, reportError: (error) => internalErrors.push(error) });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const baseURL = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}${API_PREFIX}`;
  return {
    store,
    app,
    internalErrors,
    client: (credentials = { apiToken: TOKEN }) =>
      new Cloudflare({
        baseURL,
        maxRetries: 0,
        apiToken: null,
        apiEmail: null,
        apiKey: null,
        userServiceKey: null,
        ...credentials,
      }),
    async close() {
      await app.close();
      await store.close();
    },
  };
}

/** The rejection of `promise`, which must be an instance of `type` (the test fails if it resolves). */
export async function rejection<T>(
  promise: Promise<unknown>,
  type: abstract new (...args: never[]) => T,
): Promise<T> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(type);
  return error as T;
}
