// A service on an in-memory store with two accounts and known credentials, for fastify.inject tests and
// SDK tests.
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterEach, beforeEach, expect } from 'vitest';
import { buildApp } from '../../src/http/app.js';
import { applyConfig, readConfig } from '../../src/service/setup.js';
import type { SimulateOptions } from '../../src/service/simulate.js';
import { openSqliteStore } from '../../src/store/sqlite.js';
import type { Store } from '../../src/store/store.js';
import { API_TEST_STORE, openTestPostgresStore } from '../support/postgres.js';

export const ACCOUNT = '0123456789abcdef0123456789abcdef';
export const OTHER_ACCOUNT = 'fedcba9876543210fedcba9876543210';
export const EMAIL = 'ops@example.com';
export const API_KEY = 'a'.repeat(37);
/** Every zone of ACCOUNT, read and edit. */
export const TOKEN = 'T'.repeat(40);
/** Every zone of ACCOUNT, read only. */
export const READ_TOKEN = 'R'.repeat(40);
/** Only the zone example.com, read and edit. */
export const SCOPED_TOKEN = 'S'.repeat(40);
/** OTHER_ACCOUNT's token. */
export const OTHER_TOKEN = 'O'.repeat(40);

export const ZONES = {
  enterprise: '023e105f4ecef8ad9ca31a8372d0c353',
  business: '11111111111111111111111111111111',
  pro: '22222222222222222222222222222222',
  free: '33333333333333333333333333333333',
  /** OTHER_ACCOUNT's. */
  other: '44444444444444444444444444444444',
} as const;

export const CONFIG = {
  accounts: [
    {
      id: ACCOUNT,
      email: EMAIL,
      api_key: API_KEY,
      tokens: [
        { value: TOKEN, zones: ['*'], permissions: ['read', 'edit'] },
        { value: READ_TOKEN, zones: ['*'], permissions: ['read'] },
        { value: SCOPED_TOKEN, zones: ['example.com'], permissions: ['read', 'edit'] },
      ],
    },
    { id: OTHER_ACCOUNT, email: 'other@example.org', tokens: [{ value: OTHER_TOKEN }] },
  ],
  zones: [
    { id: ZONES.enterprise, name: 'example.com', plan: 'enterprise', account: ACCOUNT },
    { id: ZONES.business, name: 'business.example', plan: 'business', account: ACCOUNT },
    { id: ZONES.pro, name: 'pro.example', plan: 'pro', account: ACCOUNT },
    { id: ZONES.free, name: 'free.example', plan: 'free', account: ACCOUNT },
    { id: ZONES.other, name: 'other.example', plan: 'enterprise', account: OTHER_ACCOUNT },
  ],
};

export interface Harness {
  app: FastifyInstance;
  store: Store;
  /** Internal errors the app reported (a test fails if any appear unexpectedly). */
  internalErrors: unknown[];
  /** A request authenticated with `token` (TOKEN by default; none with `auth: false`); the body parsed. */
  call(
    options: InjectOptions & { token?: string; auth?: boolean },
  ): Promise<{ status: number; body: Envelope; headers: Record<string, unknown> }>;
  close(): Promise<void>;
}

export interface Envelope {
  // biome-ignore lint/suspicious/noExplicitAny: API results, checked by each test's assertions
  result: any;
  success: boolean;
  errors: { code: number; message: string; error_chain?: unknown[]; source?: { pointer: string } }[];
  messages: unknown[];
  result_info?: { page: number; per_page: number; count: number; total_count: number; total_pages: number };
}

export async function harness(options: HarnessOptions = {}): Promise<Harness> {
  const store = await openTestStore();
  await applyConfig(store, readConfig(CONFIG));
  const internalErrors: unknown[] = [];
  const app = buildApp({
    store,
    bodyLimit: options.bodyLimit,
    simulate: options.simulate,
    reportError: (error) => internalErrors.push(error),
  });
  return {
    app,
    store,
    internalErrors,
    async call({ token = TOKEN, auth = true, headers, ...rest }) {
      const response = await app.inject({
        ...rest,
        headers: auth ? { authorization: `Bearer ${token}`, ...headers } : headers,
      });
      // A 204 (deleting a ruleset) has no body to parse.
      const body = response.body === '' ? (undefined as unknown as Envelope) : response.json();
      return { status: response.statusCode, body, headers: response.headers };
    },
    async close() {
      await app.close();
      await store.close();
    },
  };
}

/** A new, empty store of the kind the API tests run on (test/support/postgres.ts). */
export const openTestStore = (): Promise<Store> =>
  API_TEST_STORE === 'postgres' ? openTestPostgresStore() : Promise.resolve(openSqliteStore(':memory:'));

export interface HarnessOptions {
  bodyLimit?: number;
  simulate?: SimulateOptions;
}

export const zonePath = (zone: string, rest = '') => `/client/v4/zones/${zone}${rest}`;

/**
 * A fresh harness for every test of the file, handed to `assign`; after each test, checks that the service
 * reported no internal error, and closes it.
 */
export function freshHarnessPerTest(assign: (h: Harness) => void, options: HarnessOptions = {}): void {
  let current: Harness;
  beforeEach(async () => {
    current = await harness(options);
    assign(current);
  });
  afterEach(async () => {
    expect(current.internalErrors).toEqual([]);
    await current.close();
  });
}
