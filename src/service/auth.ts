import { createHash } from 'node:crypto';
import type { AccountRecord, Store, ZoneRecord } from '../store/store.js';
import { type ApiMessage, CODES, ServiceError } from './errors.js';
import { isId } from './ids.js';
import { ALL_PERMISSIONS, expandPermissions, type PermissionName } from './permissions.js';
import { StoreCache } from './store-cache.js';

/**
 * Who is calling, and what they may touch. Two kinds of credentials, as Cloudflare has them:
 * - an account's e-mail and global API key (`X-Auth-Email` + `X-Auth-Key`): every zone of the account,
 *   every permission;
 * - an API token (`Authorization: Bearer …`): the zones it lists (`*` = every zone of its account), with
 *   its permissions (./permissions.ts).
 * Keys and tokens are stored as SHA-256 digests only (they are random, long secrets: no salt needed).
 */
export interface Principal {
  accountId: string;
  /** Zone ids or names reachable; `*` = all of the account's zones. */
  zones: readonly string[];
  permissions: ReadonlySet<PermissionName>;
  /** Whether the principal may act on the whole account (create zones): a global key or a `*` token. */
  accountWide: boolean;
}

/** The credential headers of a request, as given (undefined when absent). */
export interface Credentials {
  email?: string;
  key?: string;
  authorization?: string;
}

export const digest = (secret: string): string => createHash('sha256').update(secret).digest('hex');

/** Global API keys: 37 lowercase hex characters. */
export const API_KEY = /^[0-9a-f]{37}$/;
/** API tokens: 40 characters of the URL-safe base64 alphabet. */
export const API_TOKEN = /^[A-Za-z0-9_-]{40}$/;
const EMAIL = /^[^\s@]+@[^\s@]+$/;
const BEARER = /^Bearer (\S+)$/;

const authenticationError = (): ServiceError =>
  new ServiceError('forbidden', { code: CODES.notPermitted, message: 'Authentication error' });

export class AuthService {
  /**
   * Principals by credentials as sent, so that a known credential costs neither a digest nor a query.
   * Emptied by any write to accounts or tokens (a narrowed, moved or replaced credential is read afresh
   * on its next use); unknown credentials are never kept. The secrets stay in this process's memory only.
   */
  private readonly principals: StoreCache<Principal>;
  /** Zones by id, emptied by any write to zones. */
  private readonly zones: StoreCache<ZoneRecord>;

  constructor(private readonly store: Store) {
    this.principals = new StoreCache(store, ['accounts', 'tokens']);
    this.zones = new StoreCache(store, ['zones']);
  }

  /** The principal of a request's credentials; a ServiceError when missing, malformed or unknown. */
  async authenticate(credentials: Credentials): Promise<Principal> {
    const { email, key, authorization } = credentials;
    // The official SDK sends every credential it was configured with: a token, when present, decides.
    if (authorization !== undefined) return this.byToken(authorization);
    if (email === undefined || key === undefined) {
      throw new ServiceError('bad-request', {
        code: CODES.missingCredentials,
        message: 'Missing X-Auth-Key, X-Auth-Email or Authorization headers',
      });
    }
    const chain: ApiMessage[] = [];
    if (!EMAIL.test(email))
      chain.push({ code: CODES.invalidEmailHeader, message: 'Invalid format for X-Auth-Email header' });
    if (!API_KEY.test(key))
      chain.push({ code: CODES.invalidKeyHeader, message: 'Invalid format for X-Auth-Key header' });
    if (chain.length > 0) throw invalidHeaders(chain);
    // Both checked by their formats above: neither holds a newline, so the key is unambiguous.
    const principal = await this.principals.get(`key\n${email}\n${key}`, async () => {
      const account = await this.store.transaction((tx) => tx.accounts.getByApiKeyHash(digest(key)));
      if (!account || account.email.toLowerCase() !== email.toLowerCase()) return undefined;
      return {
        accountId: account.id,
        zones: Object.freeze(['*']),
        permissions: ALL_PERMISSIONS,
        accountWide: true,
      };
    });
    if (!principal) {
      throw new ServiceError('forbidden', {
        code: CODES.unknownKey,
        message: 'Unknown X-Auth-Key or X-Auth-Email',
      });
    }
    return principal;
  }

  private async byToken(authorization: string): Promise<Principal> {
    const value = BEARER.exec(authorization)?.[1];
    if (value === undefined || !API_TOKEN.test(value)) {
      throw invalidHeaders([
        { code: CODES.invalidAuthorizationHeader, message: 'Invalid format for Authorization header' },
      ]);
    }
    const principal = await this.principals.get(`token\n${value}`, async () => {
      const token = await this.store.transaction((tx) => tx.tokens.getByHash(digest(value)));
      if (!token) return undefined;
      const accountWide = token.zones.includes('*');
      return {
        accountId: token.accountId,
        zones: Object.freeze([...token.zones]),
        permissions: expandPermissions(token.permissions, accountWide),
        accountWide,
      };
    });
    if (!principal)
      throw new ServiceError('forbidden', { code: CODES.invalidToken, message: 'Invalid access token' });
    return principal;
  }

  /**
   * The zone a request names, if the principal reaches it and holds every permission `needs` lists. An id
   * that cannot be a zone's, or no such zone, is a routing error as on Cloudflare; a zone of another
   * account or outside a token's list, or a missing permission, is an authentication error.
   */
  async zone(principal: Principal, zoneId: string, ...needs: PermissionName[]): Promise<ZoneRecord> {
    const zone = isId(zoneId)
      ? await this.zones.get(zoneId, () => this.store.transaction((tx) => tx.zones.get(zoneId)))
      : undefined;
    if (!zone) throw unknownZone(zoneId, isId(zoneId));
    if (!reaches(principal, zone)) throw authenticationError();
    requirePermissions(principal, needs);
    return zone;
  }

  /**
   * The account a request's path names (`/accounts/{account_id}/…`), if the principal may act on the whole
   * account with the permission `need`. As for zones, an id of the wrong shape or no such account is a
   * routing error, another account's or a zone-scoped token an authentication error.
   */
  async account(principal: Principal, accountId: string, need: PermissionName): Promise<AccountRecord> {
    const account = isId(accountId)
      ? await this.store.transaction((tx) => tx.accounts.get(accountId))
      : undefined;
    if (!account) throw unknownObject(`accounts/${accountId}`, isId(accountId));
    this.requireAccount(principal, accountId, need);
    return account;
  }

  /** Refuses an account-level action to a zone-scoped token, or to one without the permission. */
  requireAccount(principal: Principal, accountId: string, need: PermissionName): void {
    if (!principal.accountWide || principal.accountId !== accountId) throw authenticationError();
    requirePermissions(principal, [need]);
  }
}

/** Refuses a request whose credential lacks one of the permissions it needs. */
export function requirePermissions(principal: Principal, needs: readonly PermissionName[]): void {
  const missing = needs.filter((need) => !principal.permissions.has(need));
  if (missing.length === 0) return;
  // Cloudflare's answer, with the missing permission named underneath so that the fix is obvious.
  throw new ServiceError('forbidden', {
    code: CODES.notPermitted,
    message: 'Authentication error',
    error_chain: [
      {
        code: CODES.notPermitted,
        message: `the credential lacks the permission ${missing.join(' and ')} (docs/api.md, "Permissions")`,
      },
    ],
  });
}

/** Whether a principal reaches a zone: same account, and the zone is in a token's list. */
export function reaches(principal: Principal, zone: ZoneRecord): boolean {
  if (zone.accountId !== principal.accountId) return false;
  return principal.zones.some((entry) => entry === '*' || entry === zone.id || entry === zone.name);
}

const invalidHeaders = (chain: ApiMessage[]): ServiceError =>
  new ServiceError('bad-request', {
    code: CODES.invalidHeaders,
    message: 'Invalid request headers',
    error_chain: chain,
  });

/** Cloudflare's answer to a path naming a zone that does not exist (or cannot, by its shape). */
export const unknownZone = (zoneId: string, wellFormed: boolean): ServiceError =>
  unknownObject(`zones/${zoneId}`, wellFormed);

/** Cloudflare's answer to a path naming an object (`zones/<id>`) that does not exist or cannot exist. */
function unknownObject(path: string, wellFormed: boolean): ServiceError {
  return new ServiceError(wellFormed ? 'not-found' : 'bad-request', [
    {
      code: CODES.cannotRoute,
      message: `Could not route to /client/v4/${path}, perhaps your object identifier is invalid?`,
    },
    { code: CODES.noRoute, message: 'No route for that URI' },
  ]);
}
