import type {
  RulesetHeader,
  RulesetRecord,
  RulesetRuleRecord,
  RulesetTable,
  StoredRulesetKind,
} from './ruleset-records.js';
import type { Sql, Values } from './sql.js';

/**
 * The rulesets of one kind of owner: the zones' (tables of migration 3, `rulesets` and `ruleset_versions`)
 * or the accounts' (migration 6, `account_rulesets` and `account_ruleset_versions`), the same columns but
 * the owner's. The first table holds what never changes and the latest version's number, the second every
 * version kept, its rules as one JSON array. A ruleset has tens of rules at most a few thousand, read and
 * written whole: one text column costs less than a row per rule.
 */

/** Where one owner's rulesets are kept, and the kind of its phase entry points. */
export interface RulesetTables {
  rulesets: string;
  versions: string;
  /** The owner's column: `zone_id` or `account_id`. */
  owner: string;
  entryKind: StoredRulesetKind;
  /** The store's name of the tables, whose generation a write moves on. */
  name: 'rulesets' | 'accountRulesets';
}

export const ZONE_RULESETS: RulesetTables = {
  rulesets: 'rulesets',
  versions: 'ruleset_versions',
  owner: 'zone_id',
  entryKind: 'zone',
  name: 'rulesets',
};

export const ACCOUNT_RULESETS: RulesetTables = {
  rulesets: 'account_rulesets',
  versions: 'account_ruleset_versions',
  owner: 'account_id',
  entryKind: 'root',
  name: 'accountRulesets',
};

const readHeader = (values: Values): RulesetHeader => ({
  id: values[0] as string,
  ownerId: values[1] as string,
  kind: values[2] as StoredRulesetKind,
  phase: values[3] as string,
  name: values[4] as string,
  version: values[5] as number,
  description: values[6] as string,
  lastUpdated: values[7] as string,
});

const readRecord = (values: Values): RulesetRecord => ({
  ...readHeader(values),
  rules: JSON.parse(values[8] as string) as RulesetRuleRecord[],
});

interface VersionRow {
  ruleset_id: string;
  version: number;
  description: string;
  rules: string;
  last_updated: string;
}

const versionRow = (ruleset: RulesetRecord): VersionRow => ({
  ruleset_id: ruleset.id,
  version: ruleset.version,
  description: ruleset.description,
  rules: JSON.stringify(ruleset.rules),
  last_updated: ruleset.lastUpdated,
});

export function rulesetTable({ prepare }: Sql, tables: RulesetTables = ZONE_RULESETS): RulesetTable {
  const { owner } = tables;
  const writes = { writes: [tables.name] };
  /** The columns every read selects, in this order: the ruleset's, then the version's. */
  const headerColumns = `r.id, r.${owner}, r.kind, r.phase, r.name, v.version, v.description, v.last_updated`;
  const rulesColumn = 'v.rules';
  const from = `FROM ${tables.rulesets} r JOIN ${tables.versions} v ON v.ruleset_id = r.id`;
  const one = (where: string) => {
    const statement = prepare<Record<string, unknown>, Values>(
      `SELECT ${headerColumns}, ${rulesColumn} ${from} WHERE ${where}`,
      { raw: true },
    );
    return async (params: Record<string, unknown>) => {
      const values = await statement.get(params);
      return values === undefined ? undefined : readRecord(values);
    };
  };
  const latest = `r.${owner} = @owner AND v.version = r.version`;
  const byId = one(`${latest} AND r.id = @id`);
  const byPhase = one(`${latest} AND r.kind = '${tables.entryKind}' AND r.phase = @phase`);
  const byVersion = one(`r.${owner} = @owner AND r.id = @id AND v.version = @version`);
  const list = prepare<{ owner: string }, Values>(
    `SELECT ${headerColumns} ${from} WHERE ${latest} ORDER BY r.seq`,
    { raw: true },
  );
  const versions = prepare<{ owner: string; id: string }, Values>(
    `SELECT ${headerColumns} ${from} WHERE r.${owner} = @owner AND r.id = @id ORDER BY v.version`,
    { raw: true },
  );
  const insertRuleset = prepare<{
    id: string;
    owner: string;
    kind: string;
    phase: string;
    name: string;
    version: number;
  }>(
    `INSERT INTO ${tables.rulesets} (id, ${owner}, kind, phase, name, version) VALUES (@id, @owner, @kind, @phase, @name, @version)`,
    writes,
  );
  const insertVersion = prepare<VersionRow>(
    `INSERT INTO ${tables.versions} (ruleset_id, version, description, rules, last_updated) ` +
      'VALUES (@ruleset_id, @version, @description, @rules, @last_updated)',
    writes,
  );
  // Only forward: a version number is never reused, even after the versions before it are deleted.
  const setLatest = prepare<{ owner: string; id: string; version: number }>(
    `UPDATE ${tables.rulesets} SET version = @version WHERE ${owner} = @owner AND id = @id AND version < @version`,
    writes,
  );
  const removeVersion = prepare<{ owner: string; id: string; version: number }>(
    `DELETE FROM ${tables.versions} WHERE ruleset_id = @id AND version = @version ` +
      `AND ruleset_id IN (SELECT id FROM ${tables.rulesets} WHERE ${owner} = @owner)`,
    writes,
  );
  const remove = prepare<{ owner: string; id: string }>(
    `DELETE FROM ${tables.rulesets} WHERE ${owner} = @owner AND id = @id`,
    writes,
  );

  return {
    list: async (ownerId) => (await list.all({ owner: ownerId })).map(readHeader),
    get: (ownerId, id) => byId({ owner: ownerId, id }),
    entryPoint: (ownerId, phase) => byPhase({ owner: ownerId, phase }),
    getVersion: (ownerId, id, version) => byVersion({ owner: ownerId, id, version }),
    versions: async (ownerId, id) => (await versions.all({ owner: ownerId, id })).map(readHeader),
    async insert(ruleset) {
      await insertRuleset.run({
        id: ruleset.id,
        owner: ruleset.ownerId,
        kind: ruleset.kind,
        phase: ruleset.phase,
        name: ruleset.name,
        version: ruleset.version,
      });
      await insertVersion.run(versionRow(ruleset));
    },
    async addVersion(ruleset) {
      const changed = await setLatest.run({
        owner: ruleset.ownerId,
        id: ruleset.id,
        version: ruleset.version,
      });
      if (changed !== 1) {
        throw new Error(
          `cannot add version ${ruleset.version} to ruleset ${ruleset.id}: no such ruleset, or not a new version`,
        );
      }
      await insertVersion.run(versionRow(ruleset));
    },
    deleteVersion: async (ownerId, id, version) =>
      (await removeVersion.run({ owner: ownerId, id, version })) > 0,
    delete: async (ownerId, id) => (await remove.run({ owner: ownerId, id })) > 0,
  };
}
