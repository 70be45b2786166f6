import type { Database } from 'better-sqlite3';

/**
 * The schema, as migrations versioned in code, each written for both databases: the same versions, tables,
 * columns and constraints, in each one's SQL. SQLite records the last migration a database has run in
 * `PRAGMA user_version`, PostgreSQL in the table `cfrules_schema` (./postgres-migrations.ts); opening a
 * database runs the ones after it, in order. A migration, once released, never changes: a new schema is a
 * new migration, appended.
 */
export interface Migration {
  /** 1, 2, 3…: its position in `migrations`. */
  version: number;
  description: string;
  sqlite: string;
  postgres: string;
}

/** Migration 6's SQL, the same in both databases but for the words each has for these. */
function accountRulesetTables(dialect: {
  seq: string;
  isArray: (column: string) => string;
  rowid: string;
}): string {
  return `
        CREATE TABLE account_rulesets (
          seq ${dialect.seq},
          id TEXT NOT NULL UNIQUE,
          account_id TEXT NOT NULL REFERENCES accounts (id),
          kind TEXT NOT NULL,
          phase TEXT NOT NULL,
          name TEXT NOT NULL,
          version INTEGER NOT NULL CHECK (version >= 1)
        );
        CREATE INDEX account_rulesets_order ON account_rulesets (account_id, seq);
        CREATE UNIQUE INDEX account_rulesets_entry_point ON account_rulesets (account_id, phase)
          WHERE kind = 'root';

        CREATE TABLE account_ruleset_versions (
          ruleset_id TEXT NOT NULL REFERENCES account_rulesets (id) ON DELETE CASCADE,
          version INTEGER NOT NULL CHECK (version >= 1),
          description TEXT NOT NULL,
          rules TEXT NOT NULL CHECK (${dialect.isArray('rules')}),
          last_updated TEXT NOT NULL,
          PRIMARY KEY (ruleset_id, version)
        )${dialect.rowid};
      `;
}

/**
 * Conventions of the tables: `seq` (SQLite: INTEGER PRIMARY KEY AUTOINCREMENT, never reused, a plain
 * INTEGER PRIMARY KEY for filters since migration 4, which says why; PostgreSQL: BIGSERIAL) orders lists by
 * creation; `id` is the record's public id. Booleans are INTEGER 0/1, arrays are JSON text, times ISO 8601
 * text, in both databases, so that the tables' SQL (./tables.ts) is the same. Plans and actions are not
 * constrained here, so that adding one never needs a table rebuild (SQLite cannot alter a CHECK): the
 * service validates what it writes, and the store refuses unknown plans on read.
 *
 * PostgreSQL differs in one index: a zone's expressions are unique by their MD5 digest, since a B-tree
 * entry holds at most 2,704 bytes and an expression may be longer (Dialect.expressionKey in ./sql.ts).
 */
export const migrations: readonly Migration[] = [
  {
    version: 1,
    description: 'accounts, tokens, zones, filters and firewall rules',
    sqlite: `
        CREATE TABLE accounts (
          seq INTEGER PRIMARY KEY AUTOINCREMENT,
          id TEXT NOT NULL UNIQUE,
          name TEXT NOT NULL,
          email TEXT NOT NULL UNIQUE,
          api_key_hash TEXT UNIQUE,
          created_on TEXT NOT NULL
        );

        CREATE TABLE tokens (
          seq INTEGER PRIMARY KEY AUTOINCREMENT,
          id TEXT NOT NULL UNIQUE,
          account_id TEXT NOT NULL REFERENCES accounts (id),
          token_hash TEXT NOT NULL UNIQUE,
          zones TEXT NOT NULL CHECK (json_type(zones) = 'array'),
          permissions TEXT NOT NULL CHECK (json_type(permissions) = 'array'),
          created_on TEXT NOT NULL
        );
        CREATE INDEX tokens_account ON tokens (account_id);

        CREATE TABLE zones (
          seq INTEGER PRIMARY KEY AUTOINCREMENT,
          id TEXT NOT NULL UNIQUE,
          name TEXT NOT NULL UNIQUE,
          plan TEXT NOT NULL,
          account_id TEXT NOT NULL REFERENCES accounts (id),
          paused INTEGER NOT NULL CHECK (paused IN (0, 1)),
          created_on TEXT NOT NULL,
          modified_on TEXT NOT NULL
        );
        CREATE INDEX zones_account ON zones (account_id);

        -- UNIQUE (zone_id, id) is the parent key of the firewall rules' foreign key, so that a rule can only
        -- use a filter of its own zone.
        CREATE TABLE filters (
          seq INTEGER PRIMARY KEY AUTOINCREMENT,
          id TEXT NOT NULL UNIQUE,
          zone_id TEXT NOT NULL REFERENCES zones (id) ON DELETE CASCADE,
          expression TEXT NOT NULL,
          description TEXT NOT NULL,
          paused INTEGER NOT NULL CHECK (paused IN (0, 1)),
          ref TEXT,
          created_with_rule TEXT,
          created_on TEXT NOT NULL,
          modified_on TEXT NOT NULL,
          UNIQUE (zone_id, expression),
          UNIQUE (zone_id, id)
        );
        -- A zone's list, in creation order, without sorting the zone's rows on every page.
        CREATE INDEX filters_zone_order ON filters (zone_id, seq);

        -- Deleting a zone deletes its filters and its rules in the same statement; the rule -> filter key is
        -- checked at the end of the statement, when both are gone. Deleting a filter that a rule still uses
        -- fails.
        CREATE TABLE firewall_rules (
          seq INTEGER PRIMARY KEY AUTOINCREMENT,
          id TEXT NOT NULL UNIQUE,
          zone_id TEXT NOT NULL REFERENCES zones (id) ON DELETE CASCADE,
          filter_id TEXT NOT NULL,
          action TEXT NOT NULL,
          priority INTEGER,
          paused INTEGER NOT NULL CHECK (paused IN (0, 1)),
          description TEXT NOT NULL,
          ref TEXT,
          products TEXT NOT NULL CHECK (json_type(products) = 'array'),
          created_on TEXT NOT NULL,
          modified_on TEXT NOT NULL,
          FOREIGN KEY (zone_id, filter_id) REFERENCES filters (zone_id, id)
        );
        CREATE INDEX firewall_rules_filter ON firewall_rules (zone_id, filter_id);
        CREATE INDEX firewall_rules_zone_order ON firewall_rules (zone_id, seq);
      `,
    postgres: `
        CREATE TABLE accounts (
          seq BIGSERIAL PRIMARY KEY,
          id TEXT NOT NULL UNIQUE,
          name TEXT NOT NULL,
          email TEXT NOT NULL UNIQUE,
          api_key_hash TEXT UNIQUE,
          created_on TEXT NOT NULL
        );

        CREATE TABLE tokens (
          seq BIGSERIAL PRIMARY KEY,
          id TEXT NOT NULL UNIQUE,
          account_id TEXT NOT NULL REFERENCES accounts (id),
          token_hash TEXT NOT NULL UNIQUE,
          zones TEXT NOT NULL CHECK (json_typeof(zones::json) = 'array'),
          permissions TEXT NOT NULL CHECK (json_typeof(permissions::json) = 'array'),
          created_on TEXT NOT NULL
        );
        CREATE INDEX tokens_account ON tokens (account_id);

        CREATE TABLE zones (
          seq BIGSERIAL PRIMARY KEY,
          id TEXT NOT NULL UNIQUE,
          name TEXT NOT NULL UNIQUE,
          plan TEXT NOT NULL,
          account_id TEXT NOT NULL REFERENCES accounts (id),
          paused INTEGER NOT NULL CHECK (paused IN (0, 1)),
          created_on TEXT NOT NULL,
          modified_on TEXT NOT NULL
        );
        CREATE INDEX zones_account ON zones (account_id);

        CREATE TABLE filters (
          seq BIGSERIAL PRIMARY KEY,
          id TEXT NOT NULL UNIQUE,
          zone_id TEXT NOT NULL REFERENCES zones (id) ON DELETE CASCADE,
          expression TEXT NOT NULL,
          description TEXT NOT NULL,
          paused INTEGER NOT NULL CHECK (paused IN (0, 1)),
          ref TEXT,
          created_with_rule TEXT,
          created_on TEXT NOT NULL,
          modified_on TEXT NOT NULL,
          UNIQUE (zone_id, id)
        );
        CREATE UNIQUE INDEX filters_zone_expression ON filters (zone_id, md5(expression));
        CREATE INDEX filters_zone_order ON filters (zone_id, seq);

        -- NO ACTION (not RESTRICT) is checked at the end of the statement: deleting a zone deletes its
        -- filters and rules together, and deleting a filter that a rule still uses fails.
        CREATE TABLE firewall_rules (
          seq BIGSERIAL PRIMARY KEY,
          id TEXT NOT NULL UNIQUE,
          zone_id TEXT NOT NULL REFERENCES zones (id) ON DELETE CASCADE,
          filter_id TEXT NOT NULL,
          action TEXT NOT NULL,
          priority INTEGER,
          paused INTEGER NOT NULL CHECK (paused IN (0, 1)),
          description TEXT NOT NULL,
          ref TEXT,
          products TEXT NOT NULL CHECK (json_typeof(products::json) = 'array'),
          created_on TEXT NOT NULL,
          modified_on TEXT NOT NULL,
          FOREIGN KEY (zone_id, filter_id) REFERENCES filters (zone_id, id)
        );
        CREATE INDEX firewall_rules_filter ON firewall_rules (zone_id, filter_id);
        CREATE INDEX firewall_rules_zone_order ON firewall_rules (zone_id, seq);
      `,
  },
  {
    version: 2,
    description: 'previous WAF settings, URI-based WAF overrides, page rules and the WAF migration state',
    sqlite: `
        -- Only a zone's changes to the previous WAF catalogue (src/engine/previous-waf): the defaults are data.
        CREATE TABLE waf_settings (
          seq INTEGER PRIMARY KEY AUTOINCREMENT,
          zone_id TEXT NOT NULL REFERENCES zones (id) ON DELETE CASCADE,
          kind TEXT NOT NULL CHECK (kind IN ('package', 'group', 'rule')),
          item_id TEXT NOT NULL,
          settings TEXT NOT NULL CHECK (json_type(settings) = 'object'),
          modified_on TEXT NOT NULL,
          UNIQUE (zone_id, kind, item_id)
        );

        CREATE TABLE waf_overrides (
          seq INTEGER PRIMARY KEY AUTOINCREMENT,
          id TEXT NOT NULL UNIQUE,
          zone_id TEXT NOT NULL REFERENCES zones (id) ON DELETE CASCADE,
          description TEXT,
          urls TEXT NOT NULL CHECK (json_type(urls) = 'array'),
          priority INTEGER NOT NULL,
          groups_modes TEXT NOT NULL CHECK (json_type(groups_modes) = 'object'),
          rules_modes TEXT NOT NULL CHECK (json_type(rules_modes) = 'object'),
          rewrite_action TEXT NOT NULL CHECK (json_type(rewrite_action) = 'object'),
          paused INTEGER NOT NULL CHECK (paused IN (0, 1)),
          created_on TEXT NOT NULL,
          modified_on TEXT NOT NULL
        );
        CREATE INDEX waf_overrides_zone_order ON waf_overrides (zone_id, seq);

        CREATE TABLE page_rules (
          seq INTEGER PRIMARY KEY AUTOINCREMENT,
          id TEXT NOT NULL UNIQUE,
          zone_id TEXT NOT NULL REFERENCES zones (id) ON DELETE CASCADE,
          targets TEXT NOT NULL CHECK (json_type(targets) = 'array'),
          actions TEXT NOT NULL CHECK (json_type(actions) = 'array'),
          priority INTEGER NOT NULL,
          status TEXT NOT NULL,
          created_on TEXT NOT NULL,
          modified_on TEXT NOT NULL
        );
        CREATE INDEX page_rules_zone_order ON page_rules (zone_id, seq);

        -- No row: the zone is at 'start'.
        CREATE TABLE waf_migrations (
          zone_id TEXT PRIMARY KEY REFERENCES zones (id) ON DELETE CASCADE,
          state TEXT NOT NULL CHECK (state IN ('validation', 'complete')),
          changed_on TEXT NOT NULL
        );
      `,
    postgres: `
        CREATE TABLE waf_settings (
          seq BIGSERIAL PRIMARY KEY,
          zone_id TEXT NOT NULL REFERENCES zones (id) ON DELETE CASCADE,
          kind TEXT NOT NULL CHECK (kind IN ('package', 'group', 'rule')),
          item_id TEXT NOT NULL,
          settings TEXT NOT NULL CHECK (json_typeof(settings::json) = 'object'),
          modified_on TEXT NOT NULL,
          UNIQUE (zone_id, kind, item_id)
        );

        CREATE TABLE waf_overrides (
          seq BIGSERIAL PRIMARY KEY,
          id TEXT NOT NULL UNIQUE,
          zone_id TEXT NOT NULL REFERENCES zones (id) ON DELETE CASCADE,
          description TEXT,
          urls TEXT NOT NULL CHECK (json_typeof(urls::json) = 'array'),
          priority INTEGER NOT NULL,
          groups_modes TEXT NOT NULL CHECK (json_typeof(groups_modes::json) = 'object'),
          rules_modes TEXT NOT NULL CHECK (json_typeof(rules_modes::json) = 'object'),
          rewrite_action TEXT NOT NULL CHECK (json_typeof(rewrite_action::json) = 'object'),
          paused INTEGER NOT NULL CHECK (paused IN (0, 1)),
          created_on TEXT NOT NULL,
          modified_on TEXT NOT NULL
        );
        CREATE INDEX waf_overrides_zone_order ON waf_overrides (zone_id, seq);

        CREATE TABLE page_rules (
          seq BIGSERIAL PRIMARY KEY,
          id TEXT NOT NULL UNIQUE,
          zone_id TEXT NOT NULL REFERENCES zones (id) ON DELETE CASCADE,
          targets TEXT NOT NULL CHECK (json_typeof(targets::json) = 'array'),
          actions TEXT NOT NULL CHECK (json_typeof(actions::json) = 'array'),
          priority INTEGER NOT NULL,
          status TEXT NOT NULL,
          created_on TEXT NOT NULL,
          modified_on TEXT NOT NULL
        );
        CREATE INDEX page_rules_zone_order ON page_rules (zone_id, seq);

        CREATE TABLE waf_migrations (
          zone_id TEXT PRIMARY KEY REFERENCES zones (id) ON DELETE CASCADE,
          state TEXT NOT NULL CHECK (state IN ('validation', 'complete')),
          changed_on TEXT NOT NULL
        );
      `,
  },
  {
    version: 3,
    description: 'rulesets (custom rulesets and phase entry points) and their versions',
    sqlite: `
        -- One row per ruleset, with its immutable fields and the number of its latest version. The partial
        -- unique index keeps one entry point (kind 'zone') per phase and zone, whatever the service does.
        CREATE TABLE rulesets (
          seq INTEGER PRIMARY KEY AUTOINCREMENT,
          id TEXT NOT NULL UNIQUE,
          zone_id TEXT NOT NULL REFERENCES zones (id) ON DELETE CASCADE,
          kind TEXT NOT NULL,
          phase TEXT NOT NULL,
          name TEXT NOT NULL,
          version INTEGER NOT NULL CHECK (version >= 1)
        );
        CREATE INDEX rulesets_zone_order ON rulesets (zone_id, seq);
        CREATE UNIQUE INDEX rulesets_entry_point ON rulesets (zone_id, phase) WHERE kind = 'zone';

        -- Every version kept, whole: its rules are a JSON array (the service validated them before storing).
        CREATE TABLE ruleset_versions (
          ruleset_id TEXT NOT NULL REFERENCES rulesets (id) ON DELETE CASCADE,
          version INTEGER NOT NULL CHECK (version >= 1),
          description TEXT NOT NULL,
          rules TEXT NOT NULL CHECK (json_type(rules) = 'array'),
          last_updated TEXT NOT NULL,
          PRIMARY KEY (ruleset_id, version)
        ) WITHOUT ROWID;
      `,
    postgres: `
        CREATE TABLE rulesets (
          seq BIGSERIAL PRIMARY KEY,
          id TEXT NOT NULL UNIQUE,
          zone_id TEXT NOT NULL REFERENCES zones (id) ON DELETE CASCADE,
          kind TEXT NOT NULL,
          phase TEXT NOT NULL,
          name TEXT NOT NULL,
          version INTEGER NOT NULL CHECK (version >= 1)
        );
        CREATE INDEX rulesets_zone_order ON rulesets (zone_id, seq);
        CREATE UNIQUE INDEX rulesets_entry_point ON rulesets (zone_id, phase) WHERE kind = 'zone';

        CREATE TABLE ruleset_versions (
          ruleset_id TEXT NOT NULL REFERENCES rulesets (id) ON DELETE CASCADE,
          version INTEGER NOT NULL CHECK (version >= 1),
          description TEXT NOT NULL,
          rules TEXT NOT NULL CHECK (json_typeof(rules::json) = 'array'),
          last_updated TEXT NOT NULL,
          PRIMARY KEY (ruleset_id, version)
        );
      `,
  },
  {
    version: 4,
    description:
      'filters without the redundant UNIQUE (id) and without AUTOINCREMENT (fewer B-trees per write)',
    // Every filter write touched six B-trees: the table, its four indexes and sqlite_sequence; the creation
    // of a filter is the API's hottest write (bench/RESULTS.md, API section). Two of them go:
    // - UNIQUE (id): every lookup of a filter names its zone (the store's queries and the rules' foreign
    //   key all use (zone_id, id), which stays unique), and ids are 128 random bits made by the service,
    //   so a global index only guarded against a collision that does not happen;
    // - AUTOINCREMENT: a plain INTEGER PRIMARY KEY gives a new row max(seq) + 1, greater than every row
    //   present, so ordering by seq is still creation order. What AUTOINCREMENT adds (never reusing the seq
    //   of a deleted last row, at the cost of an update of sqlite_sequence per insert) is not needed: seq
    //   only orders the rows, it is never shown nor referenced. (SQLite falls back to random rowids only
    //   after seq 2^63 - 1, where AUTOINCREMENT fails instead: out of reach.)
    // SQLite cannot drop a constraint: the table is rebuilt (its documented procedure, foreign keys off as
    // `migrate` runs them, then checked), seq values, and so the order of every zone's list, kept.
    sqlite: `
        CREATE TABLE filters_v4 (
          seq INTEGER PRIMARY KEY,
          id TEXT NOT NULL,
          zone_id TEXT NOT NULL REFERENCES zones (id) ON DELETE CASCADE,
          expression TEXT NOT NULL,
          description TEXT NOT NULL,
          paused INTEGER NOT NULL CHECK (paused IN (0, 1)),
          ref TEXT,
          created_with_rule TEXT,
          created_on TEXT NOT NULL,
          modified_on TEXT NOT NULL,
          UNIQUE (zone_id, expression),
          UNIQUE (zone_id, id)
        );
        INSERT INTO filters_v4 (seq, id, zone_id, expression, description, paused, ref, created_with_rule,
            created_on, modified_on)
          SELECT seq, id, zone_id, expression, description, paused, ref, created_with_rule, created_on,
            modified_on
          FROM filters;
        -- Also removes the table's row from sqlite_sequence.
        DROP TABLE filters;
        -- firewall_rules' foreign key names the table by name: it refers to the new one from here on.
        ALTER TABLE filters_v4 RENAME TO filters;
        CREATE INDEX filters_zone_order ON filters (zone_id, seq);
      `,
    postgres: `
        -- PostgreSQL drops a constraint in place; its sequences have nothing like sqlite_sequence to spare.
        ALTER TABLE filters DROP CONSTRAINT filters_id_key;
      `,
  },
  {
    version: 5,
    description: 'zone names unique per account, not across accounts',
    // A name taken by one account blocked every other, and creating it told them it existed: accounts are
    // tenants that must not see each other (as Cloudflare lets several accounts add the same pending zone).
    // The table is rebuilt as in migration 4, seq values kept (sqlite_sequence follows the rename).
    sqlite: `
        CREATE TABLE zones_v5 (
          seq INTEGER PRIMARY KEY AUTOINCREMENT,
          id TEXT NOT NULL UNIQUE,
          name TEXT NOT NULL,
          plan TEXT NOT NULL,
          account_id TEXT NOT NULL REFERENCES accounts (id),
          paused INTEGER NOT NULL CHECK (paused IN (0, 1)),
          created_on TEXT NOT NULL,
          modified_on TEXT NOT NULL,
          UNIQUE (account_id, name)
        );
        INSERT INTO zones_v5 (seq, id, name, plan, account_id, paused, created_on, modified_on)
          SELECT seq, id, name, plan, account_id, paused, created_on, modified_on FROM zones;
        DROP TABLE zones;
        ALTER TABLE zones_v5 RENAME TO zones;
        CREATE INDEX zones_name ON zones (name);
      `,
    postgres: `
        ALTER TABLE zones DROP CONSTRAINT zones_name_key;
        ALTER TABLE zones ADD CONSTRAINT zones_account_id_name_key UNIQUE (account_id, name);
        CREATE INDEX zones_name ON zones (name);
      `,
  },
  {
    version: 6,
    description: 'account rulesets (custom rulesets and root entry points) and their versions',
    // Tables of their own, in the shape of migration 3's with the account as owner: the zones' rulesets
    // are not touched (no rebuild, nothing to move), and each table keeps its owner's foreign key. The
    // partial unique index keeps one entry point (kind 'root') per phase and account.
    sqlite: accountRulesetTables({
      seq: 'INTEGER PRIMARY KEY AUTOINCREMENT',
      isArray: (column) => `json_type(${column}) = 'array'`,
      rowid: ' WITHOUT ROWID',
    }),
    postgres: accountRulesetTables({
      seq: 'BIGSERIAL PRIMARY KEY',
      isArray: (column) => `json_typeof(${column}::json) = 'array'`,
      rowid: '',
    }),
  },
  {
    version: 7,
    description: "each zone's numbers of filters and firewall rules, kept by triggers",
    // The limits on a zone's filters and rules are checked at every creation. Counting the zone's rows
    // walked its index, 23 ns a row in SQLite: 117 µs per creation in a zone of 5,000 filters, and filling a
    // zone cost the square of its size. The numbers now sit in a row per zone that triggers keep in step
    // with every insert and delete, the cascades of a zone's deletion and the rollbacks included.
    sqlite: `
        CREATE TABLE zone_counts (
          zone_id TEXT PRIMARY KEY,
          filters INTEGER NOT NULL DEFAULT 0,
          firewall_rules INTEGER NOT NULL DEFAULT 0
        ) WITHOUT ROWID;
        INSERT INTO zone_counts (zone_id, filters, firewall_rules)
          SELECT id,
            (SELECT count(*) FROM filters WHERE filters.zone_id = zones.id),
            (SELECT count(*) FROM firewall_rules WHERE firewall_rules.zone_id = zones.id)
          FROM zones;
        CREATE TRIGGER zone_counts_zone_added AFTER INSERT ON zones BEGIN
          INSERT INTO zone_counts (zone_id) VALUES (NEW.id);
        END;
        CREATE TRIGGER zone_counts_zone_deleted AFTER DELETE ON zones BEGIN
          DELETE FROM zone_counts WHERE zone_id = OLD.id;
        END;
        CREATE TRIGGER zone_counts_filter_added AFTER INSERT ON filters BEGIN
          UPDATE zone_counts SET filters = filters + 1 WHERE zone_id = NEW.zone_id;
        END;
        CREATE TRIGGER zone_counts_filter_deleted AFTER DELETE ON filters BEGIN
          UPDATE zone_counts SET filters = filters - 1 WHERE zone_id = OLD.zone_id;
        END;
        CREATE TRIGGER zone_counts_rule_added AFTER INSERT ON firewall_rules BEGIN
          UPDATE zone_counts SET firewall_rules = firewall_rules + 1 WHERE zone_id = NEW.zone_id;
        END;
        CREATE TRIGGER zone_counts_rule_deleted AFTER DELETE ON firewall_rules BEGIN
          UPDATE zone_counts SET firewall_rules = firewall_rules - 1 WHERE zone_id = OLD.zone_id;
        END;
      `,
    // One trigger function for the three tables. Its search_path is the one the migration runs with (the
    // store's schema), so that it finds zone_counts whatever the session's path when a trigger fires.
    postgres: `
        CREATE TABLE zone_counts (
          zone_id TEXT PRIMARY KEY,
          filters INTEGER NOT NULL DEFAULT 0,
          firewall_rules INTEGER NOT NULL DEFAULT 0
        );
        INSERT INTO zone_counts (zone_id, filters, firewall_rules)
          SELECT id,
            (SELECT count(*) FROM filters WHERE filters.zone_id = zones.id),
            (SELECT count(*) FROM firewall_rules WHERE firewall_rules.zone_id = zones.id)
          FROM zones;
        CREATE FUNCTION zone_counts_follow() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
        BEGIN
          IF TG_TABLE_NAME = 'zones' THEN
            IF TG_OP = 'INSERT' THEN
              INSERT INTO zone_counts (zone_id) VALUES (NEW.id);
            ELSE
              DELETE FROM zone_counts WHERE zone_id = OLD.id;
            END IF;
          ELSIF TG_TABLE_NAME = 'filters' THEN
            IF TG_OP = 'INSERT' THEN
              UPDATE zone_counts SET filters = filters + 1 WHERE zone_id = NEW.zone_id;
            ELSE
              UPDATE zone_counts SET filters = filters - 1 WHERE zone_id = OLD.zone_id;
            END IF;
          ELSIF TG_OP = 'INSERT' THEN
            UPDATE zone_counts SET firewall_rules = firewall_rules + 1 WHERE zone_id = NEW.zone_id;
          ELSE
            UPDATE zone_counts SET firewall_rules = firewall_rules - 1 WHERE zone_id = OLD.zone_id;
          END IF;
          RETURN NULL;
        END
        $$;
        CREATE TRIGGER zone_counts_zones AFTER INSERT OR DELETE ON zones
          FOR EACH ROW EXECUTE FUNCTION zone_counts_follow();
        CREATE TRIGGER zone_counts_filters AFTER INSERT OR DELETE ON filters
          FOR EACH ROW EXECUTE FUNCTION zone_counts_follow();
        CREATE TRIGGER zone_counts_firewall_rules AFTER INSERT OR DELETE ON firewall_rules
          FOR EACH ROW EXECUTE FUNCTION zone_counts_follow();
      `,
  },
];

/** The schema version this code creates and understands. */
export const schemaVersion: number = migrations.length;

const versionOf = (db: Database): number => db.pragma('user_version', { simple: true }) as number;

/**
 * Refuses a database written by a newer cfrules, whose schema this code would misread. Only reads: call it
 * before anything that could write to the file (journal mode included).
 */
export function assertSchemaSupported(db: Database): void {
  const version = versionOf(db);
  if (version > schemaVersion) {
    throw new Error(
      `database schema version ${version} is newer than this cfrules (${schemaVersion}); upgrade cfrules`,
    );
  }
}

/**
 * Runs the migrations the database has not run yet, up to version `to` (the latest by default: an earlier
 * one makes the databases of earlier releases, for the tests of the migrations); returns their versions.
 * Each runs in an IMMEDIATE transaction that re-reads the version, so that two processes opening the same
 * new database do not both run it. Foreign keys are off while migrating (as SQLite's procedure for
 * rebuilding a table requires) and checked before each commit; the caller turns them on afterwards.
 */
export function migrate(db: Database, to: number = schemaVersion): number[] {
  assertSchemaSupported(db);
  if (versionOf(db) >= to) return [];
  db.pragma('foreign_keys = OFF');
  const applied: number[] = [];
  for (const migration of migrations.filter(({ version }) => version <= to)) {
    db.transaction(() => {
      assertSchemaSupported(db);
      if (versionOf(db) >= migration.version) return;
      db.exec(migration.sqlite);
      const violations = db.pragma('foreign_key_check') as unknown[];
      if (violations.length > 0) {
        throw new Error(`migration ${migration.version} left ${violations.length} foreign key violation(s)`);
      }
      // Part of the transaction: rolled back with the migration if anything fails.
      db.pragma(`user_version = ${migration.version}`);
      applied.push(migration.version);
    }).immediate();
  }
  return applied;
}
