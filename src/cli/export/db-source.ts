import { closeSync, openSync, readSync, statSync } from 'node:fs';
import type { ZoneFile } from '../../engine/zone/model.js';
import { escapeControlCharacters } from '../../lang/escape.js';
import { type RulesetJson, rulesetJson } from '../../service/rulesets/model.js';
import { zoneFileFromStore } from '../../service/zone-file.js';
import { describeDatabase, openStore } from '../../store/open.js';
import { isPostgresUrl } from '../../store/postgres.js';
import type { Store, StoreTransaction, ZoneRecord } from '../../store/store.js';
import { fileErrorReason } from '../files.js';
import { customRulesetsIn, ExportError, isZoneId, nothingToExport, type ZoneEntryPoints } from './source.js';

/**
 * Reads a zone's entry points (or its whole zone file) straight from the database of `cfrules serve`, without a running service
 * or credentials: whoever can read the file can read everything in it anyway. The JSON is the API's own
 * (`rulesetJson`), so both sources export the same configuration. This module loads better-sqlite3, so
 * the export command imports it only for --db.
 */

export interface DbSource {
  path: string;
  zone: string;
  phases: readonly string[];
}

export function readEntryPointsFromDb(source: DbSource): Promise<ZoneEntryPoints> {
  return inZone(source, async (tx, zone) => {
    const rulesets: RulesetJson[] = [];
    for (const phase of source.phases) {
      const record = await tx.rulesets.entryPoint(zone.id, phase);
      if (record !== undefined) rulesets.push(rulesetJson(record));
    }
    if (rulesets.length === 0) throw nothingToExport(zone.id, source.phases);
    const customRulesets = customRulesetsIn(await tx.rulesets.list(zone.id), source.phases);
    return { zoneId: zone.id, rulesets, customRulesets };
  });
}

/** `cfrules export zone --db`: the zone file the service would simulate with (src/service/zone-file.ts). */
export function readZoneFileFromDb(
  source: Omit<DbSource, 'phases'>,
): Promise<{ zoneId: string; file: ZoneFile; warnings: string[] }> {
  return inZone(source, async (tx, zone) => ({
    zoneId: zone.id,
    file: await zoneFileFromStore(tx, zone),
    warnings: [],
  }));
}

/** Opens the database, finds the zone (by id or name) and reads it in one transaction. */
async function inZone<T>(
  source: { path: string; zone: string },
  read: (tx: StoreTransaction, zone: ZoneRecord) => Promise<T>,
): Promise<T> {
  const postgres = isPostgresUrl(source.path);
  if (!postgres) assertDatabaseFile(source.path);
  let store: Store;
  try {
    store = await openStore(source.path);
  } catch (error) {
    throw new ExportError(
      `cannot open the database ${describeDatabase(source.path)}: ${(error as Error).message}`,
    );
  }
  try {
    return await store.transaction(async (tx) => {
      const zone: ZoneRecord | undefined = isZoneId(source.zone)
        ? await tx.zones.get(source.zone)
        : await zoneByName(tx, source);
      if (zone === undefined)
        throw new ExportError(
          `zone ${escapeControlCharacters(source.zone)} not found in ${describeDatabase(source.path)}`,
        );
      return read(tx, zone);
    });
  } finally {
    await store.close();
  }
}

/** The first bytes of every SQLite 3 database file. */
const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1');

/**
 * Refuses what is not a database before SQLite opens it: SQLite would create a missing file, and would take
 * an empty one for a new database, which opening the store then fills with cfrules' tables. An export only
 * reads, so it must leave no such file behind.
 */
function assertDatabaseFile(path: string): void {
  const header = Buffer.alloc(SQLITE_HEADER.length);
  let read: number;
  try {
    if (statSync(path).isDirectory()) throw new ExportError(`${path} is a directory, not a database file`);
    const file = openSync(path, 'r');
    try {
      read = readSync(file, header, 0, header.length, 0);
    } finally {
      closeSync(file);
    }
  } catch (error) {
    if (error instanceof ExportError) throw error;
    throw new ExportError(`cannot read the database file ${path}: ${fileErrorReason(error)}`);
  }
  if (read === 0) throw new ExportError(`${path} is empty, not a database file of cfrules serve`);
  if (read < header.length || !header.equals(SQLITE_HEADER))
    throw new ExportError(`${path} is not a database file of cfrules serve (not an SQLite database)`);
}

/** A zone named in the command: names are unique per account, so a name two accounts use needs the id. */
async function zoneByName(
  tx: StoreTransaction,
  source: { path: string; zone: string },
): Promise<ZoneRecord | undefined> {
  const found = await tx.zones.list({ name: source.zone }, { page: 1, perPage: 2 });
  if (found.totalCount > 1) {
    throw new ExportError(
      `${found.totalCount} accounts have a zone ${escapeControlCharacters(source.zone)} in ${describeDatabase(source.path)}: give the zone's id`,
    );
  }
  return found.items[0];
}
