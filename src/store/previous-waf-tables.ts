import type {
  PageRuleRecord,
  PageRuleTable,
  WafMigrationRecord,
  WafMigrationTable,
  WafOverrideRecord,
  WafOverrideTable,
  WafSettingKind,
  WafSettingRecord,
  WafSettingTable,
} from './previous-waf-store.js';
import {
  bit,
  COUNT,
  insertSql,
  type Prepare,
  pagedList,
  parseJson as parse,
  type Sql,
  updatedOne,
  updateSql,
  type Values,
} from './sql.js';
import type { TableName } from './store.js';

/**
 * The tables of the previous WAF and its migration (migration 2 in ./migrations.ts), on either database.
 */

/** The tables of this file; deleting a zone cascades to each. */
export const PREVIOUS_WAF_TABLES: readonly TableName[] = [
  'wafSettings',
  'wafOverrides',
  'pageRules',
  'wafMigrations',
];

export function previousWafTables({ prepare }: Sql) {
  return {
    wafSettings: wafSettingTable(prepare),
    wafOverrides: wafOverrideTable(prepare),
    pageRules: pageRuleTable(prepare),
    wafMigrations: wafMigrationTable(prepare),
  };
}

// ——— settings ———

interface SettingRow {
  zone_id: string;
  kind: string;
  item_id: string;
  settings: string;
  modified_on: string;
}

function wafSettingTable(prepare: Prepare): WafSettingTable {
  const list = prepare<{ zone_id: string }, SettingRow>(
    'SELECT zone_id, kind, item_id, settings, modified_on FROM waf_settings WHERE zone_id = @zone_id ORDER BY seq',
  );
  const put = prepare<SettingRow>(
    `${insertSql('waf_settings', ['zone_id', 'kind', 'item_id', 'settings', 'modified_on'])}
     ON CONFLICT (zone_id, kind, item_id) DO UPDATE SET settings = excluded.settings, modified_on = excluded.modified_on`,
    { writes: ['wafSettings'] },
  );
  const remove = prepare<{ zone_id: string; kind: string; item_id: string }>(
    'DELETE FROM waf_settings WHERE zone_id = @zone_id AND kind = @kind AND item_id = @item_id',
    { writes: ['wafSettings'] },
  );
  return {
    list: async (zoneId) =>
      (await list.all({ zone_id: zoneId })).map(
        (row): WafSettingRecord => ({
          zoneId: row.zone_id,
          kind: row.kind as WafSettingKind,
          itemId: row.item_id,
          settings: parse(row.settings),
          modifiedOn: row.modified_on,
        }),
      ),
    put: async (setting) =>
      void (await put.run({
        zone_id: setting.zoneId,
        kind: setting.kind,
        item_id: setting.itemId,
        settings: JSON.stringify(setting.settings),
        modified_on: setting.modifiedOn,
      })),
    delete: async (zoneId, kind, itemId) =>
      (await remove.run({ zone_id: zoneId, kind, item_id: itemId })) > 0,
  };
}

// ——— overrides ———

const OVERRIDE_COLUMNS = [
  'id',
  'zone_id',
  'description',
  'urls',
  'priority',
  'groups_modes',
  'rules_modes',
  'rewrite_action',
  'paused',
  'created_on',
  'modified_on',
] as const;

const overrideToRow = (o: WafOverrideRecord) => ({
  id: o.id,
  zone_id: o.zoneId,
  description: o.description,
  urls: JSON.stringify(o.urls),
  priority: o.priority,
  groups_modes: JSON.stringify(o.groups),
  rules_modes: JSON.stringify(o.rules),
  rewrite_action: JSON.stringify(o.rewriteAction),
  paused: bit(o.paused),
});

const readOverride = (v: Values): WafOverrideRecord => ({
  id: v[0] as string,
  zoneId: v[1] as string,
  description: v[2] as string | null,
  urls: parse(v[3]),
  priority: v[4] as number,
  groups: parse(v[5]),
  rules: parse(v[6]),
  rewriteAction: parse(v[7]),
  paused: v[8] === 1,
  createdOn: v[9] as string,
  modifiedOn: v[10] as string,
});

function wafOverrideTable(prepare: Prepare): WafOverrideTable {
  const columns = OVERRIDE_COLUMNS.join(', ');
  const list = pagedList<{ zone_id: string }, WafOverrideRecord>(
    prepare,
    { from: 'waf_overrides', columns, where: 'zone_id = @zone_id', order: 'seq' },
    (values) => readOverride(values),
  );
  const get = prepare<{ zone_id: string; id: string }, Values>(
    `SELECT ${columns} FROM waf_overrides WHERE zone_id = @zone_id AND id = @id`,
    { raw: true },
  );
  const writes = { writes: ['wafOverrides'] as const };
  const insert = prepare<object>(insertSql('waf_overrides', OVERRIDE_COLUMNS), writes);
  const update = prepare<object>(updateSql('waf_overrides', OVERRIDE_COLUMNS, ['zone_id', 'id']), writes);
  const remove = prepare<{ zone_id: string; id: string }>(
    'DELETE FROM waf_overrides WHERE zone_id = @zone_id AND id = @id',
    writes,
  );
  const count = prepare<{ zone_id: string }, { n: number }>(
    `SELECT ${COUNT} FROM waf_overrides WHERE zone_id = @zone_id`,
  );
  return {
    list: (zoneId, page) => list({ zone_id: zoneId }, page),
    get: async (zoneId, id) => {
      const values = await get.get({ zone_id: zoneId, id });
      return values === undefined ? undefined : readOverride(values);
    },
    insert: async (o) =>
      void (await insert.run({ ...overrideToRow(o), created_on: o.createdOn, modified_on: o.modifiedOn })),
    update: async (o) =>
      updatedOne(
        await update.run({ ...overrideToRow(o), created_on: o.createdOn, modified_on: o.modifiedOn }),
        'WAF override',
        o.id,
      ),
    delete: async (zoneId, id) => (await remove.run({ zone_id: zoneId, id })) > 0,
    count: async (zoneId) => (await count.get({ zone_id: zoneId }))?.n ?? 0,
  };
}

// ——— page rules ———

const PAGE_RULE_COLUMNS = [
  'id',
  'zone_id',
  'targets',
  'actions',
  'priority',
  'status',
  'created_on',
  'modified_on',
] as const;

const pageRuleToRow = (r: PageRuleRecord) => ({
  id: r.id,
  zone_id: r.zoneId,
  targets: JSON.stringify(r.targets),
  actions: JSON.stringify(r.actions),
  priority: r.priority,
  status: r.status,
  created_on: r.createdOn,
  modified_on: r.modifiedOn,
});

const readPageRule = (v: Values): PageRuleRecord => ({
  id: v[0] as string,
  zoneId: v[1] as string,
  targets: parse(v[2]),
  actions: parse(v[3]),
  priority: v[4] as number,
  status: v[5] as PageRuleRecord['status'],
  createdOn: v[6] as string,
  modifiedOn: v[7] as string,
});

function pageRuleTable(prepare: Prepare): PageRuleTable {
  const columns = PAGE_RULE_COLUMNS.join(', ');
  const list = prepare<{ zone_id: string }, Values>(
    `SELECT ${columns} FROM page_rules WHERE zone_id = @zone_id ORDER BY seq`,
    { raw: true },
  );
  const get = prepare<{ zone_id: string; id: string }, Values>(
    `SELECT ${columns} FROM page_rules WHERE zone_id = @zone_id AND id = @id`,
    { raw: true },
  );
  const writes = { writes: ['pageRules'] as const };
  const insert = prepare<object>(insertSql('page_rules', PAGE_RULE_COLUMNS), writes);
  const update = prepare<object>(updateSql('page_rules', PAGE_RULE_COLUMNS, ['zone_id', 'id']), writes);
  const remove = prepare<{ zone_id: string; id: string }>(
    'DELETE FROM page_rules WHERE zone_id = @zone_id AND id = @id',
    writes,
  );
  return {
    list: async (zoneId) => (await list.all({ zone_id: zoneId })).map(readPageRule),
    get: async (zoneId, id) => {
      const values = await get.get({ zone_id: zoneId, id });
      return values === undefined ? undefined : readPageRule(values);
    },
    insert: async (rule) => void (await insert.run(pageRuleToRow(rule))),
    update: async (rule) => updatedOne(await update.run(pageRuleToRow(rule)), 'page rule', rule.id),
    delete: async (zoneId, id) => (await remove.run({ zone_id: zoneId, id })) > 0,
  };
}

// ——— migration ———

function wafMigrationTable(prepare: Prepare): WafMigrationTable {
  const get = prepare<{ zone_id: string }, { state: string; changed_on: string }>(
    'SELECT state, changed_on FROM waf_migrations WHERE zone_id = @zone_id',
  );
  const put = prepare<{ zone_id: string; state: string; changed_on: string }>(
    `INSERT INTO waf_migrations (zone_id, state, changed_on) VALUES (@zone_id, @state, @changed_on)
     ON CONFLICT (zone_id) DO UPDATE SET state = excluded.state, changed_on = excluded.changed_on`,
    { writes: ['wafMigrations'] },
  );
  return {
    get: async (zoneId) => {
      const row = await get.get({ zone_id: zoneId });
      return row === undefined
        ? undefined
        : { zoneId, state: row.state as WafMigrationRecord['state'], changedOn: row.changed_on };
    },
    put: async (record) =>
      void (await put.run({ zone_id: record.zoneId, state: record.state, changed_on: record.changedOn })),
  };
}
