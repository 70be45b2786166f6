import { parseArgs } from 'node:util';
import { compile } from '../../eval/compile.js';
import { describeValue, explain, formatExplanation } from '../../eval/explain.js';
import { ListError, type ListItems } from '../../eval/lists.js';
import { formatDiagnostic } from '../../lang/diagnostics.js';
import { readSampleRequest } from '../../request/index.js';
import { cloudflareScheme } from '../../scheme/scheme.js';
import { textOf } from '../../scheme/values.js';
import { type Command, UsageError } from '../command.js';
import { phaseOption, planOption } from '../profile-options.js';

export const evalOptions = {
  expression: { type: 'string', short: 'e' },
  request: { type: 'string', short: 'r' },
  field: { type: 'string', multiple: true },
  list: { type: 'string', multiple: true },
  plan: { type: 'string' },
  phase: { type: 'string' },
  rewrite: { type: 'boolean' },
  explain: { type: 'boolean' },
  format: { type: 'string' },
} as const;

export const evalCommand: Command = {
  name: 'eval',
  summary: 'evaluate an expression against a sample request',
  help: `Usage: cfrules eval [options] EXPR

Evaluates EXPR against a sample request and prints the result: true or false
for a filter, the value for a rewrite expression (--rewrite). EXPR is checked
first, as cfrules validate would (- reads it from standard input).

  -e, --expression EXPR     the expression, instead of the EXPR argument

Request:
  -r, --request PATH        the sample request, JSON (see docs/request.md); -
                            reads standard input. Default: an empty request
      --field NAME=VALUE    set the field NAME (may be repeated; wins over the
                            request). VALUE is text for Bytes and Ip fields,
                            JSON for the others (12, true, ["a"], {"k": ["v"]})
      --list NAME=PATH      the items of the list $NAME, one per line: IP
                            addresses and CIDRs, hostnames, or AS numbers

Checks:
      --plan PLAN           the zone's plan: free, pro, business or enterprise
      --phase PHASE         where the expression runs, e.g.
                            http_request_firewall_custom
      --rewrite             EXPR is a rewrite expression (Transform Rules value)

Output:
      --explain             show every sub-expression's result and the field
                            values it read
      --format FORMAT       text (default) or json
  -h, --help                show this help

Exit status: 0 evaluated (whatever the result), 1 invalid expression, 2 usage
error (bad option, unreadable or invalid request or list).
`,
  run(args, io) {
    const { values, positionals } = parseArgs({ args, allowPositionals: true, options: evalOptions });
    const expressions = values.expression === undefined ? positionals : [values.expression, ...positionals];
    if (expressions.length !== 1)
      throw new UsageError(expressions.length === 0 ? 'no expression given' : 'give exactly one expression');
    const format = values.format ?? 'text';
    if (format !== 'text' && format !== 'json')
      throw new UsageError(`unknown format '${format}': expected one of text, json`);
    let stdinUsed = false;
    const readInput = (path: string, what: string) => {
      if (path === '-') {
        if (stdinUsed) throw new UsageError('standard input can be read only once (- was given twice)');
        stdinUsed = true;
        return io.readStdin();
      }
      try {
        return io.readFile(path);
      } catch (error) {
        const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
        throw new UsageError(`cannot read ${what} ${path}: ${reason}`);
      }
    };
    const [expression] = expressions as [string];
    const source = expression === '-' ? readInput('-', 'expression').replace(/\r?\n$/, '') : expression;
    const request = readRequest(values.request && readInput(values.request, 'request'), values.field ?? []);
    const listItems = readLists(values.list ?? [], (path) => readInput(path, 'list'));
    const options = {
      plan: planOption(values.plan),
      phase: phaseOption(values.phase),
      expression: values.rewrite ? ('rewrite' as const) : ('filter' as const),
      listItems,
    };
    let compiled: ReturnType<typeof compile>;
    try {
      compiled = compile(source, options);
    } catch (error) {
      if (error instanceof ListError) throw new UsageError(error.message);
      throw error;
    }
    if (!compiled.ok) {
      for (const d of compiled.diagnostics) {
        io.stderr(formatDiagnostic(source, d));
        if (d.hint) io.stderr(`hint: ${d.hint}\n`);
      }
      return 1;
    }
    const { filter } = compiled;
    const ctx = filter.context(request);
    const result = filter.value(ctx);
    const shown =
      options.expression === 'rewrite' && typeof result === 'string' ? textOf(result) : describeValue(result);
    const explanation = values.explain ? explain(source, filter.ast, ctx, { listItems }) : undefined;
    if (format === 'json') {
      const output = {
        expression: source,
        result: options.expression === 'rewrite' ? shown : result === true,
        explanation,
      };
      io.stdout(`${JSON.stringify(output, null, 2)}\n`);
    } else {
      io.stdout(`${shown}\n`);
      if (explanation) io.stdout(`${formatExplanation(explanation)}\n`);
    }
    return 0;
  },
};

/** The request JSON (if any) with the --field values merged into its `fields`. */
function readRequest(text: string | undefined, fieldOptions: string[]) {
  let json: unknown = {};
  if (text !== undefined) {
    try {
      json = JSON.parse(text);
    } catch (error) {
      throw new UsageError(`the request is not valid JSON: ${(error as Error).message}`);
    }
  }
  if (fieldOptions.length > 0) {
    if (typeof json !== 'object' || json === null || Array.isArray(json))
      throw new UsageError('the request must be a JSON object');
    const request = json as Record<string, unknown>;
    const fields: Record<string, unknown> = Object.assign(Object.create(null), request.fields ?? {});
    for (const option of fieldOptions) {
      const match = /^([^=]+)=(.*)$/s.exec(option);
      if (!match) throw new UsageError(`--field expects NAME=VALUE, got '${option}'`);
      const name = (match[1] as string).trim();
      fields[name] = fieldValue(name, match[2] as string);
    }
    json = { ...request, fields };
  }
  const read = readSampleRequest(json, cloudflareScheme);
  if (!read.ok)
    throw new UsageError(
      `invalid request:\n${read.problems.map((p) => `  ${p.path || '(request)'}: ${p.message}`).join('\n')}`,
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
