import { isAbsolute, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { utf8Width } from '../lang/position.js';
import { VERSION } from '../version.js';

/**
 * SARIF 2.1.0 (the OASIS Static Analysis Results Interchange Format), the log GitHub code scanning and
 * other CI systems read: `cfrules validate` and `cfrules test` write one run of cfrules as a log.
 */

export const SARIF_SCHEMA =
  'https://docs.oasis-open.org/sarif/sarif/v2.1.0/os/schemas/sarif-schema-2.1.0.json';
export const SARIF_VERSION = '2.1.0';

export type SarifLevel = 'error' | 'warning' | 'note';

/**
 * Where in a file, with SARIF's columns: UTF-16 code units, 1-based, `endColumn` the column after the
 * region (the run says so in `columnKind`). cfrules' own columns count UTF-8 bytes: see `utf16Column`.
 */
export interface SarifRegion {
  startLine: number;
  startColumn?: number;
  endLine?: number;
  endColumn?: number;
}

export interface SarifLocation {
  /** The file, as the user named it. */
  file: string;
  region?: SarifRegion;
}

/** A result (a finding) or a notification (about the run itself), before it is written in SARIF's shape. */
export interface SarifItem {
  level: SarifLevel;
  message: string;
  location?: SarifLocation;
}

export interface SarifRun {
  /** One per finding; each rule that occurs is described once in the tool's `rules`. */
  results: (SarifItem & { ruleId: string })[];
  /** A short description of each rule id, for the tool's `rules`. */
  describe: (ruleId: string) => string;
  /** What went wrong with the run rather than in a file (a usage error, too many warnings). */
  notifications?: SarifItem[];
  /** False when the command stopped before checking anything (a usage error). */
  executionSuccessful: boolean;
}

/** The SARIF log of one run of cfrules, as JSON text ending with a line break. */
export function sarifLog(run: SarifRun): string {
  const ruleIds = [...new Set(run.results.map((result) => result.ruleId))];
  const log = {
    $schema: SARIF_SCHEMA,
    version: SARIF_VERSION,
    runs: [
      {
        tool: {
          driver: {
            name: 'cfrules',
            version: VERSION,
            rules: ruleIds.map((id) => ({ id, shortDescription: { text: run.describe(id) } })),
          },
        },
        // Paths are relative to the working directory, which the base id names.
        originalUriBaseIds: {
          [BASE_ID]: { uri: `${pathToFileURL(process.cwd()).href.replace(/\/$/, '')}/` },
        },
        columnKind: 'utf16CodeUnits',
        results: run.results.map(({ ruleId, level, message, location }) => ({
          ruleId,
          ruleIndex: ruleIds.indexOf(ruleId),
          level,
          message: { text: message },
          ...(location ? { locations: [sarifLocation(location)] } : {}),
        })),
        invocations: [
          {
            executionSuccessful: run.executionSuccessful,
            ...(run.notifications?.length
              ? {
                  toolExecutionNotifications: run.notifications.map(({ level, message, location }) => ({
                    level,
                    message: { text: message },
                    ...(location ? { locations: [sarifLocation(location)] } : {}),
                  })),
                }
              : {}),
          },
        ],
      },
    ],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
}

const BASE_ID = '%SRCROOT%';

function sarifLocation({ file, region }: SarifLocation) {
  return { physicalLocation: { artifactLocation: artifactLocation(file), ...(region ? { region } : {}) } };
}

/** A file as a URI relative to the working directory; a file URI when it has no relative path (another drive). */
function artifactLocation(file: string): { uri: string; uriBaseId?: string } {
  const path = relative(process.cwd(), resolve(file));
  if (isAbsolute(path)) return { uri: pathToFileURL(file).href };
  return { uri: path.split(sep).map(encodeURIComponent).join('/'), uriBaseId: BASE_ID };
}

/**
 * SARIF's column (UTF-16 code units, 1-based) of cfrules' column `utf8Column` (UTF-8 bytes, 1-based) in
 * `line`. Beyond the end of the line, each byte counts one.
 */
export function utf16Column(line: string, utf8Column: number): number {
  let bytes = 0;
  let units = 0;
  while (units < line.length && bytes < utf8Column - 1) {
    bytes += utf8Width(line, units);
    units++;
  }
  return units + 1 + Math.max(0, utf8Column - 1 - bytes);
}
