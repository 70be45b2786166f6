import { closeSync, openSync, readSync, statSync } from 'node:fs';
import type { ZoneFile } from '../../engine/zone/model.js';
import { escapeControlCharacters } from '../../lang/escape.js';
import { rulesetJson } from '../../service/rulesets/model.js';
import { zoneFileFromStore } from '../../service/zone-file.js';
import { openSqliteStore } from '../../store/sqlite.js';
import type { StoreTransaction, ZoneRecord } from '../../store/store.js';
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

export function readEntryPointsFromDb(source: DbSource): ZoneEntryPoints {
  return inZone(source, (tx, zone) => {
    const rulesets = source.phases.flatMap((phase) => {
      const record = tx.rulesets.entryPoint(zone.id, phase);
      return record === undefined ? [] : [rulesetJson(record)];
    });
    if (rulesets.length === 0) throw nothingToExport(zone.id, source.phases);
    const customRulesets = customRulesetsIn(tx.rulesets.list(zone.id), source.phases);
    return { zoneId: zone.id, rulesets, customRulesets };
  });
}

/** `cfrules export zone --db`: the zone file the service would simulate with (src/service/zone-file.ts). */
export function readZoneFileFromDb(source: Omit<DbSource, 'phases'>): { zoneId: string; file: ZoneFile } {
  return inZone(source, (tx, zone) => ({ zoneId: zone.id, file: zoneFileFromStore(tx, zone) }));
}

/** Opens the database, finds the zone (by id or name) and reads it in one transaction. */
function inZone<T>(
  source: { path: string; zone: string },
  read: (tx: StoreTransaction, zone: ZoneRecord) => T,
): T {
  assertDatabaseFile(source.path);
  let store: ReturnType<typeof openSqliteStore>;
  try {
    store = openSqliteStore(source.path);
  } catch (error) {
    throw new ExportError(`cannot open the database ${source.path}: ${(error as Error).message}`);
  }
  try {
    return store.transaction((tx) => {
      const zone: ZoneRecord | undefined = isZoneId(source.zone)
        ? tx.zones.get(source.zone)
        : zoneByName(tx, source);
      if (zone === undefined)
        throw new ExportError(`zone ${escapeControlCharacters(source.zone)} not found in ${source.path}`);
      return read(tx, zone);
    });
  } finally {
    store.close();
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
function zoneByName(tx: StoreTransaction, source: { path: string; zone: string }): ZoneRecord | undefined {
  const found = tx.zones.list({ name: source.zone }, { page: 1, perPage: 2 });
  if (found.totalCount > 1) {
    throw new ExportError(
      `${found.totalCount} accounts have a zone ${escapeControlCharacters(source.zone)} in ${source.path}: give the zone's id`,
    );
  }
  return found.items[0];
}
