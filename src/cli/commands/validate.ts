import { parseArgs } from 'node:util';
import { LINTS } from '../../check/lints.js';
import { type ListKind, type ValidateOptions, validate } from '../../check/validate.js';
import { type Phase, parsePhase } from '../../scheme/profile.js';
import { type CliIo, type Command, UsageError } from '../command.js';
import { phaseOption, planOption } from '../profile-options.js';
import {
  type CheckedExpression,
  colorEnabled,
  FORMATS,
  type Format,
  render,
  succeeded,
  summarize,
} from '../report.js';
import { type ExpressionEntry, expressionEntry, readRuleFile } from '../rule-files.js';

/** The options of `cfrules validate`, exported so that a test can check that the help lists them all. */
export const validateOptions = {
  expression: { type: 'string', short: 'e', multiple: true },
  file: { type: 'string', short: 'f', multiple: true },
  plan: { type: 'string' },
  phase: { type: 'string' },
  rewrite: { type: 'boolean' },
  list: { type: 'string', multiple: true },
  'max-length': { type: 'string' },
  'no-lint': { type: 'boolean' },
  'disable-lint': { type: 'string', multiple: true },
  format: { type: 'string' },
  'max-warnings': { type: 'string' },
  quiet: { type: 'boolean', short: 'q' },
} as const;

const LIST_KINDS: readonly ListKind[] = ['ip', 'hostname', 'asn'];

export const validateCommand: Command = {
  name: 'validate',
  summary: 'check expressions and rule files as Cloudflare does, plus lints',
  help: `Usage: cfrules validate [options] [EXPR...]

Checks expressions the way Cloudflare does before it accepts a rule (syntax,
fields, types, functions, plan and phase restrictions, length), plus lints that
report likely mistakes as warnings. Each EXPR is an expression; - reads one
expression from standard input.

Input:
  -e, --expression EXPR     check EXPR, like an EXPR argument (may be repeated)
  -f, --file PATH           check every expression in PATH (may be repeated; -
                            reads standard input). PATH is a text file with one
                            expression per line (blank lines and lines starting
                            with # are skipped), or JSON as the Cloudflare API
                            returns it: an array of filters or firewall rules,
                            or a ruleset; bare or in the API envelope

Checks:
      --plan PLAN           the zone's plan: free, pro, business or enterprise
                            (default: no plan restrictions)
      --phase PHASE         where the expressions run, e.g. firewall_rules or
                            http_request_firewall_custom (default: the ruleset's
                            phase for rulesets, firewall_rules for filters and
                            firewall rules, no phase restrictions otherwise)
      --rewrite             EXPR, - and text files hold rewrite expressions
                            (Transform Rules values) instead of filters
      --list NAME=KIND      declare the custom list $NAME; KIND is ip, hostname
                            or asn (may be repeated)
      --max-length N        maximum expression length (default 4096)
      --no-lint             report no lint warnings
      --disable-lint CODE   turn off the lint CODE, e.g. deprecated-field (may
                            be repeated)

Output:
      --format FORMAT       text (default), json, or github (GitHub Actions
                            workflow commands)
      --max-warnings N      fail when there are more than N warnings
  -q, --quiet               report errors only
  -h, --help                show this help

Exit status: 0 all valid, 1 an invalid expression (or more warnings than
--max-warnings), 2 usage error (bad option, unreadable file, unknown JSON).
`,
  run(args, io) {
    const { values, tokens } = parseArgs({
      args,
      allowPositionals: true,
      tokens: true,
      options: validateOptions,
    });
    const settings = readSettings(values);
    const entries = collectEntries(tokens, settings.rewrite, io);
    const warnedPhases = new Set<string>();
    const results: CheckedExpression[] = entries.map((entry) => {
      const phase = settings.phase ?? entryPhase(entry, warnedPhases, io);
      const result = validate(entry.expression, { ...settings.options, phase, expression: entry.kind });
      return { entry, phase, ok: result.ok, diagnostics: result.diagnostics };
    });
    noteFileArguments(results, io);
    const summary = summarize(results, settings.maxWarnings);
    io.stdout(render(settings.format, results, summary, { quiet: settings.quiet, color: colorEnabled(io) }));
    return succeeded(summary) ? 0 : 1;
  },
};

interface Settings {
  options: Omit<ValidateOptions, 'phase' | 'expression'>;
  phase?: Phase;
  rewrite: boolean;
  format: Format;
  maxWarnings: number | null;
  quiet: boolean;
}

interface OptionValues {
  plan?: string;
  phase?: string;
  rewrite?: boolean;
  list?: string[];
  'max-length'?: string;
  'no-lint'?: boolean;
  'disable-lint'?: string[];
  format?: string;
  'max-warnings'?: string;
  quiet?: boolean;
}

function readSettings(values: OptionValues): Settings {
  const options: Settings['options'] = {};
  const plan = planOption(values.plan);
  if (plan) options.plan = plan;
  const phase = phaseOption(values.phase);
  if (values.list) {
    options.lists = {};
    for (const item of values.list) {
      const match = /^\$?([^=]+)=(.*)$/.exec(item);
      const kind = match?.[2].trim().toLowerCase() as ListKind;
      if (!match || !LIST_KINDS.includes(kind))
        throw new UsageError(
          `--list expects NAME=KIND with KIND one of ${LIST_KINDS.join(', ')}, got '${item}'`,
        );
      options.lists[match[1].trim()] = kind;
    }
  }
  if (values['max-length'] !== undefined) options.maxLength = count('--max-length', values['max-length'], 1);
  if (values['no-lint']) options.lints = false;
  else if (values['disable-lint']) {
    options.lints = {};
    for (const code of values['disable-lint'].flatMap((codes) => codes.split(','))) {
      const name = code.trim();
      if (!name) continue;
      if (!(name in LINTS))
        throw new UsageError(`unknown lint '${name}': expected one of ${Object.keys(LINTS).join(', ')}`);
      options.lints[name] = false;
    }
  }
  const format = (values.format ?? 'text') as Format;
  if (!FORMATS.includes(format))
    throw new UsageError(`unknown format '${values.format}': expected one of ${FORMATS.join(', ')}`);
  const maxWarnings =
    values['max-warnings'] === undefined ? null : count('--max-warnings', values['max-warnings'], 0);
  return {
    options,
    phase,
    rewrite: values.rewrite === true,
    format,
    maxWarnings,
    quiet: values.quiet === true,
  };
}

function count(option: string, text: string, minimum: number): number {
  const value = /^\d+$/.test(text.trim()) ? Number(text.trim()) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < minimum)
    throw new UsageError(
      `${option} expects ${minimum === 0 ? 'a whole number' : 'a positive whole number'}, got '${text}'`,
    );
  return value;
}

type Token = ReturnType<typeof parseArgs>['tokens'] extends (infer T)[] | undefined ? T : never;

/**
 * The expressions to check, in command-line order: EXPR arguments and -e values, - (standard input),
 * and the contents of --file options. Every file is read (and its JSON understood) before anything is
 * checked, so a usage error stops the command before it reports anything.
 */
function collectEntries(tokens: Token[], rewrite: boolean, io: CliIo): ExpressionEntry[] {
  const kind = rewrite ? 'rewrite' : 'filter';
  const inputs: { type: 'expression' | 'file'; value: string }[] = [];
  for (const token of tokens) {
    if (token.kind === 'positional') inputs.push({ type: 'expression', value: token.value });
    else if (token.kind === 'option' && token.value !== undefined && token.name === 'expression')
      inputs.push({ type: 'expression', value: token.value });
    else if (token.kind === 'option' && token.value !== undefined && token.name === 'file')
      inputs.push({ type: 'file', value: token.value });
  }
  const literal = (input: (typeof inputs)[number]) => input.type === 'expression' && input.value !== '-';
  const numbered = inputs.filter(literal).length > 1;
  let stdinUsed = false;
  const readStdin = () => {
    if (stdinUsed) throw new UsageError('standard input can be read only once (- was given twice)');
    stdinUsed = true;
    return io.readStdin();
  };
  let n = 0;
  const entries: ExpressionEntry[] = [];
  for (const input of inputs) {
    if (literal(input)) {
      n++;
      entries.push(expressionEntry(numbered ? `<expression ${n}>` : '<expression>', input.value, kind));
    } else if (input.type === 'expression') {
      entries.push(expressionEntry('<stdin>', readStdin().replace(/\r?\n$/, ''), kind));
    } else if (input.value === '-') {
      entries.push(...withKind(readRuleFile('<stdin>', undefined, readStdin()), kind));
    } else {
      let text: string;
      try {
        text = io.readFile(input.value);
      } catch (error) {
        const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
        throw new UsageError(`cannot read ${input.value}: ${reason}`);
      }
      entries.push(...withKind(readRuleFile(input.value, input.value, text), kind));
    }
  }
  if (inputs.length === 0)
    throw new UsageError('no expression given: pass expressions, - for standard input, or --file PATH');
  return entries;
}

/** --rewrite applies to text files; JSON rules say themselves which of their expressions are rewrites. */
function withKind(entries: ExpressionEntry[], kind: 'filter' | 'rewrite'): ExpressionEntry[] {
  for (const entry of entries) if (entry.rule === undefined) entry.kind = kind;
  return entries;
}

/** The phase a rule file implies; one that cfrules does not know is reported once, then ignored. */
function entryPhase(entry: ExpressionEntry, warned: Set<string>, io: CliIo): Phase | undefined {
  if (entry.phase === undefined) return undefined;
  const phase = parsePhase(entry.phase);
  if (!phase && !warned.has(entry.source)) {
    warned.add(entry.source);
    io.stderr(
      `cfrules validate: ${entry.source}: unknown phase '${entry.phase}'; its rules are checked without ` +
        'phase restrictions (use --phase to choose one)\n',
    );
  }
  return phase;
}

/** `cfrules validate rules.txt` checks the text `rules.txt`: when that is a file, say how to check it. */
function noteFileArguments(results: CheckedExpression[], io: CliIo): void {
  for (const { entry, ok } of results) {
    if (ok || entry.path !== undefined || entry.rule !== undefined || !entry.source.startsWith('<expression'))
      continue;
    const candidate = entry.expression;
    if (/\s/.test(candidate) || candidate === '') continue;
    try {
      io.readFile(candidate);
    } catch {
      continue;
    }
    io.stderr(
      `cfrules validate: note: '${candidate}' was checked as an expression; to check the file, use --file ${candidate}\n`,
    );
  }
}
