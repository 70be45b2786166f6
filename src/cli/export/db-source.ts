import { closeSync, openSync, readSync, statSync } from 'node:fs';
import type { ZoneFile } from '../../engine/zone/model.js';
import { escapeControlCharacters } from '../../lang/escape.js';
import { type RulesetJson, rulesetJson } from '../../service/rulesets/model.js';
import { zoneFileFromStore } from '../../service/zone-file.js';
import { describeDatabase, openStore } from '../../store/open.js';
import { isPostgresUrl } from '../../store/postgres.js';
import type { RulesetTable } from '../../store/ruleset-records.js';
import type { Store, StoreTransaction, ZoneRecord } from '../../store/store.js';
import { fileErrorReason } from '../files.js';
import {
  customRulesetsIn,
  ExportError,
  type ExportedRulesets,
  type ExportOwner,
  isObjectId,
  nothingToExport,
} from './source.js';

/**
 * Reads a zone's entry points (or its whole zone file) straight from the database of `cfrules serve`, without a running service
 * or credentials: whoever can read the file can read everything in it anyway. The JSON is the API's own
 * (`rulesetJson`), so both sources export the same configuration. This module loads better-sqlite3, so
 * the export command imports it only for --db.
 */

export interface DbSource {
  path: string;
  /** The zone (its id or name) or the account (its id) read. */
  owner: ExportOwner;
  phases: readonly string[];
}

/** What `export terraform` writes: the zone's entry points, or the account's entry points and custom rulesets. */
export function readRulesetsFromDb(source: DbSource): Promise<ExportedRulesets> {
  if (source.owner.scope === 'account') return readAccountRulesets(source);
  return inZone({ path: source.path, zone: source.owner.id }, async (tx, zone) => {
    const owner: ExportOwner = { scope: 'zone', id: zone.id };
    const rulesets = await entryPoints(tx.rulesets, zone.id, source.phases);
    if (rulesets.length === 0) throw nothingToExport(owner, source.phases);
    const customRulesets = customRulesetsIn(await tx.rulesets.list(zone.id), source.phases);
    return { owner, rulesets, customRulesets };
  });
}

function readAccountRulesets(source: DbSource): Promise<ExportedRulesets> {
  const { owner, phases } = source;
  return inStore(source.path, async (tx) => {
    if ((await tx.accounts.get(owner.id)) === undefined)
      throw new ExportError(`account ${owner.id} not found in ${describeDatabase(source.path)}`);
    const table = tx.accountRulesets;
    const rulesets = await entryPoints(table, owner.id, phases);
    for (const { id } of customRulesetsIn(await table.list(owner.id), phases)) {
      const record = await table.get(owner.id, id);
      if (record !== undefined) rulesets.push(rulesetJson(record));
    }
    if (rulesets.length === 0) throw nothingToExport(owner, phases);
    return { owner, rulesets, customRulesets: [] };
  });
}

/** The owner's entry points of these phases, those it has. */
async function entryPoints(
  table: RulesetTable,
  ownerId: string,
  phases: readonly string[],
): Promise<RulesetJson[]> {
  const rulesets: RulesetJson[] = [];
  for (const phase of phases) {
    const record = await table.entryPoint(ownerId, phase);
    if (record !== undefined) rulesets.push(rulesetJson(record));
  }
  return rulesets;
}

/** `cfrules export zone --db`: the zone file the service would simulate with (src/service/zone-file.ts). */
export function readZoneFileFromDb(source: {
  path: string;
  zone: string;
}): Promise<{ zoneId: string; file: ZoneFile; warnings: string[] }> {
  return inZone(source, async (tx, zone) => ({
    zoneId: zone.id,
    file: await zoneFileFromStore(tx, zone),
    warnings: [],
  }));
}

/** Opens the database, finds the zone (by id or name) and reads it in one transaction. */
function inZone<T>(
  source: { path: string; zone: string },
  read: (tx: StoreTransaction, zone: ZoneRecord) => Promise<T>,
): Promise<T> {
  return inStore(source.path, async (tx) => {
    const zone: ZoneRecord | undefined = isObjectId(source.zone)
      ? await tx.zones.get(source.zone)
      : await zoneByName(tx, source);
    if (zone === undefined)
      throw new ExportError(
        `zone ${escapeControlCharacters(source.zone)} not found in ${describeDatabase(source.path)}`,
      );
    return read(tx, zone);
  });
}

/** Opens the database and reads it in one transaction. */
async function inStore<T>(path: string, read: (tx: StoreTransaction) => Promise<T>): Promise<T> {
  if (!isPostgresUrl(path)) assertDatabaseFile(path);
  let store: Store;
  try {
    store = await openStore(path);
  } catch (error) {
    throw new ExportError(`cannot open the database ${describeDatabase(path)}: ${(error as Error).message}`);
  }
  try {
    return await store.transaction(read);
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
