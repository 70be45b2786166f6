import type {
  RulesetHeader,
  RulesetRecord,
  RulesetRuleRecord,
  RulesetTable,
  StoredRulesetKind,
} from './ruleset-records.js';
import type { Sql, Values } from './sql.js';

/**
 * The rulesets (tables of migration 3): `rulesets` holds what never changes and the latest
 * version's number, `ruleset_versions` every version kept, its rules as one JSON array. A ruleset has tens
 * of rules at most a few thousand, read and written whole: one text column costs less than a row per rule.
 */

/** The columns every read selects, in this order: the ruleset's, then the version's. */
const HEADER_COLUMNS = 'r.id, r.zone_id, r.kind, r.phase, r.name, v.version, v.description, v.last_updated';
const RULES_COLUMN = 'v.rules';

const readHeader = (values: Values): RulesetHeader => ({
  id: values[0] as string,
  zoneId: values[1] as string,
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

const FROM = 'FROM rulesets r JOIN ruleset_versions v ON v.ruleset_id = r.id';

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

export function rulesetTable({ prepare }: Sql): RulesetTable {
  const one = (where: string) => {
    const statement = prepare<Record<string, unknown>, Values>(
      `SELECT ${HEADER_COLUMNS}, ${RULES_COLUMN} ${FROM} WHERE ${where}`,
      { raw: true },
    );
    return async (params: Record<string, unknown>) => {
      const values = await statement.get(params);
      return values === undefined ? undefined : readRecord(values);
    };
  };
  const latest = 'r.zone_id = @zone_id AND v.version = r.version';
  const byId = one(`${latest} AND r.id = @id`);
  const byPhase = one(`${latest} AND r.kind = 'zone' AND r.phase = @phase`);
  const byVersion = one('r.zone_id = @zone_id AND r.id = @id AND v.version = @version');
  const list = prepare<{ zone_id: string }, Values>(
    `SELECT ${HEADER_COLUMNS} ${FROM} WHERE ${latest} ORDER BY r.seq`,
    { raw: true },
  );
  const versions = prepare<{ zone_id: string; id: string }, Values>(
    `SELECT ${HEADER_COLUMNS} ${FROM} WHERE r.zone_id = @zone_id AND r.id = @id ORDER BY v.version`,
    { raw: true },
  );
  const insertRuleset = prepare<{
    id: string;
    zone_id: string;
    kind: string;
    phase: string;
    name: string;
    version: number;
  }>(
    'INSERT INTO rulesets (id, zone_id, kind, phase, name, version) VALUES (@id, @zone_id, @kind, @phase, @name, @version)',
    { writes: ['rulesets'] },
  );
  const insertVersion = prepare<VersionRow>(
    'INSERT INTO ruleset_versions (ruleset_id, version, description, rules, last_updated) ' +
      'VALUES (@ruleset_id, @version, @description, @rules, @last_updated)',
    { writes: ['rulesets'] },
  );
  // Only forward: a version number is never reused, even after the versions before it are deleted.
  const setLatest = prepare<{ zone_id: string; id: string; version: number }>(
    'UPDATE rulesets SET version = @version WHERE zone_id = @zone_id AND id = @id AND version < @version',
    { writes: ['rulesets'] },
  );
  const removeVersion = prepare<{ zone_id: string; id: string; version: number }>(
    'DELETE FROM ruleset_versions WHERE ruleset_id = @id AND version = @version ' +
      'AND ruleset_id IN (SELECT id FROM rulesets WHERE zone_id = @zone_id)',
    { writes: ['rulesets'] },
  );
  const remove = prepare<{ zone_id: string; id: string }>(
    'DELETE FROM rulesets WHERE zone_id = @zone_id AND id = @id',
    { writes: ['rulesets'] },
  );

  return {
    list: async (zoneId) => (await list.all({ zone_id: zoneId })).map(readHeader),
    get: (zoneId, id) => byId({ zone_id: zoneId, id }),
    entryPoint: (zoneId, phase) => byPhase({ zone_id: zoneId, phase }),
    getVersion: (zoneId, id, version) => byVersion({ zone_id: zoneId, id, version }),
    versions: async (zoneId, id) => (await versions.all({ zone_id: zoneId, id })).map(readHeader),
    async insert(ruleset) {
      await insertRuleset.run({
        id: ruleset.id,
        zone_id: ruleset.zoneId,
        kind: ruleset.kind,
        phase: ruleset.phase,
        name: ruleset.name,
        version: ruleset.version,
      });
      await insertVersion.run(versionRow(ruleset));
    },
    async addVersion(ruleset) {
      const changed = await setLatest.run({
        zone_id: ruleset.zoneId,
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
    deleteVersion: async (zoneId, id, version) =>
      (await removeVersion.run({ zone_id: zoneId, id, version })) > 0,
    delete: async (zoneId, id) => (await remove.run({ zone_id: zoneId, id })) > 0,
  };
}
