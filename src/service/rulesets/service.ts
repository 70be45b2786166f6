import type {
  RulesetHeader,
  RulesetRecord,
  RulesetRuleRecord,
  Store,
  StoreTransaction,
} from '../../store/store.js';
import { at, CODES, ServiceError } from '../errors.js';
import { isId, newId } from '../ids.js';
import { BodyObject, childPlace, rootPlace, shown } from '../input.js';
import { type QueryParams, queryBoolean, queryString } from '../pagination.js';
import { StoreCache } from '../store-cache.js';
import {
  migrationUnavailable,
  type WafMigrationHook,
  type WafMigrationRequest,
} from '../waf-migration-hook.js';
import type { ExecutableRuleset } from './action-parameters.js';
import { checkDraft, type Draft, namedRule, ruleFrom, type Touched } from './compose.js';
import { arrayMember, notValid, onlyMembers } from './input.js';
import { managedRulesetHeaders, managedRulesetJson } from './managed.js';
import {
  headerJson,
  isRulesetPhase,
  RULESET_KINDS,
  RULESET_LIMITS,
  RULESET_PHASES,
  type RulesetJson,
  type RulesetPhase,
  rulesetJson,
  timestamp,
} from './model.js';
import {
  entryKind,
  ownerOf,
  type RulesetOwner,
  type RulesetTarget,
  refusedCustomPhase,
  refusedKind,
  requireEntitled,
  rulesetActions,
  rulesetTableOf,
} from './owner.js';
import { placeRule, readPosition } from './position.js';
import { type RuleContext, readRule } from './read-rule.js';

/**
 * The Rulesets API of a zone (`/zones/{zone_id}/rulesets…`) and of an account
 * (`/accounts/{account_id}/rulesets…`): custom rulesets and phase entry points, stored with every version;
 * the catalogue's managed rulesets, read-only; rules added, edited, moved and deleted one at a time. Every
 * method takes the zone or the account of the path (owner.ts says what differs). Every write is one
 * transaction: a refused request stores nothing.
 */

export interface RulesetList {
  result: RulesetJson[];
  resultInfo: { cursor?: string };
}

/** Cursor pages of the list: `per_page` from 1 to 500 (50 by default). */
export const RULESET_PAGE = { min: 1, max: 500, default: 50 } as const;

const CODE = CODES.invalidRulesetValue;
/** Members of an answer that a client may send back: not read. */
const READ_ONLY = ['id', 'version', 'last_updated', 'source'];

/** How a write was asked for: `dry_run` checks everything and stores nothing. */
interface WriteOptions {
  query?: QueryParams;
}

export class RulesetService {
  /** Answers of reads, until the next write to rulesets (see StoreCache). */
  private readonly reads: StoreCache<{ value: RulesetJson | RulesetJson[] }>;

  constructor(
    private readonly store: Store,
    private readonly migrationHook: () => WafMigrationHook | undefined = () => undefined,
  ) {
    this.reads = new StoreCache(store, ['rulesets', 'accountRulesets']);
  }

  /** Managed rulesets first, then the owner's in creation order; `cursor` is the id of the last one seen. */
  async list(target: RulesetTarget, query: QueryParams): Promise<RulesetList> {
    const owner = ownerOf(target);
    const perPage = readPerPage(query);
    const cursor = queryString(query, 'cursor');
    const all = (
      await this.reads.get(`list/${owner.scope}/${owner.id}`, async () => ({
        value: [
          ...managedRulesetHeaders(),
          ...(await this.store.transaction((tx) => rulesetTableOf(tx, owner).list(owner.id))).map(headerJson),
        ],
      }))
    ).value as RulesetJson[];
    let start = 0;
    if (cursor !== undefined && cursor !== '') {
      const index = all.findIndex((ruleset) => ruleset.id === cursor);
      if (index === -1) {
        throw new ServiceError(
          'bad-request',
          at(CODES.invalidQuery, `cursor ${shown(cursor)} is not the id of a ruleset of this ${owner.scope}`),
        );
      }
      start = index + 1;
    }
    const result = all.slice(start, start + perPage);
    const more = start + perPage < all.length;
    return { result, resultInfo: more ? { cursor: result[result.length - 1]?.id as string } : {} };
  }

  async get(target: RulesetTarget, id: string): Promise<RulesetJson> {
    const owner = ownerOf(target);
    const managed = managedRulesetJson(id);
    if (managed !== undefined) return managed;
    const found = await this.reads.get(`ruleset/${owner.scope}/${owner.id}/${id}`, async () => {
      const ruleset = isId(id)
        ? await this.store.transaction((tx) => rulesetTableOf(tx, owner).get(owner.id, id))
        : undefined;
      return ruleset === undefined ? undefined : { value: rulesetJson(ruleset) };
    });
    if (found === undefined) throw rulesetNotFound(id);
    return found.value as RulesetJson;
  }

  /** `{name, kind, phase, description?, rules?}`: a custom ruleset or a phase's entry point. */
  async create(
    target: RulesetTarget,
    body: unknown,
    options: WriteOptions = {},
  ): Promise<RulesetJson | null> {
    const owner = ownerOf(target);
    return this.write(options, async (tx) => {
      await requireEntitled(tx, owner);
      const object = BodyObject.read(body, rootPlace(CODE), 'the request body');
      onlyMembers(body, object.place, ['name', 'kind', 'phase', 'description', 'rules'], READ_ONLY);
      const name = object.requiredString('name', RULESET_LIMITS.name);
      const kind = object.oneOf('kind', RULESET_KINDS);
      const refused = refusedKind(owner, kind);
      if (refused !== undefined) throw notValid(object.placeOf('kind'), kind, refused);
      const phase = readPhase(object);
      const wrongPhase = kind === 'custom' ? refusedCustomPhase(owner, phase) : undefined;
      if (wrongPhase !== undefined) throw notValid(object.placeOf('phase'), phase, wrongPhase);
      if (kind !== 'custom' && (await rulesetTableOf(tx, owner).entryPoint(owner.id, phase)) !== undefined) {
        throw notValid(
          object.placeOf('kind'),
          kind,
          `exceeded maximum number of ${kind} rulesets for phase ${phase}`,
        );
      }
      const header: RulesetHeader = {
        id: newId(),
        ownerId: owner.id,
        kind: kind as 'custom' | 'zone' | 'root',
        phase,
        name,
        description: object.string('description', RULESET_LIMITS.description) ?? '',
        version: 0,
        lastUpdated: '',
      };
      const draft = this.rulesFromList(object, [], await this.ruleContext(tx, owner, header));
      return await this.save(tx, owner, header, draft, 0);
    });
  }

  /** `{description?, rules?}`: the next version; what is left out stays as it was. Name and kind never change. */
  async update(
    target: RulesetTarget,
    id: string,
    body: unknown,
    options: WriteOptions = {},
  ): Promise<RulesetJson | null> {
    const owner = ownerOf(target);
    return this.write(options, async (tx) => {
      const current = await this.writable(tx, owner, id);
      await requireEntitled(tx, owner);
      return await this.replace(tx, owner, current, body, await this.allowsEnabled(tx, owner));
    });
  }

  /** Deletes the ruleset with all its versions; not while an entry point executes it. */
  async delete(target: RulesetTarget, id: string, options: WriteOptions = {}): Promise<void> {
    const owner = ownerOf(target);
    await this.write(options, async (tx) => {
      const table = rulesetTableOf(tx, owner);
      const current = await this.writable(tx, owner, id);
      const entry = current.kind === 'custom' ? await table.entryPoint(owner.id, current.phase) : undefined;
      const executor = entry?.rules.find(
        (rule) => rule.action === 'execute' && rule.actionParameters?.id === current.id,
      );
      if (entry !== undefined && executor !== undefined) {
        throw new ServiceError(
          'bad-request',
          at(
            CODES.rulesetInUse,
            `ruleset ${current.id} is executed by rule ${executor.id} of the ${entry.phase} entry point: delete or change that rule first`,
          ),
        );
      }
      await table.delete(owner.id, current.id);
      return null;
    });
  }

  /** A rule, last or at `position`; the whole ruleset at its next version. */
  async addRule(
    target: RulesetTarget,
    rulesetId: string,
    body: unknown,
    options: WriteOptions = {},
  ): Promise<RulesetJson | null> {
    const owner = ownerOf(target);
    return this.write(options, async (tx) => {
      const current = await this.writable(tx, owner, rulesetId);
      await requireEntitled(tx, owner);
      const place = rootPlace(CODE);
      const object = BodyObject.read(body, place, 'the request body');
      const content = readRule(body, place, await this.ruleContext(tx, owner, current), ['position']);
      if (object.has('id')) object.fail('id', 'a new rule gets its id from the service: leave id out');
      const { rule } = ruleFrom(content, undefined, timestamp());
      const position = readPosition(object);
      const rules =
        position === undefined ? [...current.rules, rule] : placeRule(current.rules, rule, position, object);
      return await this.save(tx, owner, current, { rules, touched: [{ rule, place }] }, current.rules.length);
    });
  }

  /** The members given replace the rule's (a new action drops the old one's parameters); `position` moves it. */
  async editRule(
    target: RulesetTarget,
    rulesetId: string,
    ruleId: string,
    body: unknown,
    options: WriteOptions = {},
  ): Promise<RulesetJson | null> {
    const owner = ownerOf(target);
    return this.write(options, async (tx) => {
      const current = await this.writable(tx, owner, rulesetId);
      await requireEntitled(tx, owner);
      const existing = findRule(current, ruleId);
      const place = rootPlace(CODE);
      const object = BodyObject.read(body, place, 'the request body');
      if (object.has('id') && object.get('id') !== existing.id) {
        object.fail('id', `id must be the rule id of the path (${existing.id}) or be left out`);
      }
      const merged = { ...editable(existing, object), ...object.rawValue() };
      const content = readRule(merged, place, await this.ruleContext(tx, owner, current), ['position']);
      const { rule, changed } = ruleFrom(content, existing, timestamp());
      const others = current.rules.filter((other) => other.id !== existing.id);
      const position = readPosition(object);
      const rules =
        position === undefined
          ? current.rules.map((other) => (other.id === existing.id ? rule : other))
          : placeRule(others, rule, position, object);
      return this.save(
        tx,
        owner,
        current,
        { rules, touched: changed ? [{ rule, place }] : [] },
        current.rules.length,
      );
    });
  }

  async deleteRule(
    target: RulesetTarget,
    rulesetId: string,
    ruleId: string,
    options: WriteOptions = {},
  ): Promise<RulesetJson | null> {
    const owner = ownerOf(target);
    return this.write(options, async (tx) => {
      const current = await this.writable(tx, owner, rulesetId);
      const existing = findRule(current, ruleId);
      const rules = current.rules.filter((rule) => rule.id !== existing.id);
      return await this.save(tx, owner, current, { rules, touched: [] }, current.rules.length);
    });
  }

  /** Every version kept, oldest first, without rules. */
  async versions(target: RulesetTarget, id: string): Promise<RulesetJson[]> {
    const owner = ownerOf(target);
    const managed = managedRulesetJson(id);
    if (managed !== undefined) return [withoutRules(managed)];
    const versions = isId(id)
      ? await this.store.transaction((tx) => rulesetTableOf(tx, owner).versions(owner.id, id))
      : [];
    if (versions.length === 0) throw rulesetNotFound(id);
    return versions.map(headerJson);
  }

  async version(target: RulesetTarget, id: string, version: string): Promise<RulesetJson> {
    const owner = ownerOf(target);
    const managed = managedRulesetJson(id);
    if (managed !== undefined) {
      if (version !== managed.version) throw versionNotFound(id, version);
      return managed;
    }
    const number = versionNumber(version);
    const found = await this.store.transaction(async (tx) => {
      const table = rulesetTableOf(tx, owner);
      if (!isId(id) || (await table.get(owner.id, id)) === undefined) throw rulesetNotFound(id);
      return number === undefined ? undefined : await table.getVersion(owner.id, id, number);
    });
    if (found === undefined) throw versionNotFound(id, version);
    return rulesetJson(found);
  }

  /** Deletes an earlier version; the latest is the ruleset itself and stays. */
  async deleteVersion(
    target: RulesetTarget,
    id: string,
    version: string,
    options: WriteOptions = {},
  ): Promise<void> {
    const owner = ownerOf(target);
    await this.write(options, async (tx) => {
      const current = await this.writable(tx, owner, id);
      const number = versionNumber(version);
      if (number === current.version) {
        throw new ServiceError(
          'bad-request',
          at(
            CODES.latestVersionNotDeletable,
            `version ${number} is the latest version of ruleset ${id}: delete the ruleset instead`,
          ),
        );
      }
      if (number === undefined || !(await rulesetTableOf(tx, owner).deleteVersion(owner.id, id, number)))
        throw versionNotFound(id, version);
      return null;
    });
  }

  async getEntryPoint(target: RulesetTarget, phase: string): Promise<RulesetJson> {
    const owner = ownerOf(target);
    const checked = pathPhase(phase);
    const found = await this.reads.get(`entrypoint/${owner.scope}/${owner.id}/${checked}`, async () => {
      const ruleset = await this.store.transaction((tx) =>
        rulesetTableOf(tx, owner).entryPoint(owner.id, checked),
      );
      return ruleset === undefined ? undefined : { value: rulesetJson(ruleset) };
    });
    if (found === undefined) throw entryPointNotFound(checked);
    return found.value as RulesetJson;
  }

  /**
   * `{name?, description?, rules?}`: the phase's entry point, created (version 1) when there is none. With
   * `wafMigration` (from `?waf_migration=`), the write is handed to the migration hook (waf-migration-hook.ts).
   */
  async putEntryPoint(
    target: RulesetTarget,
    phase: string,
    body: unknown,
    options: WriteOptions & { wafMigration?: WafMigrationRequest } = {},
  ): Promise<RulesetJson | null> {
    const owner = ownerOf(target);
    const checked = pathPhase(phase);
    const { wafMigration } = options;
    if (
      wafMigration !== undefined &&
      (owner.scope !== 'zone' || checked !== 'http_request_firewall_managed')
    ) {
      throw new ServiceError(
        'bad-request',
        at(
          CODES.invalidQuery,
          "waf_migration only applies to a zone's http_request_firewall_managed entry point",
        ),
      );
    }
    return this.write(options, async (tx) => {
      await requireEntitled(tx, owner);
      const write = (allowEnabled: boolean) => this.writeEntryPoint(tx, owner, checked, body, allowEnabled);
      if (wafMigration === undefined || owner.scope !== 'zone') {
        return write(await this.allowsEnabled(tx, owner));
      }
      const hook = this.migrationHook();
      if (hook === undefined) throw migrationUnavailable();
      return hook.onEntryPointUpdate(owner.zone, wafMigration, () => write(true), tx);
    });
  }

  async entryPointVersions(target: RulesetTarget, phase: string): Promise<RulesetJson[]> {
    return this.versions(target, await this.entryPointId(target, phase));
  }

  async entryPointVersion(target: RulesetTarget, phase: string, version: string): Promise<RulesetJson> {
    return this.version(target, await this.entryPointId(target, phase), version);
  }

  /** The id of the phase's entry point of the path; none yet: 404 (10003). */
  private async entryPointId(target: RulesetTarget, phase: string): Promise<string> {
    const owner = ownerOf(target);
    const checked = pathPhase(phase);
    const entry = await this.store.transaction((tx) =>
      rulesetTableOf(tx, owner).entryPoint(owner.id, checked),
    );
    if (entry === undefined) throw entryPointNotFound(checked);
    return entry.id;
  }

  // ——— shared steps ———

  /** Runs a write in one transaction; with `?dry_run=true` everything is checked, then rolled back. */
  private async write<T>(
    options: WriteOptions,
    work: (tx: StoreTransaction) => Promise<T>,
  ): Promise<T | null> {
    const dryRun = options.query === undefined ? false : (queryBoolean(options.query, 'dry_run') ?? false);
    if (!dryRun) return this.store.transaction(work);
    try {
      await this.store.transaction(async (tx) => {
        await work(tx);
        throw DRY_RUN;
      });
    } catch (error) {
      if (error !== DRY_RUN) throw error;
    }
    return null;
  }

  private async writeEntryPoint(
    tx: StoreTransaction,
    owner: RulesetOwner,
    phase: RulesetPhase,
    body: unknown,
    allowEnabled: boolean,
  ): Promise<RulesetJson> {
    const current = await rulesetTableOf(tx, owner).entryPoint(owner.id, phase);
    if (current !== undefined) return await this.replace(tx, owner, current, body, allowEnabled);
    const object = BodyObject.read(body, rootPlace(CODE), 'the request body');
    const kind = entryKind(owner);
    checkFixed(object, { kind, phase });
    onlyMembers(body, object.place, ['name', 'kind', 'phase', 'description', 'rules'], READ_ONLY);
    const header: RulesetHeader = {
      id: newId(),
      ownerId: owner.id,
      kind,
      phase,
      name: object.string('name', RULESET_LIMITS.name) || 'default',
      description: object.string('description', RULESET_LIMITS.description) ?? '',
      version: 0,
      lastUpdated: '',
    };
    const draft = this.rulesFromList(object, [], await this.ruleContext(tx, owner, header));
    return await this.save(tx, owner, header, draft, 0, allowEnabled);
  }

  /** PUT of a stored ruleset (by id or as its phase's entry point). */
  private async replace(
    tx: StoreTransaction,
    owner: RulesetOwner,
    current: RulesetRecord,
    body: unknown,
    allowEnabled: boolean,
  ): Promise<RulesetJson> {
    const object = BodyObject.read(body, rootPlace(CODE), 'the request body');
    onlyMembers(body, object.place, ['name', 'kind', 'phase', 'description', 'rules'], READ_ONLY);
    checkFixed(object, current);
    const description = object.present('description')
      ? (object.string('description', RULESET_LIMITS.description) ?? '')
      : current.description;
    const draft = object.has('rules')
      ? this.rulesFromList(object, current.rules, await this.ruleContext(tx, owner, current))
      : { rules: current.rules, touched: [] };
    return await this.save(tx, owner, { ...current, description }, draft, current.rules.length, allowEnabled);
  }

  /** The body's `rules` as the next version's: elements with an `id` change that stored rule. */
  private rulesFromList(
    object: BodyObject,
    current: readonly RulesetRuleRecord[],
    context: RuleContext,
  ): Draft {
    const items = arrayMember(object, 'rules', 'rules') ?? [];
    const time = timestamp();
    const seen = new Set<string>();
    const touched: Touched[] = [];
    const rules = items.map(({ value, place }) => {
      const id = BodyObject.read(value, place, 'a rule').get('id');
      const stored = namedRule(id, place, current, seen);
      const { rule, changed } = ruleFrom(readRule(value, place, context), stored, time);
      if (changed) touched.push({ rule, place });
      return rule;
    });
    return { rules, touched };
  }

  /** Checks the whole next version and stores it; its JSON. */
  private async save(
    tx: StoreTransaction,
    owner: RulesetOwner,
    header: RulesetHeader,
    draft: Draft,
    previousCount: number,
    allowEnabled?: boolean,
  ): Promise<RulesetJson> {
    checkDraft(draft, {
      plan: owner.plan,
      phase: header.phase as RulesetPhase,
      allowEnabledManaged: allowEnabled ?? (await this.allowsEnabled(tx, owner)),
      previousCount,
      rulesPlace: childPlace(rootPlace(CODE), 'rules'),
    });
    const next: RulesetRecord = {
      ...header,
      version: header.version + 1,
      lastUpdated: timestamp(),
      rules: draft.rules,
    };
    const table = rulesetTableOf(tx, owner);
    if (header.version === 0) await table.insert(next);
    else await table.addVersion(next);
    return rulesetJson(next);
  }

  /**
   * How the rules of `ruleset` are read: for the owner's plan and the ruleset's phase; an account's root
   * entry point deploys the account's custom rulesets with execute, so its rules may name them.
   */
  private async ruleContext(
    tx: StoreTransaction,
    owner: RulesetOwner,
    ruleset: RulesetHeader,
  ): Promise<RuleContext> {
    const phase = ruleset.phase as RulesetPhase;
    if (ruleset.kind !== 'root') return { plan: owner.plan, phase };
    const executable = new Map<string, ExecutableRuleset>();
    for (const header of await rulesetTableOf(tx, owner).list(owner.id)) {
      if (header.kind === 'custom') executable.set(header.id, { name: header.name, phase: header.phase });
    }
    return { plan: owner.plan, phase, actions: rulesetActions(ruleset.kind, phase), executable };
  }

  /** Whether the zone's managed entry point may hold enabled rules on any plan (the migration says so). */
  private async allowsEnabled(tx: StoreTransaction, owner: RulesetOwner): Promise<boolean> {
    if (owner.scope !== 'zone') return false;
    return (await this.migrationHook()?.isMigrated?.(owner.zone, tx)) ?? false;
  }

  /** A stored ruleset of the owner that may be written: managed ones are refused, unknown ones are 404. */
  private async writable(tx: StoreTransaction, owner: RulesetOwner, id: string): Promise<RulesetRecord> {
    if (managedRulesetJson(id) !== undefined) {
      throw new ServiceError(
        'forbidden',
        at(
          CODES.managedRulesetReadOnly,
          `ruleset ${id} is a managed ruleset and cannot be changed: deploy it with an execute rule in the http_request_firewall_managed entry point, and change its behaviour with overrides`,
        ),
      );
    }
    const ruleset = isId(id) ? await rulesetTableOf(tx, owner).get(owner.id, id) : undefined;
    if (ruleset === undefined) throw rulesetNotFound(id);
    return ruleset;
  }
}

/** Thrown inside a dry run's transaction to roll it back. */
const DRY_RUN = Symbol('dry run');

function findRule(ruleset: RulesetRecord, id: string): RulesetRuleRecord {
  const rule = ruleset.rules.find((candidate) => candidate.id === id);
  if (rule === undefined) {
    throw new ServiceError(
      'not-found',
      at(CODES.rulesetRuleNotFound, `could not find rule ${shown(id)} in ruleset ${ruleset.id}`),
    );
  }
  return rule;
}

/** A stored rule as a body would give it, under a PATCH's members; a new action drops action-bound members. */
function editable(rule: RulesetRuleRecord, patch: BodyObject): Record<string, unknown> {
  const actionChanges = patch.has('action') && patch.get('action') !== rule.action;
  return {
    action: rule.action,
    expression: rule.expression,
    description: rule.description,
    enabled: rule.enabled,
    ref: rule.ref,
    ...(rule.actionParameters === undefined || actionChanges
      ? {}
      : { action_parameters: rule.actionParameters }),
    ...(rule.logging === undefined || actionChanges ? {} : { logging: rule.logging }),
    ...(rule.ratelimit === undefined ? {} : { ratelimit: rule.ratelimit }),
  };
}

/** `name`, `kind` and `phase` may be sent (GET's answer sent back) but never changed. */
function checkFixed(object: BodyObject, fixed: { name?: string; kind: string; phase: string }): void {
  for (const key of ['name', 'kind', 'phase'] as const) {
    const value = object.get(key);
    const expected = fixed[key];
    if (value !== undefined && expected !== undefined && value !== expected) {
      throw notValid(object.placeOf(key), value, `the ${key} of a ruleset cannot change (it is ${expected})`);
    }
  }
}

function readPhase(object: BodyObject): RulesetPhase {
  const value = object.get('phase');
  if (typeof value === 'string' && isRulesetPhase(value)) return value;
  if (value === undefined) object.fail('phase', `phase is required: one of ${RULESET_PHASES.join(', ')}`);
  throw notValid(
    object.placeOf('phase'),
    value,
    `cfrules keeps rulesets of ${RULESET_PHASES.join(', ')} only`,
    CODES.unsupportedPhase,
  );
}

/** The phase of an entry-point path. */
function pathPhase(phase: string): RulesetPhase {
  if (isRulesetPhase(phase)) return phase;
  throw new ServiceError(
    'bad-request',
    at(
      CODES.unsupportedPhase,
      `'${shown(phase)}' is not a phase cfrules keeps entry points for: use ${RULESET_PHASES.join(', ')}`,
    ),
  );
}

const VERSION = /^[1-9][0-9]{0,9}$/;
const versionNumber = (text: string): number | undefined => (VERSION.test(text) ? Number(text) : undefined);

function readPerPage(query: QueryParams): number {
  const text = queryString(query, 'per_page');
  if (text === undefined) return RULESET_PAGE.default;
  const value = /^[0-9]{1,4}$/.test(text) ? Number(text) : Number.NaN;
  if (!(value >= RULESET_PAGE.min && value <= RULESET_PAGE.max)) {
    throw new ServiceError(
      'bad-request',
      at(CODES.invalidQuery, `per_page must be an integer from ${RULESET_PAGE.min} to ${RULESET_PAGE.max}`),
    );
  }
  return value;
}

const withoutRules = ({ rules: _rules, ...header }: RulesetJson): RulesetJson => header;

export const rulesetNotFound = (id: string): ServiceError =>
  new ServiceError('not-found', at(CODES.rulesetNotFound, `could not find ruleset ${shown(id)}`));

const versionNotFound = (id: string, version: string): ServiceError =>
  new ServiceError(
    'not-found',
    at(CODES.rulesetVersionNotFound, `could not find version ${shown(version)} of ruleset ${shown(id)}`),
  );

/** Cloudflare's answer when a phase has no entry point yet. */
export const entryPointNotFound = (phase: string): ServiceError =>
  new ServiceError(
    'not-found',
    at(CODES.entryPointNotFound, `could not find entrypoint ruleset in the ${phase} phase`),
  );
