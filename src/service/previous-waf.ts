import type { PreviousWafGroup, PreviousWafRule } from '../engine/previous-waf/index.js';
import { ACTION_MODES, SENSITIVITIES } from '../engine/previous-waf/owasp-sensitivity.js';
import type { Store, StoreTransaction, WafSettingKind, ZoneRecord } from '../store/store.js';
import { at, CODES, ServiceError } from './errors.js';
import { now } from './ids.js';
import { BodyObject, rootPlace, shown } from './input.js';
import { byText, includesText, listItems } from './list-query.js';
import type { QueryParams } from './pagination.js';
import { assertPreviousWaf, type ZonePackage, ZoneWaf } from './previous-waf-state.js';

/**
 * The previous WAF managed rules (`/zones/{zone_id}/firewall/waf/packages…`): the catalogue's packages,
 * groups and rules, as the zone has set them. Pro and above, until the zone completes its migration.
 */

/** Lists of the previous WAF: 50 a page by default. */
const PER_PAGE = 50;

export interface GroupJson extends PreviousWafGroup {
  rules_count: number;
  modified_rules_count: number;
}

export type WafRuleJson = Omit<PreviousWafRule, 'kind' | 'group_id'> & {
  group: { id: string; name: string };
};

/** Filter codes of the rules list's `mode` parameter, as Cloudflare's API has them. */
const MODE_CODES: Record<string, string> = {
  DIS: 'disable',
  CHL: 'challenge',
  BLK: 'block',
  SIM: 'simulate',
};

const notFound = (code: number, what: string, id: string) =>
  new ServiceError('not-found', at(code, `${what} not found: ${shown(id)}`));

export class PreviousWafService {
  constructor(private readonly store: Store) {}

  /** Query: `name` (case-insensitive substring), `match`, `order` (`name`), `direction`, `page`, `per_page`. */
  listPackages(zone: ZoneRecord, query: QueryParams) {
    return this.read(zone, (waf) =>
      listItems(waf.packages(), query, {
        perPage: PER_PAGE,
        filters: { name: (pkg, value) => includesText(pkg.name, value) },
        orders: { name: (a, b) => byText(a.name, b.name) },
      }),
    );
  }

  async getPackage(zone: ZoneRecord, packageId: string): Promise<ZonePackage> {
    return this.read(zone, (waf) => findPackage(waf, packageId));
  }

  /** `{sensitivity?, action_mode?}`, anomaly packages only. */
  async editPackage(zone: ZoneRecord, packageId: string, body: unknown): Promise<ZonePackage> {
    return this.write(zone, async (tx, waf) => {
      const pkg = findPackage(waf, packageId);
      const object = BodyObject.read(body, rootPlace(CODES.invalidWafSetting), 'the request body');
      if (pkg.detection_mode !== 'anomaly') {
        for (const key of ['sensitivity', 'action_mode']) {
          if (object.has(key))
            object.fail(key, `${key} can only be set on anomaly packages; ${pkg.name} is traditional`);
        }
        return pkg;
      }
      const changes = { ...waf.changes('package', pkg.id) };
      if (object.has('sensitivity')) changes.sensitivity = object.oneOf('sensitivity', SENSITIVITIES);
      if (object.has('action_mode')) changes.action_mode = object.oneOf('action_mode', ACTION_MODES);
      await saveChanges(tx, zone.id, 'package', pkg.id, changes);
      return findPackage(await ZoneWaf.read(tx, zone.id), pkg.id);
    });
  }

  /**
   * Query: `name` (case-insensitive substring), `mode` (`on`/`off`), `rules_count`, `match`, `order`
   * (`mode`, `rules_count`), `direction`, `page`, `per_page`.
   */
  listGroups(zone: ZoneRecord, packageId: string, query: QueryParams) {
    return this.read(zone, (waf) => {
      findPackage(waf, packageId);
      return listItems(groupsOf(waf, packageId), query, {
        perPage: PER_PAGE,
        filters: {
          name: (group, value) => includesText(group.name, value),
          mode: (group, value) => group.mode === value,
          rules_count: (group, value) => String(group.rules_count) === value,
        },
        orders: {
          mode: (a, b) => byText(a.mode, b.mode),
          rules_count: (a, b) => a.rules_count - b.rules_count,
        },
      });
    });
  }

  async getGroup(zone: ZoneRecord, packageId: string, groupId: string): Promise<GroupJson> {
    return this.read(zone, (waf) => findGroup(waf, packageId, groupId));
  }

  /** `{mode}`: one of the group's `allowed_modes` (`on`, `off`). */
  async editGroup(zone: ZoneRecord, packageId: string, groupId: string, body: unknown): Promise<GroupJson> {
    return this.write(zone, async (tx, waf) => {
      const group = findGroup(waf, packageId, groupId);
      const object = BodyObject.read(body, rootPlace(CODES.invalidWafSetting), 'the request body');
      const mode = object.oneOf('mode', group.allowed_modes);
      const catalogue = new ZoneWaf(zone.id, []).groups().find((g) => g.id === group.id);
      await saveChanges(tx, zone.id, 'group', group.id, mode === catalogue?.mode ? {} : { mode });
      return findGroup(await ZoneWaf.read(tx, zone.id), packageId, groupId);
    });
  }

  /**
   * Query: `description` (case-insensitive substring), `group_id`, `priority` (exact), `mode` (a mode, or
   * Cloudflare's codes DIS, CHL, BLK, SIM; a rule in mode `default` matches its default mode), `match`,
   * `order` (`priority`, `group_id`, `description`), `direction`, `page`, `per_page`.
   */
  listRules(zone: ZoneRecord, packageId: string, query: QueryParams) {
    return this.read(zone, (waf) => {
      findPackage(waf, packageId);
      return listItems(rulesOf(waf, packageId), query, {
        perPage: PER_PAGE,
        filters: {
          description: (rule, value) => includesText(rule.description, value),
          group_id: (rule, value) => rule.group.id === value,
          priority: (rule, value) => rule.priority === value,
          mode: (rule, value) => {
            const mode = MODE_CODES[value] ?? value;
            return (
              rule.mode === mode ||
              (rule.mode === 'default' && 'default_mode' in rule && rule.default_mode === mode)
            );
          },
        },
        orders: {
          priority: (a, b) => Number(a.priority) - Number(b.priority),
          group_id: (a, b) => byText(a.group.id, b.group.id),
          description: (a, b) => byText(a.description, b.description),
        },
      });
    });
  }

  async getRule(zone: ZoneRecord, packageId: string, ruleId: string): Promise<WafRuleJson> {
    return this.read(zone, (waf) => findRule(waf, packageId, ruleId));
  }

  /** `{mode}`: one of the rule's `allowed_modes`; anything else is refused. */
  async editRule(zone: ZoneRecord, packageId: string, ruleId: string, body: unknown): Promise<WafRuleJson> {
    return this.write(zone, async (tx, waf) => {
      const rule = findRule(waf, packageId, ruleId);
      const object = BodyObject.read(body, rootPlace(CODES.invalidWafSetting), 'the request body');
      const mode = object.oneOf('mode', rule.allowed_modes);
      const catalogue = new ZoneWaf(zone.id, []).rules().find((r) => r.id === rule.id);
      await saveChanges(tx, zone.id, 'rule', rule.id, mode === catalogue?.mode ? {} : { mode });
      return findRule(await ZoneWaf.read(tx, zone.id), packageId, ruleId);
    });
  }

  private async read<T>(zone: ZoneRecord, work: (waf: ZoneWaf) => T): Promise<T> {
    return this.store.transaction(async (tx) => {
      await assertPreviousWaf(tx, zone);
      return work(await ZoneWaf.read(tx, zone.id));
    });
  }

  private async write<T>(
    zone: ZoneRecord,
    work: (tx: StoreTransaction, waf: ZoneWaf) => Promise<T>,
  ): Promise<T> {
    return this.store.transaction(async (tx) => {
      await assertPreviousWaf(tx, zone);
      return work(tx, await ZoneWaf.read(tx, zone.id));
    });
  }
}

/** Stores a zone's changes to an item; none left means back to the catalogue's defaults (no row). */
async function saveChanges(
  tx: StoreTransaction,
  zoneId: string,
  kind: WafSettingKind,
  itemId: string,
  changes: Record<string, string>,
): Promise<void> {
  if (Object.keys(changes).length === 0) await tx.wafSettings.delete(zoneId, kind, itemId);
  else await tx.wafSettings.put({ zoneId, kind, itemId, settings: changes, modifiedOn: now() });
}

function findPackage(waf: ZoneWaf, packageId: string): ZonePackage {
  const pkg = waf.packages().find((p) => p.id === packageId);
  if (pkg === undefined) throw notFound(CODES.wafPackageNotFound, 'WAF package', packageId);
  return pkg;
}

function groupsOf(waf: ZoneWaf, packageId: string): GroupJson[] {
  const rules = waf.rules();
  return waf
    .groups()
    .filter((group) => group.package_id === packageId)
    .map((group) => {
      const own = rules.filter((rule) => rule.group_id === group.id);
      return {
        ...group,
        rules_count: own.length,
        modified_rules_count: own.filter((rule) => Object.keys(waf.changes('rule', rule.id)).length > 0)
          .length,
      };
    });
}

function findGroup(waf: ZoneWaf, packageId: string, groupId: string): GroupJson {
  findPackage(waf, packageId);
  const group = groupsOf(waf, packageId).find((g) => g.id === groupId);
  if (group === undefined)
    throw notFound(CODES.wafGroupNotFound, `WAF group of package ${packageId}`, groupId);
  return group;
}

function rulesOf(waf: ZoneWaf, packageId: string): WafRuleJson[] {
  const names = new Map(waf.groups().map((group) => [group.id, group.name]));
  return waf
    .rules()
    .filter((rule) => rule.package_id === packageId)
    .map(({ kind: _kind, group_id, ...rule }) => ({
      ...rule,
      group: { id: group_id, name: names.get(group_id) ?? '' },
    }));
}

function findRule(waf: ZoneWaf, packageId: string, ruleId: string): WafRuleJson {
  findPackage(waf, packageId);
  const rule = rulesOf(waf, packageId).find((r) => r.id === ruleId);
  if (rule === undefined) throw notFound(CODES.wafRuleNotFound, `WAF rule of package ${packageId}`, ruleId);
  return rule;
}
