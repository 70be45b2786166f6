import { type Plan, parsePlan } from '../scheme/profile.js';
import { PREVIOUS_WAF_TABLES, previousWafTables } from './previous-waf-tables.js';
import { ACCOUNT_RULESETS, rulesetTable } from './ruleset-table.js';
import {
  bit,
  COUNT,
  deleter,
  equals,
  insertSql,
  optionalBit,
  optionalJson,
  pagedList,
  positions,
  qualified,
  type Read,
  reader,
  type Sql,
  updatedOne,
  updateSql,
  upsertSql,
  zoneCounter,
} from './sql.js';
import type {
  AccountRecord,
  AccountTable,
  FilterQuery,
  FilterRecord,
  FilterTable,
  FirewallRuleAction,
  FirewallRuleQuery,
  FirewallRuleRecord,
  FirewallRuleTable,
  FirewallRuleWithFilter,
  Permission,
  StoreTransaction,
  TableName,
  TokenRecord,
  TokenTable,
  ZoneQuery,
  ZoneRecord,
  ZoneTable,
} from './store.js';

/**
 * Every table of the store, on one connection: what a transaction's work receives. The SQL is shared by
 * SQLite and PostgreSQL (./sql.ts says how); each store builds these once per connection.
 */
export function storeTables(sql: Sql): StoreTransaction {
  return {
    accounts: accountTable(sql),
    tokens: tokenTable(sql),
    zones: zoneTable(sql),
    filters: filterTable(sql),
    firewallRules: firewallRuleTable(sql),
    ...previousWafTables(sql),
    rulesets: rulesetTable(sql),
    accountRulesets: rulesetTable(sql, ACCOUNT_RULESETS),
  };
}

// ——— accounts ———

interface AccountRow {
  id: string;
  name: string;
  email: string;
  api_key_hash: string | null;
  created_on: string;
}

const ACCOUNT_COLUMNS = ['id', 'name', 'email', 'api_key_hash', 'created_on'] as const;
const ACCOUNT = positions(ACCOUNT_COLUMNS);

const accountToRow = (account: AccountRecord): AccountRow => ({
  id: account.id,
  name: account.name,
  email: account.email,
  api_key_hash: account.apiKeyHash,
  created_on: account.createdOn,
});

const readAccount: Read<AccountRecord> = (values, at) => ({
  id: values[at + ACCOUNT.id] as string,
  name: values[at + ACCOUNT.name] as string,
  email: values[at + ACCOUNT.email] as string,
  apiKeyHash: values[at + ACCOUNT.api_key_hash] as string | null,
  createdOn: values[at + ACCOUNT.created_on] as string,
});

function accountTable({ prepare }: Sql): AccountTable {
  const select = `SELECT ${ACCOUNT_COLUMNS.join(', ')} FROM accounts`;
  const byId = reader<{ id: string }, AccountRecord>(prepare, `${select} WHERE id = @id`, readAccount);
  const byEmail = reader<{ email: string }, AccountRecord>(
    prepare,
    `${select} WHERE email = @email`,
    readAccount,
  );
  const byKey = reader<{ hash: string }, AccountRecord>(
    prepare,
    `${select} WHERE api_key_hash = @hash`,
    readAccount,
  );
  const put = prepare<AccountRow>(upsertSql('accounts', ACCOUNT_COLUMNS), { writes: ['accounts'] });
  const count = prepare<object, { n: number }>(`SELECT ${COUNT} FROM accounts`);
  return {
    get: (id) => byId({ id }),
    getByEmail: (email) => byEmail({ email }),
    getByApiKeyHash: (hash) => byKey({ hash }),
    put: async (account) => void (await put.run(accountToRow(account))),
    count: async () => (await count.get({}))?.n ?? 0,
  };
}

// ——— tokens ———

interface TokenRow {
  id: string;
  account_id: string;
  token_hash: string;
  /** JSON array. */
  zones: string;
  /** JSON array. */
  permissions: string;
  created_on: string;
}

const TOKEN_COLUMNS = ['id', 'account_id', 'token_hash', 'zones', 'permissions', 'created_on'] as const;
const TOKEN = positions(TOKEN_COLUMNS);

const tokenToRow = (token: TokenRecord): TokenRow => ({
  id: token.id,
  account_id: token.accountId,
  token_hash: token.tokenHash,
  zones: JSON.stringify(token.zones),
  permissions: JSON.stringify(token.permissions),
  created_on: token.createdOn,
});

const readToken: Read<TokenRecord> = (values, at) => ({
  id: values[at + TOKEN.id] as string,
  accountId: values[at + TOKEN.account_id] as string,
  tokenHash: values[at + TOKEN.token_hash] as string,
  zones: JSON.parse(values[at + TOKEN.zones] as string) as string[],
  permissions: JSON.parse(values[at + TOKEN.permissions] as string) as Permission[],
  createdOn: values[at + TOKEN.created_on] as string,
});

function tokenTable({ prepare }: Sql): TokenTable {
  const byHash = reader<{ hash: string }, TokenRecord>(
    prepare,
    `SELECT ${TOKEN_COLUMNS.join(', ')} FROM tokens WHERE token_hash = @hash`,
    readToken,
  );
  const put = prepare<TokenRow>(upsertSql('tokens', TOKEN_COLUMNS), { writes: ['tokens'] });
  return {
    getByHash: (hash) => byHash({ hash }),
    put: async (token) => void (await put.run(tokenToRow(token))),
  };
}

// ——— zones ———

interface ZoneRow {
  id: string;
  name: string;
  plan: string;
  account_id: string;
  paused: 0 | 1;
  created_on: string;
  modified_on: string;
}

const ZONE_COLUMNS = ['id', 'name', 'plan', 'account_id', 'paused', 'created_on', 'modified_on'] as const;
const ZONE = positions(ZONE_COLUMNS);

const zoneToRow = (zone: ZoneRecord): ZoneRow => ({
  id: zone.id,
  name: zone.name,
  plan: zone.plan,
  account_id: zone.accountId,
  paused: bit(zone.paused),
  created_on: zone.createdOn,
  modified_on: zone.modifiedOn,
});

const readZone: Read<ZoneRecord> = (values, at) => ({
  id: values[at + ZONE.id] as string,
  name: values[at + ZONE.name] as string,
  plan: storedPlan(values[at + ZONE.id] as string, values[at + ZONE.plan] as string),
  accountId: values[at + ZONE.account_id] as string,
  paused: values[at + ZONE.paused] === 1,
  createdOn: values[at + ZONE.created_on] as string,
  modifiedOn: values[at + ZONE.modified_on] as string,
});

/** The schema leaves plans open (see ./migrations.ts); one this code does not know is refused, not passed on. */
function storedPlan(zoneId: string, stored: string): Plan {
  const plan = parsePlan(stored);
  if (plan === undefined) throw new Error(`zone ${zoneId} has an unknown plan "${stored}"`);
  return plan;
}

interface ZoneListParams {
  /** JSON array, or null for any. */
  account_ids: string | null;
  /** JSON array, or null for any. */
  ids_or_names: string | null;
  name: string | null;
}

/** Deleting a zone deletes its filters, firewall rules, previous WAF settings and rulesets with it (ON DELETE CASCADE). */
const ZONE_WRITES: readonly TableName[] = [
  'zones',
  'filters',
  'firewallRules',
  ...PREVIOUS_WAF_TABLES,
  'rulesets',
];

function zoneTable({ prepare, dialect }: Sql): ZoneTable {
  const select = `SELECT ${ZONE_COLUMNS.join(', ')} FROM zones`;
  const byId = reader<{ id: string }, ZoneRecord>(prepare, `${select} WHERE id = @id`, readZone);
  const byName = reader<{ account_id: string; name: string }, ZoneRecord>(
    prepare,
    `${select} WHERE account_id = @account_id AND name = @name`,
    readZone,
  );
  const list = pagedList<ZoneListParams, ZoneRecord>(
    prepare,
    {
      from: 'zones',
      columns: ZONE_COLUMNS.join(', '),
      where: [
        `(CAST(@account_ids AS TEXT) IS NULL OR ${dialect.oneOf('account_id', 'account_ids')})`,
        `(CAST(@ids_or_names AS TEXT) IS NULL OR ${dialect.oneOf('id', 'ids_or_names')} OR ${dialect.oneOf('name', 'ids_or_names')})`,
        equals('name', 'name', 'TEXT'),
      ].join(' AND '),
      order: 'seq',
    },
    readZone,
  );
  const insert = prepare<ZoneRow>(insertSql('zones', ZONE_COLUMNS), { writes: ['zones'] });
  const update = prepare<ZoneRow>(updateSql('zones', ZONE_COLUMNS, ['id']), { writes: ['zones'] });
  const remove = prepare<{ id: string }>('DELETE FROM zones WHERE id = @id', { writes: ZONE_WRITES });
  return {
    get: (id) => byId({ id }),
    getByName: (accountId, name) => byName({ account_id: accountId, name }),
    list: (query: ZoneQuery, page) =>
      list(
        {
          account_ids: optionalJson(query.accountIds),
          ids_or_names: optionalJson(query.idsOrNames),
          name: query.name ?? null,
        },
        page,
      ),
    insert: async (zone) => void (await insert.run(zoneToRow(zone))),
    update: async (zone) => updatedOne(await update.run(zoneToRow(zone)), 'zone', zone.id),
    delete: async (id) => (await remove.run({ id })) > 0,
  };
}

// ——— filters ———

interface FilterRow {
  id: string;
  zone_id: string;
  expression: string;
  description: string;
  paused: 0 | 1;
  ref: string | null;
  created_with_rule: string | null;
  created_on: string;
  modified_on: string;
}

const FILTER_COLUMNS = [
  'id',
  'zone_id',
  'expression',
  'description',
  'paused',
  'ref',
  'created_with_rule',
  'created_on',
  'modified_on',
] as const;
const FILTER = positions(FILTER_COLUMNS);

const filterToRow = (filter: FilterRecord): FilterRow => ({
  id: filter.id,
  zone_id: filter.zoneId,
  expression: filter.expression,
  description: filter.description,
  paused: bit(filter.paused),
  ref: filter.ref,
  created_with_rule: filter.createdWithRule,
  created_on: filter.createdOn,
  modified_on: filter.modifiedOn,
});

const readFilter: Read<FilterRecord> = (values, at) => ({
  id: values[at + FILTER.id] as string,
  zoneId: values[at + FILTER.zone_id] as string,
  expression: values[at + FILTER.expression] as string,
  description: values[at + FILTER.description] as string,
  paused: values[at + FILTER.paused] === 1,
  ref: values[at + FILTER.ref] as string | null,
  createdWithRule: values[at + FILTER.created_with_rule] as string | null,
  createdOn: values[at + FILTER.created_on] as string,
  modifiedOn: values[at + FILTER.modified_on] as string,
});

interface FilterListParams {
  zone_id: string;
  id: string | null;
  expression: string | null;
  description: string | null;
  ref: string | null;
  paused: 0 | 1 | null;
}

function filterTable({ prepare, dialect }: Sql): FilterTable {
  const select = `SELECT ${FILTER_COLUMNS.join(', ')} FROM filters`;
  const byId = reader<{ zone_id: string; id: string }, FilterRecord>(
    prepare,
    `${select} WHERE zone_id = @zone_id AND id = @id`,
    readFilter,
  );
  const byExpression = reader<{ zone_id: string; expression: string }, FilterRecord>(
    prepare,
    `${select} WHERE zone_id = @zone_id AND ${dialect.sameExpression('expression')}`,
    readFilter,
  );
  const list = pagedList<FilterListParams, FilterRecord>(
    prepare,
    {
      from: 'filters',
      columns: FILTER_COLUMNS.join(', '),
      where: [
        'zone_id = @zone_id',
        equals('id', 'id', 'TEXT'),
        dialect.contains('expression', 'expression'),
        dialect.contains('description', 'description'),
        equals('ref', 'ref', 'TEXT'),
        equals('paused', 'paused', 'INTEGER'),
      ].join(' AND '),
      order: 'seq',
    },
    readFilter,
  );
  // A second filter with the same expression in a zone violates UNIQUE (zone_id, expression) and throws.
  const insert = prepare<FilterRow>(insertSql('filters', FILTER_COLUMNS), { writes: ['filters'] });
  const insertUnlessDuplicate = prepare<FilterRow>(
    `${insertSql('filters', FILTER_COLUMNS)} ON CONFLICT (zone_id, ${dialect.expressionKey}) DO NOTHING`,
    { writes: ['filters'] },
  );
  const update = prepare<FilterRow>(updateSql('filters', FILTER_COLUMNS, ['id', 'zone_id']), {
    writes: ['filters'],
  });
  return {
    list: (zoneId, query: FilterQuery, page) =>
      list(
        {
          zone_id: zoneId,
          id: query.id ?? null,
          expression: query.expression ?? null,
          description: query.description ?? null,
          ref: query.ref ?? null,
          paused: optionalBit(query.paused),
        },
        page,
      ),
    get: (zoneId, id) => byId({ zone_id: zoneId, id }),
    getByExpression: (zoneId, expression) => byExpression({ zone_id: zoneId, expression }),
    insert: async (filter) => void (await insert.run(filterToRow(filter))),
    // Any other constraint (the id's uniqueness in the zone, the zone's existence) still throws.
    insertUnlessDuplicate: async (filter) => (await insertUnlessDuplicate.run(filterToRow(filter))) === 1,
    update: async (filter) => updatedOne(await update.run(filterToRow(filter)), 'filter', filter.id),
    // A filter that a firewall rule still uses cannot be deleted (foreign key): the delete throws.
    delete: deleter(prepare, 'filters', ['filters']),
    count: zoneCounter(prepare, 'filters'),
  };
}

// ——— firewall rules ———

interface FirewallRuleRow {
  id: string;
  zone_id: string;
  filter_id: string;
  action: string;
  priority: number | null;
  paused: 0 | 1;
  description: string;
  ref: string | null;
  /** JSON array. */
  products: string;
  created_on: string;
  modified_on: string;
}

const FIREWALL_RULE_COLUMNS = [
  'id',
  'zone_id',
  'filter_id',
  'action',
  'priority',
  'paused',
  'description',
  'ref',
  'products',
  'created_on',
  'modified_on',
] as const;
const RULE = positions(FIREWALL_RULE_COLUMNS);

const firewallRuleToRow = (rule: FirewallRuleRecord): FirewallRuleRow => ({
  id: rule.id,
  zone_id: rule.zoneId,
  filter_id: rule.filterId,
  action: rule.action,
  priority: rule.priority,
  paused: bit(rule.paused),
  description: rule.description,
  ref: rule.ref,
  products: JSON.stringify(rule.products),
  created_on: rule.createdOn,
  modified_on: rule.modifiedOn,
});

const readFirewallRule: Read<FirewallRuleRecord> = (values, at) => ({
  id: values[at + RULE.id] as string,
  zoneId: values[at + RULE.zone_id] as string,
  filterId: values[at + RULE.filter_id] as string,
  action: values[at + RULE.action] as FirewallRuleAction,
  priority: values[at + RULE.priority] as number | null,
  paused: values[at + RULE.paused] === 1,
  description: values[at + RULE.description] as string,
  ref: values[at + RULE.ref] as string | null,
  products: JSON.parse(values[at + RULE.products] as string) as string[],
  createdOn: values[at + RULE.created_on] as string,
  modifiedOn: values[at + RULE.modified_on] as string,
});

/** A rule's columns then its filter's, from the join below. */
const readRuleWithFilter: Read<FirewallRuleWithFilter> = (values, at) => ({
  rule: readFirewallRule(values, at),
  filter: readFilter(values, at + FIREWALL_RULE_COLUMNS.length),
});

/** Rules (alias `r`) with their filters (alias `f`), one row each: the API never shows a rule without it. */
const RULE_WITH_FILTER = {
  from: 'firewall_rules r',
  join: 'JOIN filters f ON f.zone_id = r.zone_id AND f.id = r.filter_id',
  columns: `${qualified('r', FIREWALL_RULE_COLUMNS)}, ${qualified('f', FILTER_COLUMNS)}`,
};

interface FirewallRuleListParams {
  zone_id: string;
  id: string | null;
  action: string | null;
  description: string | null;
  paused: 0 | 1 | null;
}

function firewallRuleTable({ prepare, dialect }: Sql): FirewallRuleTable {
  const byId = reader<{ zone_id: string; id: string }, FirewallRuleRecord>(
    prepare,
    `SELECT ${FIREWALL_RULE_COLUMNS.join(', ')} FROM firewall_rules WHERE zone_id = @zone_id AND id = @id`,
    readFirewallRule,
  );
  const withFilterById = reader<{ zone_id: string; id: string }, FirewallRuleWithFilter>(
    prepare,
    `SELECT ${RULE_WITH_FILTER.columns} FROM ${RULE_WITH_FILTER.from} ${RULE_WITH_FILTER.join}
      WHERE r.zone_id = @zone_id AND r.id = @id`,
    readRuleWithFilter,
  );
  const list = pagedList<FirewallRuleListParams, FirewallRuleWithFilter>(
    prepare,
    {
      ...RULE_WITH_FILTER,
      where: [
        'r.zone_id = @zone_id',
        equals('r.id', 'id', 'TEXT'),
        equals('r.action', 'action', 'TEXT'),
        dialect.contains('r.description', 'description'),
        equals('r.paused', 'paused', 'INTEGER'),
      ].join(' AND '),
      order: 'r.seq',
    },
    readRuleWithFilter,
  );
  // The filter must be one of the rule's zone: FOREIGN KEY (zone_id, filter_id).
  const insert = prepare<FirewallRuleRow>(insertSql('firewall_rules', FIREWALL_RULE_COLUMNS), {
    writes: ['firewallRules'],
  });
  const update = prepare<FirewallRuleRow>(
    updateSql('firewall_rules', FIREWALL_RULE_COLUMNS, ['id', 'zone_id']),
    { writes: ['firewallRules'] },
  );
  const using = prepare<{ zone_id: string; filter_id: string }, { n: number }>(
    `SELECT ${COUNT} FROM firewall_rules WHERE zone_id = @zone_id AND filter_id = @filter_id`,
  );
  return {
    list: (zoneId, query: FirewallRuleQuery, page) =>
      list(
        {
          zone_id: zoneId,
          id: query.id ?? null,
          action: query.action ?? null,
          description: query.description ?? null,
          paused: optionalBit(query.paused),
        },
        page,
      ),
    get: (zoneId, id) => byId({ zone_id: zoneId, id }),
    getWithFilter: (zoneId, id) => withFilterById({ zone_id: zoneId, id }),
    insert: async (rule) => void (await insert.run(firewallRuleToRow(rule))),
    update: async (rule) => updatedOne(await update.run(firewallRuleToRow(rule)), 'firewall rule', rule.id),
    delete: deleter(prepare, 'firewall_rules', ['firewallRules']),
    count: zoneCounter(prepare, 'firewall_rules'),
    countUsing: async (zoneId, filterId) =>
      (await using.get({ zone_id: zoneId, filter_id: filterId }))?.n ?? 0,
  };
}
