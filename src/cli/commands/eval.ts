import { compile } from '../../eval/compile.js';
import { describeValue, explain, formatExplanation } from '../../eval/explain.js';
import { ListError, type ListItems } from '../../eval/lists.js';
import type { Diagnostic } from '../../lang/diagnostics.js';
import { escapeControlCharacters } from '../../lang/escape.js';
import { readSampleRequest } from '../../request/index.js';
import { formatIp } from '../../scheme/ip.js';
import { cloudflareScheme } from '../../scheme/scheme.js';
import { textOf, type Value } from '../../scheme/values.js';
import { choice, parseCommandLine } from '../args.js';
import { checkOptions, readCheckOptions } from '../check-options.js';
import { type Command, UsageError } from '../command.js';
import { parseJsonInput, readInputFile, stdinReader } from '../files.js';
import { entriesOf, readInputs } from '../inputs.js';
import { formatFinding, jsonDiagnostic } from '../report.js';
import type { ExpressionEntry } from '../rule-files.js';

export const evalOptions = {
  expression: { type: 'string', short: 'e' },
  request: { type: 'string', short: 'r' },
  field: { type: 'string', multiple: true },
  list: { type: 'string', multiple: true },
  ...checkOptions,
  explain: { type: 'boolean' },
  format: { type: 'string' },
} as const;

export const evalCommand: Command = {
  name: 'eval',
  options: evalOptions,
  help: `Usage: cfrules eval [options] EXPR

Evaluates EXPR against a sample request and prints the result: true or false
for a filter, the value for a rewrite expression (--rewrite). EXPR is checked
first, as cfrules validate would (- reads it from standard input); its lint
warnings go to standard error.

  -e, --expression EXPR     the expression, instead of the EXPR argument

Request:
  -r, --request PATH        the sample request, JSON (see docs/request.md); -
                            reads standard input. Default: an empty request
      --field NAME=VALUE    set the field NAME (may be repeated; wins over the
                            request). VALUE is text for Bytes and Ip fields,
                            JSON for the others (12, true, ["a"], {"k": ["v"]})
      --list NAME=PATH      the items of the list $NAME, one per line: IP
                            addresses and CIDRs, hostnames, or AS numbers. The
                            lists are exactly these: another $NAME is an error

Checks:
      --plan PLAN           the zone's plan: free, pro, business or enterprise
      --phase PHASE         where the expression runs, e.g.
                            http_request_firewall_custom
      --rewrite             EXPR is a rewrite expression (Transform Rules value)
      --max-length N        maximum expression length (default 4096)
      --no-lint             report no lint warnings
      --disable-lint CODE   turn off the lint CODE (may be repeated)

Output:
      --explain             show every sub-expression's result and the field
                            values it read
      --format FORMAT       text (default) or json (errors included)
  -h, --help                show this help

Exit status: 0 evaluated (whatever the result), 1 invalid expression, 2 usage
error (bad option, unreadable or invalid request or list).
`,
  run(args, io) {
    const { values, tokens } = parseCommandLine(args, evalOptions);
    const check = readCheckOptions(values);
    const json = choice('--format', values.format, ['text', 'json'] as const) === 'json';
    const sources = tokens.flatMap((token) =>
      token.kind === 'positional' || token.name === 'expression'
        ? [{ type: 'expression' as const, value: token.value ?? '' }]
        : [],
    );
    if (sources.length !== 1)
      throw new UsageError(
        sources.length === 0
          ? 'no expression given: pass EXPR, -e EXPR, or - for standard input'
          : 'give exactly one expression',
      );
    const readStdin = stdinReader(io);
    const [entry] = entriesOf(readInputs(sources, io, check.expression, readStdin)) as [ExpressionEntry];
    const read = (path: string) => readInputFile(io, path, readStdin);
    const request = readRequest(values.request, values.request && read(values.request), values.field ?? []);
    const listItems = readLists(values.list ?? [], read);
    let compiled: ReturnType<typeof compile>;
    try {
      compiled = compile(entry.expression, { ...check, listItems });
    } catch (error) {
      if (error instanceof ListError) throw new UsageError(error.message);
      throw error;
    }
    if (!compiled.ok) {
      if (json) io.stdout(toJson({ ok: false, ...about(entry, compiled.diagnostics) }));
      else for (const d of compiled.diagnostics) io.stderr(formatFinding(entry, d));
      return 1;
    }
    const { filter } = compiled;
    const ctx = filter.context(request);
    const result = filter.value(ctx);
    const rewrite = check.expression === 'rewrite';
    const explanation = values.explain
      ? explain(entry.expression, filter.ast, ctx, { listItems, expression: check.expression })
      : undefined;
    if (json) {
      const output = {
        ok: true,
        ...about(entry, compiled.diagnostics),
        result: rewrite ? jsonValue(result) : result === true,
      };
      io.stdout(toJson(explanation ? { ...output, explanation } : output));
      return 0;
    }
    for (const d of compiled.diagnostics) io.stderr(formatFinding(entry, d));
    // A rewrite's value is data: shown as it is, unless on a terminal, which would act on its controls.
    const shown = rewrite && typeof result === 'string' ? textOf(result) : describeValue(result);
    io.stdout(`${io.isTTY ? escapeControlCharacters(shown) : shown}\n`);
    if (explanation) io.stdout(`${formatExplanation(explanation)}\n`);
    return 0;
  },
};

const toJson = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

const about = (entry: ExpressionEntry, diagnostics: Diagnostic[]) => ({
  expression: entry.expression,
  diagnostics: diagnostics.map((d) => jsonDiagnostic(entry, d)),
});

/** A value in JSON: text for strings, `null` when missing (a string "missing" stays a string). */
function jsonValue(value: Value | undefined): unknown {
  if (value === undefined) return null;
  if (typeof value === 'string') return textOf(value);
  if (typeof value === 'number' || typeof value === 'boolean') return value;
  if (Array.isArray(value)) return value.map(jsonValue);
  if (value instanceof Map)
    return Object.fromEntries([...value].map(([key, item]) => [textOf(key), jsonValue(item)]));
  return formatIp(value as Parameters<typeof formatIp>[0]);
}

/** The request JSON (if any) with the --field values merged into its `fields`. */
function readRequest(path: string | undefined, text: string | undefined, fieldOptions: string[]) {
  const name = path === '-' ? '<stdin>' : (path ?? 'the request');
  let json: unknown = text === undefined ? {} : parseJsonInput(name, text);
  if (fieldOptions.length > 0) {
    if (typeof json !== 'object' || json === null || Array.isArray(json))
      throw new UsageError(`${name} must hold a JSON object`);
    const request = json as Record<string, unknown>;
    const fields: Record<string, unknown> = Object.assign(Object.create(null), request.fields ?? {});
    for (const option of fieldOptions) {
      const match = /^([^=]+)=(.*)$/s.exec(option);
      if (!match) throw new UsageError(`--field expects NAME=VALUE, got '${option}'`);
      const field = (match[1] as string).trim();
      fields[field] = fieldValue(field, match[2] as string);
    }
    json = { ...request, fields };
  }
  const read = readSampleRequest(json, cloudflareScheme);
  if (!read.ok)
    throw new UsageError(
      `invalid request${path ? ` ${name}` : ''}:\n${read.problems.map((p) => `  ${p.path || '(request)'}: ${p.message}`).join('\n')}`,
    );
  return read.request;
}

/** Text for Bytes and Ip fields (so that `http.host=123` is a string); JSON for the others. */
function fieldValue(name: string, text: string): unknown {
  const type = cloudflareScheme.fields.get(name)?.type;
  if (type === 'Bytes' || type === 'Ip') return text;
  try {
    return JSON.parse(text);
  } catch {
    return text; // the request reader reports the type mismatch with the field's name
  }
}

/** `--list NAME=PATH` options: the items of each list, by name. */
function readLists(options: string[], read: (path: string) => string): Record<string, ListItems> {
  const lists: Record<string, ListItems> = Object.create(null); // names are the user's: no prototype
  for (const option of options) {
    const match = /^\$?([^=]+)=(.+)$/.exec(option);
    if (!match) throw new UsageError(`--list expects NAME=PATH, got '${option}'`);
    const items = read((match[2] as string).trim())
      .split(/\r?\n/)
      .map((line) => line.trim())
      .filter((line) => line !== '' && !line.startsWith('#'));
    lists[(match[1] as string).trim()] = items.map((item) => (/^\d+$/.test(item) ? Number(item) : item));
  }
  return lists;
}
