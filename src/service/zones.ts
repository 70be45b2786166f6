import { PLANS, type Plan } from '../scheme/profile.js';
import type { AccountRecord, Store, ZoneRecord } from '../store/store.js';
import { type AuthService, type Principal, requirePermissions } from './auth.js';
import { at, CODES, ServiceError } from './errors.js';
import { newId, now } from './ids.js';
import { type QueryParams, queryString, readPage, resultInfo } from './pagination.js';
import type { PermissionName } from './permissions.js';

/**
 * Zones, in Cloudflare's shapes where they exist (`GET/POST /zones`, `GET/PATCH/DELETE /zones/{id}`). A zone
 * here is what the firewall needs: a name, an account and a plan; the rest of Cloudflare's zone object
 * (name servers, meta) is filled with fixed values so that clients reading it find what they expect.
 */

/** Plan objects as Cloudflare shows them; cfrules keys them by their `legacy_id`. */
const PLAN_NAMES: Record<Plan, string> = {
  free: 'Free Website',
  pro: 'Pro Website',
  business: 'Business Website',
  enterprise: 'Enterprise Website',
};
const PLAN_PRICES: Record<Plan, number> = { free: 0, pro: 20, business: 200, enterprise: 5000 };

export type ZoneJson = ReturnType<typeof zoneJson>;

export function zoneJson(zone: ZoneRecord, account: AccountRecord | undefined) {
  return {
    id: zone.id,
    name: zone.name,
    status: 'active',
    paused: zone.paused,
    type: 'full',
    development_mode: 0,
    name_servers: ['ns1.cfrules.invalid', 'ns2.cfrules.invalid'],
    original_name_servers: null,
    original_registrar: null,
    original_dnshost: null,
    created_on: zone.createdOn,
    modified_on: zone.modifiedOn,
    activated_on: zone.createdOn,
    owner: { id: account?.id ?? zone.accountId, type: 'user', email: account?.email ?? null },
    account: { id: zone.accountId, name: account?.name ?? '' },
    permissions: ['#zone:read', '#zone:edit'],
    plan: {
      id: zone.plan,
      name: PLAN_NAMES[zone.plan],
      price: PLAN_PRICES[zone.plan],
      currency: 'USD',
      frequency: zone.plan === 'free' ? '' : 'monthly',
      is_subscribed: true,
      can_subscribe: false,
      legacy_id: zone.plan,
      legacy_discount: false,
      externally_managed: false,
    },
  };
}

/** Lower-case DNS name of at least two labels: letters, digits and inner hyphens, 63 bytes a label. */
const ZONE_NAME = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

const invalidZone = (message: string, pointer?: string) =>
  new ServiceError('bad-request', at(CODES.invalidZone, message, pointer));

export class ZoneService {
  constructor(
    private readonly store: Store,
    private readonly auth: AuthService,
  ) {}

  /** The zones the principal reaches; query `name` (exact), `account.id`, `page`, `per_page`. */
  list(principal: Principal, query: QueryParams) {
    requirePermissions(principal, ['zone:read']);
    const page = readPage(query);
    const name = queryString(query, 'name')?.toLowerCase();
    const accountId = queryString(query, 'account.id');
    if (accountId !== undefined && accountId !== principal.accountId) {
      return { result: [], resultInfo: resultInfo(page, 0, 0) };
    }
    return this.store.transaction(async (tx) => {
      const scope = principal.zones.includes('*') ? {} : { idsOrNames: principal.zones };
      const found = await tx.zones.list({ ...scope, accountIds: [principal.accountId], name }, page);
      const account = await tx.accounts.get(principal.accountId);
      return {
        result: found.items.map((zone) => zoneJson(zone, account)),
        resultInfo: resultInfo(page, found.items.length, found.totalCount),
      };
    });
  }

  async get(principal: Principal, zoneId: string): Promise<ZoneJson> {
    const zone = await this.auth.zone(principal, zoneId, 'zone:read');
    return this.store.transaction(async (tx) => zoneJson(zone, await tx.accounts.get(zone.accountId)));
  }

  /** `{name, account?: {id}, plan?, type?}`; the account defaults to the caller's. */
  async create(principal: Principal, body: unknown): Promise<ZoneJson> {
    // Before reading the body: a credential that may not create zones learns nothing from its errors.
    requirePermissions(principal, ['zone:edit']);
    const fields = objectBody(body);
    const name = zoneName(fields.name);
    const accountId = accountIdOf(fields.account) ?? principal.accountId;
    this.auth.requireAccount(principal, accountId, 'zone:edit');
    const plan = fields.plan === undefined ? 'free' : planOf(fields.plan);
    if (fields.type !== undefined && fields.type !== 'full') {
      throw invalidZone('type must be "full" (the only zone type cfrules has)', '/type');
    }
    return this.store.transaction(async (tx) => {
      if (await tx.zones.getByName(accountId, name)) {
        throw new ServiceError('bad-request', at(CODES.zoneExists, `${name} already exists`, '/name'));
      }
      const time = now();
      const zone: ZoneRecord = {
        id: newId(),
        name,
        plan,
        accountId,
        paused: false,
        createdOn: time,
        modifiedOn: time,
      };
      await tx.zones.insert(zone);
      return zoneJson(zone, await tx.accounts.get(accountId));
    });
  }

  /**
   * `{plan?, paused?}`: a plan change (Billing Edit), or pausing (Zone Settings Edit). Other fields of
   * Cloudflare's edit are refused.
   */
  async edit(principal: Principal, zoneId: string, body: unknown): Promise<ZoneJson> {
    const zone = await this.auth.zone(principal, zoneId);
    const fields = objectBody(body);
    // An edit that changes nothing is still an edit: it needs the settings permission.
    const needs: PermissionName[] = fields.plan === undefined ? [] : ['billing:edit'];
    if (fields.plan === undefined || fields.paused !== undefined) needs.push('zone_settings:edit');
    requirePermissions(principal, needs);
    const unknown = Object.keys(fields).filter((key) => key !== 'plan' && key !== 'paused');
    if (unknown.length > 0) {
      throw invalidZone(
        `cannot change ${unknown.join(', ')}: only plan and paused can be changed`,
        `/${unknown[0]}`,
      );
    }
    if (fields.paused !== undefined && typeof fields.paused !== 'boolean') {
      throw invalidZone('paused must be true or false', '/paused');
    }
    const changed: ZoneRecord = {
      ...zone,
      plan: fields.plan === undefined ? zone.plan : planOf(fields.plan),
      paused: (fields.paused as boolean | undefined) ?? zone.paused,
      modifiedOn: now(),
    };
    return this.store.transaction(async (tx) => {
      await tx.zones.update(changed);
      return zoneJson(changed, await tx.accounts.get(changed.accountId));
    });
  }

  /** Deletes the zone with its filters and firewall rules. */
  async delete(principal: Principal, zoneId: string): Promise<{ id: string }> {
    const zone = await this.auth.zone(principal, zoneId, 'zone:edit');
    await this.store.transaction((tx) => tx.zones.delete(zone.id));
    return { id: zone.id };
  }
}

function objectBody(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw invalidZone('the request body must be a JSON object');
  }
  return body as Record<string, unknown>;
}

function zoneName(value: unknown): string {
  if (typeof value !== 'string') throw invalidZone("name is required: the zone's domain name", '/name');
  const name = value.trim().toLowerCase().replace(/\.$/, '');
  if (!ZONE_NAME.test(name))
    throw invalidZone(`${JSON.stringify(value)} is not a valid domain name`, '/name');
  return name;
}

function accountIdOf(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  const id = typeof value === 'object' && value !== null ? (value as { id?: unknown }).id : undefined;
  if (typeof id !== 'string') throw invalidZone('account must be an object with an id', '/account');
  return id;
}

/** A plan as `"business"`, `{id: "business"}` or `{legacy_id: "business"}`. */
function planOf(value: unknown): Plan {
  const object = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
  const name = object ? (object.legacy_id ?? object.id) : value;
  if (typeof name === 'string' && (PLANS as readonly string[]).includes(name)) return name as Plan;
  throw invalidZone(`plan must be one of ${PLANS.join(', ')} (as "business" or {"id": "business"})`, '/plan');
}
