import { randomBytes } from 'node:crypto';
import { PLANS, type Plan } from '../scheme/profile.js';
import type {
  AccountRecord,
  Permission,
  Store,
  StoreTransaction,
  TokenRecord,
  ZoneRecord,
} from '../store/store.js';
import { API_KEY, API_TOKEN, digest } from './auth.js';
import { isId, newId, now } from './ids.js';
import { isConfigurablePermission, PERMISSION_NAMES } from './permissions.js';

/**
 * What `cfrules serve` starts with: accounts, credentials and zones declared in a config file (applied at
 * every start; applying it twice changes nothing), or, on a first start with neither config nor data, one
 * account, one token and one zone made up and shown once.
 */

export interface ServiceConfig {
  accounts: AccountConfig[];
  zones: ZoneConfig[];
}

export interface AccountConfig {
  id: string;
  name: string;
  email: string;
  apiKey?: string;
  tokens: { value: string; zones: string[]; permissions: Permission[] }[];
}

export interface ZoneConfig {
  id?: string;
  name: string;
  plan: Plan;
  account: string;
}

/** A problem in a config file, with the path of the bad value (`accounts[0].api_key`). */
export class ConfigError extends Error {
  constructor(
    readonly path: string,
    readonly problem: string,
  ) {
    super(path ? `${path}: ${problem}` : problem);
    this.name = 'ConfigError';
  }
}

type Json = Record<string, unknown>;

/** Checks a parsed config document (YAML or JSON) and gives it its typed form; ConfigError otherwise. */
export function readConfig(document: unknown): ServiceConfig {
  const root = object(document ?? {}, '');
  known(root, '', ['accounts', 'zones']);
  const accounts = list(root.accounts, 'accounts').map((value, i) => readAccount(value, `accounts[${i}]`));
  const zones = list(root.zones, 'zones').map((value, i) => readZone(value, `zones[${i}]`));
  return { accounts, zones };
}

function readAccount(value: unknown, path: string): AccountConfig {
  const account = object(value, path);
  known(account, path, ['id', 'name', 'email', 'api_key', 'tokens']);
  const id = text(account.id, `${path}.id`);
  if (!isId(id)) throw new ConfigError(`${path}.id`, 'must be 32 lowercase hexadecimal characters');
  const email = text(account.email, `${path}.email`);
  if (!/^[^\s@]+@[^\s@]+$/.test(email)) throw new ConfigError(`${path}.email`, 'must be an e-mail address');
  const apiKey = account.api_key === undefined ? undefined : text(account.api_key, `${path}.api_key`);
  if (apiKey !== undefined && !API_KEY.test(apiKey)) {
    throw new ConfigError(
      `${path}.api_key`,
      'must be 37 lowercase hexadecimal characters (a global API key)',
    );
  }
  const tokens = list(account.tokens, `${path}.tokens`).map((item, i) => {
    const where = `${path}.tokens[${i}]`;
    const token = object(item, where);
    known(token, where, ['value', 'zones', 'permissions']);
    const tokenValue = text(token.value, `${where}.value`);
    if (!API_TOKEN.test(tokenValue)) {
      throw new ConfigError(`${where}.value`, 'must be 40 characters among A-Z a-z 0-9 _ - (an API token)');
    }
    const zones = list(token.zones ?? ['*'], `${where}.zones`).map((zone, j) =>
      text(zone, `${where}.zones[${j}]`),
    );
    const permissions = list(token.permissions ?? ['read', 'edit'], `${where}.permissions`).map((p, j) => {
      if (typeof p === 'string' && isConfigurablePermission(p)) return p;
      throw new ConfigError(
        `${where}.permissions[${j}]`,
        `must be a permission (${PERMISSION_NAMES.join(', ')}), or read or edit (docs/api.md, "Permissions")`,
      );
    });
    return { value: tokenValue, zones, permissions };
  });
  const name = account.name === undefined ? email : text(account.name, `${path}.name`);
  return { id, name, email, apiKey, tokens };
}

function readZone(value: unknown, path: string): ZoneConfig {
  const zone = object(value, path);
  known(zone, path, ['id', 'name', 'plan', 'account']);
  const id = zone.id === undefined ? undefined : text(zone.id, `${path}.id`);
  if (id !== undefined && !isId(id))
    throw new ConfigError(`${path}.id`, 'must be 32 lowercase hexadecimal characters');
  const plan = zone.plan === undefined ? 'free' : text(zone.plan, `${path}.plan`);
  if (!(PLANS as readonly string[]).includes(plan))
    throw new ConfigError(`${path}.plan`, `must be one of ${PLANS.join(', ')}`);
  return {
    id,
    name: text(zone.name, `${path}.name`).toLowerCase(),
    plan: plan as Plan,
    account: text(zone.account, `${path}.account`),
  };
}

/** What applying a config did, and what the operator should hear about it. */
export interface AppliedConfig {
  accounts: number;
  tokens: number;
  zones: number;
  /** Why the service may be unusable after this config, when it may be (no credential anywhere). */
  warning?: string;
}

/**
 * Every request needs a credential, so a config declaring none, on a database whose only accounts are the
 * config's, starts a service nobody can call. Accounts of the database that the config does not declare
 * (a first start's, say) may hold credentials: then the config adding none is normal (zones only).
 */
export const NO_CREDENTIALS_WARNING =
  'the config declares no credentials (no api_key, no tokens), so no request can be authenticated; add a token to ' +
  'an account: accounts: [{id: <32 hex>, email: <e-mail>, tokens: [{value: <40 characters>, zones: ["*"]}]}] ' +
  '(docs/api.md, "The config file")';

/** Applies a config in one transaction: creates what is missing, updates what differs. */
export async function applyConfig(store: Store, config: ServiceConfig): Promise<AppliedConfig> {
  return store.transaction(async (tx) => {
    const time = now();
    for (const [i, account] of config.accounts.entries()) {
      const existing = await tx.accounts.get(account.id);
      const byEmail = await tx.accounts.getByEmail(account.email);
      if (byEmail && byEmail.id !== account.id) {
        throw new ConfigError(
          `accounts[${i}].email`,
          `${account.email} already belongs to account ${byEmail.id}`,
        );
      }
      const keyHash = account.apiKey === undefined ? null : digest(account.apiKey);
      const byKey = keyHash === null ? undefined : await tx.accounts.getByApiKeyHash(keyHash);
      if (byKey && byKey.id !== account.id) {
        throw new ConfigError(`accounts[${i}].api_key`, `this key already belongs to account ${byKey.id}`);
      }
      await tx.accounts.put({
        id: account.id,
        name: account.name,
        email: account.email,
        apiKeyHash: keyHash,
        createdOn: existing?.createdOn ?? time,
      });
      for (const [j, token] of account.tokens.entries()) {
        const holder = (await tx.tokens.getByHash(digest(token.value)))?.accountId;
        if (holder !== undefined && holder !== account.id) {
          throw new ConfigError(
            `accounts[${i}].tokens[${j}].value`,
            `this token already belongs to account ${holder}`,
          );
        }
        await putToken(tx, account.id, token, time);
      }
    }
    for (const [i, zone] of config.zones.entries()) await putZone(tx, zone, `zones[${i}]`, time);
    const tokens = config.accounts.reduce((sum, account) => sum + account.tokens.length, 0);
    const keys = config.accounts.filter((account) => account.apiKey !== undefined).length;
    // Every declared account is stored by now: more accounts means some the config does not declare.
    const othersMayHaveCredentials = (await tx.accounts.count()) > config.accounts.length;
    const applied = { accounts: config.accounts.length, tokens, zones: config.zones.length };
    if (tokens + keys > 0 || othersMayHaveCredentials) return applied;
    return { ...applied, warning: NO_CREDENTIALS_WARNING };
  });
}

async function putToken(
  tx: StoreTransaction,
  accountId: string,
  token: AccountConfig['tokens'][number],
  time: string,
): Promise<void> {
  const tokenHash = digest(token.value);
  const existing = await tx.tokens.getByHash(tokenHash);
  const record: TokenRecord = {
    // Derived from the secret, so that applying the config again updates the same token.
    id: existing?.id ?? tokenHash.slice(0, 32),
    accountId,
    tokenHash,
    zones: token.zones,
    permissions: token.permissions,
    createdOn: existing?.createdOn ?? time,
  };
  await tx.tokens.put(record);
}

async function putZone(tx: StoreTransaction, zone: ZoneConfig, path: string, time: string): Promise<void> {
  if (!(await tx.accounts.get(zone.account))) {
    throw new ConfigError(`${path}.account`, `no account ${zone.account} (declare it under accounts)`);
  }
  const byName = await tx.zones.getByName(zone.account, zone.name);
  if (zone.id !== undefined && byName && byName.id !== zone.id) {
    throw new ConfigError(`${path}.name`, `${zone.name} is already zone ${byName.id} of this account`);
  }
  const existing = zone.id === undefined ? byName : await tx.zones.get(zone.id);
  if (existing) {
    const changed =
      existing.name !== zone.name || existing.plan !== zone.plan || existing.accountId !== zone.account;
    if (changed)
      await tx.zones.update({
        ...existing,
        name: zone.name,
        plan: zone.plan,
        accountId: zone.account,
        modifiedOn: time,
      });
    return;
  }
  const record: ZoneRecord = {
    id: zone.id ?? newId(),
    name: zone.name,
    plan: zone.plan,
    accountId: zone.account,
    paused: false,
    createdOn: time,
    modifiedOn: time,
  };
  await tx.zones.insert(record);
}

/** The credentials made up on a first start, to print once (only their digests are kept). */
export interface FirstStart {
  account: AccountRecord;
  apiKey: string;
  token: string;
  zone: ZoneRecord;
}

/** On an empty store, creates one account (with a global key), one edit token and one Enterprise zone. */
export async function bootstrap(store: Store): Promise<FirstStart | undefined> {
  return store.transaction(async (tx) => {
    if ((await tx.accounts.count()) > 0) return undefined;
    const time = now();
    const apiKey = randomBytes(19).toString('hex').slice(0, 37);
    const token = randomBytes(30).toString('base64url');
    const account: AccountRecord = {
      id: newId(),
      name: 'cfrules',
      email: 'admin@cfrules.local',
      apiKeyHash: digest(apiKey),
      createdOn: time,
    };
    await tx.accounts.put(account);
    await putToken(tx, account.id, { value: token, zones: ['*'], permissions: ['read', 'edit'] }, time);
    const zone: ZoneRecord = {
      id: newId(),
      name: 'example.com',
      plan: 'enterprise',
      accountId: account.id,
      paused: false,
      createdOn: time,
      modifiedOn: time,
    };
    await tx.zones.insert(zone);
    return { account, apiKey, token, zone };
  });
}

function object(value: unknown, path: string): Json {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ConfigError(path, 'must be a mapping (key: value)');
  }
  return value as Json;
}

function list(value: unknown, path: string): unknown[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new ConfigError(path, 'must be a list');
  return value;
}

function text(value: unknown, path: string): string {
  if (typeof value !== 'string' || value === '') throw new ConfigError(path, 'must be a non-empty string');
  return value;
}

function known(value: Json, path: string, keys: string[]): void {
  const unknown = Object.keys(value).find((key) => !keys.includes(key));
  if (unknown !== undefined) {
    throw new ConfigError(
      path ? `${path}.${unknown}` : unknown,
      `unknown setting (expected one of ${keys.join(', ')})`,
    );
  }
}
