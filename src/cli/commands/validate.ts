import { type ListKind, validate } from '../../check/validate.js';
import { type Phase, type Plan, parsePhase } from '../../scheme/profile.js';
import { choice, parseCommandLine } from '../args.js';
import { checkOptions, count, readCheckOptions } from '../check-options.js';
import { type CliIo, type Command, UsageError } from '../command.js';
import {
  entriesOf,
  type InputDocument,
  inputOptions,
  inputSources,
  readInputs,
  resolveSources,
  withHclParser,
} from '../inputs.js';
import { commandMessage } from '../messages.js';
import {
  type CheckedExpression,
  colorEnabled,
  FORMATS,
  type RuleFinding,
  render,
  succeeded,
  summarize,
} from '../report.js';
import type { ExpressionEntry } from '../rule-files.js';
import { isTerraformPath } from '../terraform-files.js';

/** The options of `cfrules validate`, exported so that a test can check that the help lists them all. */
export const validateOptions = {
  ...inputOptions,
  ...checkOptions,
  list: { type: 'string', multiple: true },
  format: { type: 'string' },
  'max-warnings': { type: 'string' },
  'allow-empty': { type: 'boolean' },
  files: { type: 'boolean' },
  quiet: { type: 'boolean', short: 'q' },
} as const;

const LIST_KINDS: readonly ListKind[] = ['ip', 'hostname', 'asn'];

export const validateCommand: Command = {
  name: 'validate',
  options: validateOptions,
  formats: FORMATS,
  help: `Usage: cfrules validate [options] [EXPR...]

Checks expressions the way Cloudflare does before it accepts a rule (syntax,
fields, types, functions, plan and phase restrictions, length), plus lints that
report likely mistakes as warnings. Each EXPR is an expression; - reads one
expression from standard input. An EXPR that names a directory, or an existing
.tf or .cfrules file, is read as with --file.

Input:
  -e, --expression EXPR     check EXPR, like an EXPR argument (may be repeated)
  -f, --file PATH           check every expression in PATH (may be repeated; -
                            reads standard input). PATH is a text file with one
                            expression per line (blank lines and lines starting
                            with # are skipped; .cfrules files are always read
                            so), JSON as the Cloudflare API returns it (an array
                            of filters or firewall rules, or a ruleset; bare or
                            in the API envelope), whose filters and rules are
                            checked as the API checks them (action, plan,
                            products, parameters), or Terraform (.tf): the
                            expression of every cloudflare_ruleset rule and
                            cloudflare_filter, checked for the ruleset's phase.
                            A directory stands for every .txt, .cfrules, .json
                            and .tf file under it (sorted, not in node_modules
                            or .directories)
      --files               every EXPR argument is a PATH, as with --file (for
                            hooks that pass file names, such as pre-commit)

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
      --format FORMAT       text (default), json, github (GitHub Actions
                            workflow commands) or sarif (SARIF 2.1.0, for code
                            scanning); usage errors come in that format too
      --max-warnings N      fail when there are more than N warnings
      --allow-empty         succeed when a file holds no expression (by default
                            that is an error, so that CI does not pass on
                            nothing)
  -q, --quiet               report errors only
  -h, --help                show this help

An expression in a .tf file that Terraform computes (an interpolation such as
"\${var.x}", a reference, a function call) cannot be checked: it is reported as
a warning, unchecked-expression, and counted apart (unchecked in JSON).

Exit status: 0 all valid, 1 an invalid expression, more warnings than
--max-warnings or a file without expressions, 2 usage error (bad option,
unreadable file, unknown JSON, a .tf file that is not valid HCL).
`,
  run(args, io) {
    const { values, tokens } = parseCommandLine(args, validateOptions);
    const { phase: forcedPhase, ...check } = readCheckOptions(values);
    const lists = values.list && declaredLists(values.list);
    const format = choice('--format', values.format, FORMATS) ?? 'text';
    const maxWarnings =
      values['max-warnings'] === undefined ? null : count('--max-warnings', values['max-warnings'], 0);
    const sources = resolveSources(inputSources(tokens, 'expression'), io, values.files === true);
    return withHclParser(sources, io, (hcl) => {
      const documents = readInputs(sources, io, check.expression, undefined, true, hcl);
      const entries = entriesOf(documents);
      const finish = (checkObject?: RuleObjectCheck): number => {
        const warnedPhases = new Set<string>();
        const results: CheckedExpression[] = entries.map((entry) => {
          const phase = forcedPhase ?? entryPhase(entry, warnedPhases, io);
          if (entry.unchecked !== undefined)
            return { entry, phase, ok: true, diagnostics: [], unchecked: entry.unchecked };
          const result = validate(entry.expression, { ...check, lists, phase, expression: entry.kind });
          // Without --plan nothing is refused for the plan, in rule objects as in expressions.
          const ruleFindings = checkObject
            ? objectFindings(checkObject, entry, check.plan ?? 'enterprise', phase)
            : [];
          const ok = result.ok && ruleFindings.length === 0;
          return { entry, phase, ok, diagnostics: result.diagnostics, ruleFindings };
        });
        noteFileArguments(results, io);
        // Most files of a Terraform configuration hold no rules (variables.tf, providers.tf): a .tf file
        // without expressions is not an empty input.
        const emptyInputs = documents
          .filter((d) => d.entries.length === 0 && !(d.path !== undefined && isTerraformPath(d.path)))
          .map((d) => d.name);
        const summary = summarize(results, {
          maxWarnings,
          emptyInputs,
          allowEmpty: values['allow-empty'] === true,
        });
        const quiet = values.quiet === true;
        io.stdout(
          render(format, results, summary, {
            quiet,
            color: colorEnabled(io),
            lineText: lineReader(documents),
          }),
        );
        return succeeded(summary) ? 0 : 1;
      };
      // The service's rule-object checks come with the managed rulesets' catalogue: loaded only when a file
      // holds rule objects, so that checking expressions starts fast (issue 16).
      if (!entries.some((entry) => entry.object !== undefined)) return finish();
      return import('../../service/rules/check.js').then((module) => finish(module.checkRuleObject));
    });
  },
};

type RuleObjectCheck = typeof import('../../service/rules/check.js').checkRuleObject;

/**
 * What the API would refuse in the filter or rule around the entry's expression (the first problem, as the
 * API reports only that), checked by the service's own readers.
 */
function objectFindings(
  checkRuleObject: RuleObjectCheck,
  entry: ExpressionEntry,
  plan: Plan,
  phase: Phase | undefined,
): RuleFinding[] {
  const object = entry.object;
  if (object === undefined) return [];
  const { kind, value, pointer, index, rulesetKind } = object;
  const problem = checkRuleObject(kind, value, { plan, phase, pointer, index, rulesetKind });
  if (problem === undefined) return [];
  const field = problem.pointer
    .slice(pointer.length)
    .split('/')
    .slice(1)
    .map((segment) => segment.replaceAll('~1', '/').replaceAll('~0', '~'))
    .map((segment, i) => (/^\d+$/.test(segment) ? `[${segment}]` : i === 0 ? segment : `.${segment}`))
    .join('');
  return [{ ...problem, field, position: object.locate(problem.pointer) }];
}

/** The lines of the files read, as the positions of the report count them (after a byte order mark). */
function lineReader(documents: InputDocument[]): (path: string, line: number) => string | undefined {
  const files = new Map<string, string[]>();
  for (const document of documents)
    if (document.path !== undefined)
      files.set(document.path, document.text.replace(/^\uFEFF/, '').split('\n'));
  return (path, line) => files.get(path)?.[line - 1];
}

/** `--list NAME=KIND` options: the custom lists the expressions may use. */
function declaredLists(options: string[]): Record<string, ListKind> {
  const lists: Record<string, ListKind> = Object.create(null); // names are the user's: no prototype
  for (const item of options) {
    const match = /^\$?([^=]+)=(.*)$/.exec(item);
    const kind = match?.[2].trim().toLowerCase() as ListKind;
    if (!match || !LIST_KINDS.includes(kind))
      throw new UsageError(
        `--list expects NAME=KIND with KIND one of ${LIST_KINDS.join(', ')}, got '${item}'`,
      );
    lists[match[1].trim()] = kind;
  }
  return lists;
}

/** The phase a rule file implies; one that cfrules does not know is reported once, then ignored. */
function entryPhase(entry: ExpressionEntry, warned: Set<string>, io: CliIo): Phase | undefined {
  if (entry.phase === undefined) return undefined;
  const phase = parsePhase(entry.phase);
  if (!phase && !warned.has(entry.source)) {
    warned.add(entry.source);
    io.stderr(
      commandMessage(
        'validate',
        `${entry.source}: unknown phase '${entry.phase}'; its rules are checked without phase restrictions ` +
          '(use --phase to choose one)',
      ),
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
      commandMessage(
        'validate',
        `note: '${candidate}' was checked as an expression; to check the file, use --file ${candidate}`,
      ),
    );
  }
}
