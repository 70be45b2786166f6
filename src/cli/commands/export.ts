import type { ZoneFile } from '../../engine/zone/model.js';
import { requirePeer } from '../../peers.js';
import { WAF_PHASES } from '../../scheme/actions.js';
import { RULESET_PHASES, type RulesetPhase } from '../../service/rulesets/model.js';

import { choice, parseCommandLine } from '../args.js';
import { type CliIo, type Command, UsageError } from '../command.js';
import { readRulesetsFromApi } from '../export/api-source.js';
import {
  type CustomRulesetHeader,
  ExportError,
  type ExportedRulesets,
  type ExportOwner,
  isObjectId,
} from '../export/source.js';
import {
  DEFAULT_PROVIDER,
  type ImportCommand,
  importCommand,
  importLine,
  namedRulesets,
  nonNfcTexts,
  PROVIDERS,
  type Provider,
  terraformConfiguration,
} from '../export/terraform.js';
import { commandMessage } from '../messages.js';

/**
 * The phases `export terraform` writes, for either provider: the WAF's first, then the Rules products'.
 */
const TERRAFORM_PHASES: readonly RulesetPhase[] = [
  ...WAF_PHASES,
  ...RULESET_PHASES.filter((phase) => !WAF_PHASES.includes(phase)),
];

/**
 * `cfrules export terraform`: a zone's entry-point rulesets, or an account's root entry points and custom
 * rulesets, as Terraform configuration, with the commands that import them. `cfrules export zone`: the
 * zone's whole configuration as a zone file (the engine's input, docs/engine.md). The zone or account is
 * read from a running API, or from the service's database file (--db). Neither the HTTP server nor SQLite
 * is loaded unless that source is used.
 */

const DEFAULT_API = 'http://127.0.0.1:8787/client/v4';
const TARGETS = ['terraform', 'zone'] as const;
const FORMATS = ['text', 'json'] as const;

export const exportOptions = {
  zone: { type: 'string' },
  account: { type: 'string' },
  api: { type: 'string' },
  token: { type: 'string' },
  db: { type: 'string' },
  phase: { type: 'string', multiple: true },
  output: { type: 'string', short: 'o' },
  imports: { type: 'boolean' },
  format: { type: 'string' },
  provider: { type: 'string' },
} as const;

export const exportCommand: Command = {
  name: 'export',
  options: exportOptions,
  help: `Usage: cfrules export terraform --zone ZONE [options]
       cfrules export terraform --account ACCOUNT_ID [options]
       cfrules export zone --zone ZONE [options]

terraform: writes the entry-point rulesets of a zone (one per phase) as
cloudflare_ruleset resources of the Cloudflare Terraform provider 5 (rules as a
list attribute), or 4 (4.48 and later: rules as blocks) with --provider 4, each
after an import block (Terraform 1.5 and later) and under the 'terraform
import' command that adopt it into a Terraform state; a terraform block names
the provider's versions. No action_parameters.version is written (providers
from 4.48 on refuse it); what the provider's schema has no place for is left
out, with a warning on standard error.
Strings are written so that HCL reads them back byte for byte; text that is not
in Unicode NFC, which Terraform would change, is reported on standard error, as
is each custom ruleset of the zone, left out: the provider declares custom
rulesets at account level.
With --account, writes the account's rulesets instead: its root entry points
(kind root, which deploy custom rulesets to its zones) and its custom rulesets
of those phases, with account_id; a rule that executes one of them refers to
its resource (cloudflare_ruleset.NAME.id). Custom rulesets are named after their
name. The token must reach the whole account (account_rulesets:read).

zone: writes the zone's whole request-filtering configuration as a zone file
(plan, firewall rules, rulesets, previous WAF, page rules, migration status),
the input of the engine: JSON, or YAML when FILE ends in .yaml or .yml.

Source (one of):
      --api URL         a running API, e.g. cfrules serve (default
                        ${DEFAULT_API})
      --token TOKEN     its API token (default: $CLOUDFLARE_API_TOKEN)
      --db PATH         the database of cfrules serve, read offline: its
                        SQLite file, or a postgres://… URL

Options:
      --zone ZONE       the zone: its id, or its name (required, but for
                        export terraform --account)
  -o, --output FILE     write the configuration (or zone file) to FILE; for
                        terraform, print the import commands on standard output
  -h, --help            show this help

Options of terraform:
      --account ID      export an account's rulesets instead of a zone's
      --provider N      the provider's major version: 5 (default) or 4
      --phase PHASE     export only this phase's entry point (may be repeated;
                        default: every phase, the WAF's and the Rules
                        products')
      --imports         print the import commands instead of the configuration
      --format FORMAT   how import commands are printed: text (default), or
                        json: [{"address": …, "id": …, "command": …}]

Exit status: 0 written, 1 the zone could not be read (unreachable API, refused
token, unknown zone or account, nothing to export for terraform), 2 usage
error.
`,
  run(args, io) {
    const request = readRequest(args, io);
    return runExport(request, io);
  },
};

interface ExportRequest {
  target: (typeof TARGETS)[number];
  /** The zone (its id or name) or, for terraform, the account (its id). */
  owner: ExportOwner;
  phases: readonly string[];
  source: { kind: 'api'; api: string; token: string } | { kind: 'db'; path: string };
  output?: string;
  imports: boolean;
  format: (typeof FORMATS)[number];
  provider: Provider;
}

/** Everything the command line can get wrong is found here, before any request (exit status 2). */
function readRequest(args: string[], io: CliIo): ExportRequest {
  const { values, positionals } = parseCommandLine(args, exportOptions);
  const [target, ...extra] = positionals;
  if (target === undefined) throw new UsageError('say what to export: cfrules export terraform --zone ZONE');
  const chosen = choice('target', target, TARGETS) as ExportRequest['target'];
  if (extra.length > 0) throw new UsageError(`unexpected argument '${extra[0]}'`);
  if (chosen === 'zone') {
    for (const name of ['phase', 'imports', 'format', 'provider', 'account'] as const) {
      if (values[name] !== undefined)
        throw new UsageError(`--${name} is an option of export terraform; export zone writes the whole zone`);
    }
  }
  const owner = ownerOf(values.zone, values.account);
  const format = choice('--format', values.format, FORMATS) ?? 'text';
  const provider =
    (choice('--provider', values.provider, PROVIDERS) as Provider | undefined) ?? DEFAULT_PROVIDER;
  const phases = values.phase?.map((phase) => choice('--phase', phase, TERRAFORM_PHASES) as string) ?? [
    ...TERRAFORM_PHASES,
  ];
  const common = {
    provider,
    target: chosen,
    owner,
    phases: [...new Set(phases)],
    output: values.output,
    imports: values.imports === true,
    format,
  };
  if (values.db !== undefined) {
    if (values.api !== undefined || values.token !== undefined)
      throw new UsageError('--db reads the database file offline: give it without --api and --token');
    return { ...common, source: { kind: 'db', path: values.db } };
  }
  return {
    ...common,
    source: { kind: 'api', api: apiUrl(values.api ?? DEFAULT_API), token: token(values.token, io) },
  };
}

/** The zone or the account of the command line: exactly one. */
function ownerOf(zone: string | undefined, account: string | undefined): ExportOwner {
  if (account !== undefined) {
    if (zone !== undefined)
      throw new UsageError(
        "give --zone or --account, not both: an export writes one zone's or one account's rulesets",
      );
    const id = account.trim().toLowerCase();
    if (!isObjectId(id))
      throw new UsageError(`--account takes an account id (32 hexadecimal characters), not '${account}'`);
    return { scope: 'account', id };
  }
  const name = zone?.trim();
  if (!name) throw new UsageError('--zone ZONE is required: the id or the name of the zone to export');
  return { scope: 'zone', id: name };
}

function apiUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`--api must be a URL such as ${DEFAULT_API}, not '${text}'`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`--api must be an http:// or https:// URL, not '${text}'`);
  return url.href.replace(/\/+$/, '');
}

function token(option: string | undefined, io: CliIo): string {
  const value = option ?? io.env?.CLOUDFLARE_API_TOKEN;
  if (value === undefined || value.trim() === '')
    throw new UsageError(
      'no API token: pass --token TOKEN or set CLOUDFLARE_API_TOKEN (or read a database with --db)',
    );
  return value.trim();
}

async function runExport(request: ExportRequest, io: CliIo): Promise<number> {
  if (request.target === 'zone') return runZoneExport(request, io);
  let read: ExportedRulesets;
  try {
    read = await readRulesets(request);
  } catch (error) {
    return reportFailure(error, request, io);
  }
  for (const ruleset of read.customRulesets) io.stderr(leftOutWarning(ruleset));
  const rulesets = namedRulesets(read.rulesets);
  for (const where of nonNfcTexts(rulesets)) {
    io.stderr(
      commandMessage(
        'export',
        `warning: ${where} is not in Unicode normalization form C; Terraform stores strings in NFC, so it would plan to change it`,
      ),
    );
  }
  const imports = rulesets.map((named) => importCommand(read.owner, named, request.provider));
  const importsText = formatImports(imports, request.format);
  let main = importsText;
  if (!request.imports) {
    const configuration = terraformConfiguration(read.owner, rulesets, request.provider);
    for (const line of configuration.leftOut) io.stderr(commandMessage('export', `warning: ${line}`));
    main = configuration.text;
  }
  if (request.output === undefined) {
    io.stdout(main);
    return 0;
  }
  if (!write(request.output, main, io)) return 1;
  if (!request.imports) io.stdout(importsText);
  return 0;
}

/**
 * Why a custom ruleset is not in the configuration. The Terraform provider declares custom rulesets at
 * account level (`account_id`, imported as `account/<account id>/<ruleset id>`), while cfrules keeps them
 * among a zone's rulesets: a resource written either way would not import the ruleset the zone has. Left
 * out without a word, a user would take the configuration for the zone's whole set of rules.
 */
function leftOutWarning(ruleset: CustomRulesetHeader): string {
  return commandMessage(
    'export',
    `warning: custom ruleset ${ruleset.id} ${JSON.stringify(ruleset.name)} (${ruleset.phase}) left out: the Terraform ` +
      "provider declares custom rulesets at account level, and this export writes the zone's entry points only",
  );
}

/** A failure to read the zone: one line on stderr, or (--format json) a JSON document on stdout. */
function reportFailure(error: unknown, request: ExportRequest, io: CliIo): number {
  if (!(error instanceof ExportError)) throw error;
  // As for usage errors (main.ts): a program that asked for JSON gets its failure as JSON too.
  if (request.format === 'json')
    io.stdout(
      `${JSON.stringify({ ok: false, error: { kind: 'export', message: error.message } }, null, 2)}\n`,
    );
  else io.stderr(commandMessage('export', error.message));
  return 1;
}

function write(path: string, text: string, io: CliIo): boolean {
  try {
    io.writeFile(path, text);
    return true;
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    io.stderr(commandMessage('export', `cannot write ${path}: ${code ?? message}`));
    return false;
  }
}

/** `export zone`: the zone file, JSON on stdout or in FILE, YAML in FILE.yaml / FILE.yml. */
async function runZoneExport(request: ExportRequest, io: CliIo): Promise<number> {
  let file: ZoneFile;
  try {
    const read = await readZoneFile(request);
    file = read.file;
    for (const line of read.warnings) io.stderr(commandMessage('export', `warning: ${line}`));
  } catch (error) {
    return reportFailure(error, request, io);
  }
  const output = request.output;
  if (output === undefined) {
    io.stdout(`${JSON.stringify(file, null, 2)}\n`);
    return 0;
  }
  const text = /\.ya?ml$/i.test(output)
    ? requirePeer<typeof import('yaml')>('yaml').stringify(file, { lineWidth: 0 })
    : `${JSON.stringify(file, null, 2)}\n`;
  return write(output, text, io) ? 0 : 1;
}

async function readZoneFile(
  request: ExportRequest,
): Promise<{ zoneId: string; file: ZoneFile; warnings: string[] }> {
  const { source, owner } = request;
  if (source.kind === 'api') {
    const { readZoneFileFromApi } = await import('../export/zone-api.js');
    return readZoneFileFromApi({ api: source.api, token: source.token, owner });
  }
  const { readZoneFileFromDb } = await import('../export/db-source.js');
  return readZoneFileFromDb({ path: source.path, zone: owner.id });
}

async function readRulesets(request: ExportRequest): Promise<ExportedRulesets> {
  const { source, owner, phases } = request;
  if (source.kind === 'api')
    return readRulesetsFromApi({ api: source.api, token: source.token, owner, phases });
  // Loaded only here: the database reader needs SQLite, which no other use of this command does.
  const { readRulesetsFromDb } = await import('../export/db-source.js');
  return readRulesetsFromDb({ path: source.path, owner, phases });
}

function formatImports(imports: readonly ImportCommand[], format: ExportRequest['format']): string {
  if (format === 'json') {
    const entries = imports.map((entry) => ({ ...entry, command: importLine(entry) }));
    return `${JSON.stringify(entries, null, 2)}\n`;
  }
  return imports.map((entry) => `${importLine(entry)}\n`).join('');
}
