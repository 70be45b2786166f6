import type { Plan } from '../../scheme/profile.js';
import type {
  AccountRecord,
  RulesetTable,
  StoredRulesetKind,
  StoreTransaction,
  ZoneRecord,
} from '../../store/store.js';
import { at, CODES, ServiceError } from '../errors.js';
import { PHASE_ACTIONS, type RuleAction, type RulesetPhase } from './model.js';

/**
 * Whose rulesets a request reaches: a zone's (`/zones/{zone_id}/rulesets…`) or an account's
 * (`/accounts/{account_id}/rulesets…`). Both have custom rulesets and one entry point per phase, kept and
 * versioned alike; what differs is here: the entry point's kind (`zone`, `root`), the kinds a client may
 * create, the actions of an entry point's rules (an account's root deploys custom rulesets with execute),
 * the plan expressions are checked for, and where the store keeps them.
 */
export type RulesetOwner =
  | { scope: 'zone'; id: string; plan: Plan; zone: ZoneRecord }
  | { scope: 'account'; id: string; plan: Plan; account: AccountRecord };

/** What the service's methods take: the zone or the account of the path. */
export type RulesetTarget = ZoneRecord | AccountRecord;

/**
 * The owner of a target. Account-level phases are an Enterprise feature on Cloudflare: an account's rules
 * are checked as an Enterprise zone's (and `requireEntitled` refuses accounts without an Enterprise zone).
 */
export const ownerOf = (target: RulesetTarget): RulesetOwner =>
  'plan' in target
    ? { scope: 'zone', id: target.id, plan: target.plan, zone: target }
    : { scope: 'account', id: target.id, plan: 'enterprise', account: target };

/** The kind of the owner's phase entry points. */
export const entryKind = (owner: RulesetOwner): 'zone' | 'root' => (owner.scope === 'zone' ? 'zone' : 'root');

/** Where the store keeps the owner's rulesets. */
export const rulesetTableOf = (tx: StoreTransaction, owner: RulesetOwner): RulesetTable =>
  owner.scope === 'zone' ? tx.rulesets : tx.accountRulesets;

/**
 * Why a client may not create a ruleset of `kind` in `phase` here, or undefined when it may. A zone has
 * custom rulesets of its custom phase and `zone` entry points; an account has custom rulesets of every
 * phase but the managed one (which runs Cloudflare's rulesets only) and `root` entry points.
 */
export function refusedKind(owner: RulesetOwner, kind: string): string | undefined {
  if (kind === 'managed') {
    return 'managed rulesets come from Cloudflare: execute them from the http_request_firewall_managed entry point';
  }
  if (owner.scope === 'zone' && kind === 'root') {
    return 'root rulesets are the entry points of an account: create them under /accounts/{account_id}/rulesets';
  }
  if (owner.scope === 'account' && kind === 'zone') {
    return 'zone rulesets are the entry points of a zone: create them under /zones/{zone_id}/rulesets';
  }
  return undefined;
}

/** Why a custom ruleset may not belong to `phase` here, or undefined when it may. */
export function refusedCustomPhase(owner: RulesetOwner, phase: RulesetPhase): string | undefined {
  if (owner.scope === 'zone') {
    return phase === 'http_request_firewall_custom'
      ? undefined
      : 'custom rulesets belong to the http_request_firewall_custom phase';
  }
  return phase === 'http_request_firewall_managed'
    ? 'the http_request_firewall_managed phase runs managed rulesets only: execute them from the root entry point'
    : undefined;
}

/**
 * The actions a ruleset's rules may take: its phase's, but an account's root entry point deploys rulesets
 * (execute; in the managed phase, skip as well).
 */
export function rulesetActions(kind: StoredRulesetKind, phase: RulesetPhase): readonly RuleAction[] {
  if (kind !== 'root') return PHASE_ACTIONS[phase];
  return phase === 'http_request_firewall_managed' ? PHASE_ACTIONS[phase] : ['execute'];
}

/**
 * Refuses a write to an account's rulesets when none of its zones is on the Enterprise plan: Cloudflare
 * offers account-level phases to Enterprise accounts only, and answers others 403. Reading and deleting
 * stay possible (an account whose last Enterprise zone moved to a smaller plan may still clean up).
 */
export async function requireEntitled(tx: StoreTransaction, owner: RulesetOwner): Promise<void> {
  if (owner.scope === 'zone') return;
  const perPage = 500;
  for (let page = 1; ; page++) {
    const { items } = await tx.zones.list({ accountIds: [owner.id] }, { page, perPage });
    if (items.some((zone) => zone.plan === 'enterprise')) return;
    if (items.length < perPage) break;
  }
  throw new ServiceError(
    'forbidden',
    at(
      CODES.accountNotEntitled,
      `account ${owner.id} is not entitled to account-level rulesets: they need an Enterprise plan, and none of the account's zones is on it`,
    ),
  );
}
