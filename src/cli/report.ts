import { type Diagnostic, FRAME_WIDTH, formatDiagnostic, type Severity } from '../lang/diagnostics.js';
import { escapeControlCharacters } from '../lang/escape.js';
import type { CliIo } from './command.js';
import { plural } from './plural.js';
import type { ExpressionEntry, Position } from './rule-files.js';

/** The outcome of validating one expression (and, for JSON files, the rule object around it). */
export interface CheckedExpression {
  entry: ExpressionEntry;
  /** The phase it was checked for, if any. */
  phase?: string;
  ok: boolean;
  diagnostics: Diagnostic[];
  /** What the API would refuse in the rule around the expression (its action, products…); always errors. */
  ruleFindings?: RuleFinding[];
}

/** A problem of a rule object, in the API's words, at its place in the file. */
export interface RuleFinding {
  /** A stable name: `action-not-entitled`, `invalid-action`, `products-required`… */
  code: string;
  /** The code the API answers with (10204…). */
  apiCode: number;
  /** The API's message. */
  message: string;
  /** Where, as a JSON pointer into the file's document (`/result/0/action`). */
  pointer: string;
  /** Where in the rule, as a path: `action`, `action_parameters.id`, `filter.description`. */
  field: string;
  /** The position in the file of the value at `pointer` (of its object when it is missing). */
  position: Position;
}

/** The findings about rule objects, as one line of text: `Rule error (10204) at action: …`. */
const ruleFindingText = (finding: RuleFinding): string =>
  `Rule error (${finding.apiCode}) at ${finding.field || 'the rule'}: ${finding.message}`;

export interface Summary {
  expressions: number;
  valid: number;
  invalid: number;
  errors: number;
  warnings: number;
  /** The `--max-warnings` limit, null when unlimited. */
  maxWarnings: number | null;
  /** The files (or standard input) that held no expression: a failure unless `--allow-empty`. */
  emptyInputs: string[];
  /** `--allow-empty`: an input without expressions is only a warning. */
  allowEmpty: boolean;
}

export const FORMATS = ['text', 'json', 'github'] as const;
export type Format = (typeof FORMATS)[number];

export interface ReportOptions {
  /** Only errors: no warnings or notes, and (text, github) no summary line. */
  quiet: boolean;
  /** ANSI colours in the text format. */
  color: boolean;
}

export function summarize(
  results: CheckedExpression[],
  limits: Pick<Summary, 'maxWarnings' | 'emptyInputs' | 'allowEmpty'>,
): Summary {
  const ruleErrors = results.reduce((n, r) => n + (r.ruleFindings?.length ?? 0), 0);
  const count = (severity: Severity) =>
    results.reduce((n, r) => n + r.diagnostics.filter((d) => d.severity === severity).length, 0);
  const valid = results.filter((r) => r.ok).length;
  return {
    expressions: results.length,
    valid,
    invalid: results.length - valid,
    errors: count('error') + ruleErrors,
    warnings: count('warning'),
    ...limits,
  };
}

export const tooManyWarnings = (summary: Summary): boolean =>
  summary.maxWarnings !== null && summary.warnings > summary.maxWarnings;

const failsOnEmpty = (summary: Summary): boolean => summary.emptyInputs.length > 0 && !summary.allowEmpty;

/**
 * Success means every expression is valid, the warnings stay within `--max-warnings`, and every input held
 * an expression: a rules file emptied by mistake must not pass a CI job on nothing.
 */
export const succeeded = (summary: Summary): boolean =>
  summary.invalid === 0 && !tooManyWarnings(summary) && !failsOnEmpty(summary);

export function render(
  format: Format,
  results: CheckedExpression[],
  summary: Summary,
  options: ReportOptions,
) {
  const shown = (d: Diagnostic) => !options.quiet || d.severity === 'error';
  if (format === 'json') return renderJson(results, summary, shown);
  if (format === 'github') return renderGithub(results, summary, shown, options);
  return renderText(results, summary, shown, options);
}

/**
 * Colours for the text format: on when standard output is a terminal, unless NO_COLOR is set (to anything
 * but the empty string) or TERM is `dumb`; FORCE_COLOR overrides both (`0` or `false` turns colours off).
 */
export function colorEnabled(io: CliIo): boolean {
  const env = io.env ?? {};
  const force = env.FORCE_COLOR;
  if (force !== undefined && force !== '') return force !== '0' && force !== 'false';
  if (env.NO_COLOR) return false;
  if (env.TERM === 'dumb') return false;
  return io.isTTY === true;
}

const severityWords: Record<Severity, string> = { error: 'error', warning: 'warning', info: 'note' };

const ansi = { reset: '\x1b[0m', bold: '\x1b[1m', dim: '\x1b[2m', red: '\x1b[31m', yellow: '\x1b[33m' };
const severityColors: Record<Severity, string> = { error: ansi.red, warning: ansi.yellow, info: ansi.bold };

/** `rule ID "description"`, plus the field for expressions other than the rule's filter. */
export function ruleLabel(entry: ExpressionEntry): string {
  if (entry.rule === undefined) return '';
  let label = `${entry.item ?? 'rule'} ${entry.rule}`;
  if (entry.description !== undefined) label += ` ${JSON.stringify(entry.description)}`;
  if (entry.kind === 'rewrite' && entry.field) label += `, ${entry.field}`;
  return label;
}

function summaryLine(summary: Summary): string {
  return (
    `${plural(summary.expressions, 'expression')} checked: ${summary.valid} valid, ${summary.invalid} invalid, ` +
    `${plural(summary.warnings, 'warning')}\n`
  );
}

const emptyInputMessage = 'no expression in this input (--allow-empty accepts that)';

function emptyInputLines(summary: Summary): string {
  const severity = summary.allowEmpty ? 'warning' : 'error';
  return summary.emptyInputs
    .map((name) => `${escapeControlCharacters(name)}: ${severity}[empty-input]: ${emptyInputMessage}\n`)
    .join('');
}

function warningLimitLine(summary: Summary): string {
  return tooManyWarnings(summary)
    ? `too many warnings: ${summary.warnings}, more than --max-warnings ${summary.maxWarnings}\n`
    : '';
}

function renderText(
  results: CheckedExpression[],
  summary: Summary,
  shown: (d: Diagnostic) => boolean,
  options: ReportOptions,
): string {
  let out = '';
  for (const { entry, diagnostics, ruleFindings = [] } of results) {
    for (const diagnostic of diagnostics.filter(shown))
      out += formatFinding(entry, diagnostic, options.color);
    for (const finding of ruleFindings) out += formatRuleFinding(entry, finding, options.color);
  }
  out += emptyInputLines(summary);
  if (options.quiet) return out + warningLimitLine(summary);
  return `${out}${out ? '\n' : ''}${summaryLine(summary)}${warningLimitLine(summary)}`;
}

/**
 * A code frame for people on a terminal: Cloudflare's, with control characters escaped (the carets moved
 * with them) and, on a line longer than FRAME_WIDTH characters, a window around the caret with `…` where
 * the line is cut, as the API shows it: a minified rule or a binary file read as text stays a few lines.
 */
export const terminalFrame = (source: string, diagnostic: Diagnostic): string =>
  formatDiagnostic(source, diagnostic, { escapeControls: true, maxWidth: FRAME_WIDTH });

/**
 * One finding for people, the same in every command: the location line `PATH:LINE:COLUMN:
 * SEVERITY[CODE]` (and the rule, for JSON files), Cloudflare's text, and the hint. User text is shown with
 * its control characters escaped.
 */
export function formatFinding(entry: ExpressionEntry, diagnostic: Diagnostic, color = false): string {
  const paint = (code: string, text: string) => (color ? `${code}${text}${ansi.reset}` : text);
  const { line, column } = entry.locate(diagnostic.span.start);
  const tint = severityColors[diagnostic.severity];
  const label = ruleLabel(entry);
  let out = `${paint(ansi.bold, `${escapeControlCharacters(entry.source)}:${line}:${column}:`)} `;
  out += paint(tint, `${severityWords[diagnostic.severity]}[${diagnostic.code}]`);
  out += label ? ` (${escapeControlCharacters(label)})\n` : '\n';
  // Cloudflare's text: the header, the source line, then the carets and the message (which may span
  // several lines, as regex errors do).
  const [header, source, ...message] = terminalFrame(entry.expression, diagnostic).slice(0, -1).split('\n');
  out += `${paint(tint, header as string)}\n${source}\n${message.map((text) => `${paint(tint, text)}\n`).join('')}`;
  if (diagnostic.hint) out += `${paint(ansi.dim, `hint: ${escapeControlCharacters(diagnostic.hint)}`)}\n`;
  return out;
}

/** A rule finding for people: the location line, as for expressions, then the API's message. */
function formatRuleFinding(entry: ExpressionEntry, finding: RuleFinding, color: boolean): string {
  const paint = (code: string, text: string) => (color ? `${code}${text}${ansi.reset}` : text);
  const { line, column } = finding.position;
  let out = `${paint(ansi.bold, `${escapeControlCharacters(entry.source)}:${line}:${column}:`)} `;
  out += paint(severityColors.error, `error[${finding.code}]`);
  out += ` (${escapeControlCharacters(ruleLabel(entry))})\n`;
  return `${out}${paint(severityColors.error, escapeControlCharacters(ruleFindingText(finding)))}\n`;
}

function renderJson(
  results: CheckedExpression[],
  summary: Summary,
  shown: (d: Diagnostic) => boolean,
): string {
  const report = {
    ok: succeeded(summary),
    summary,
    results: results.map(({ entry, phase, ok, diagnostics, ruleFindings = [] }) => {
      const start = entry.locate(0);
      return {
        source: entry.source,
        item: entry.item ?? null,
        rule: entry.rule ?? null,
        description: entry.description ?? null,
        field: entry.field ?? null,
        kind: entry.kind,
        phase: phase ?? null,
        line: start.line,
        column: start.column,
        expression: entry.expression,
        ok,
        diagnostics: [
          ...diagnostics.filter(shown).map((diagnostic) => jsonDiagnostic(entry, diagnostic)),
          ...ruleFindings.map(jsonRuleFinding),
        ],
      };
    }),
  };
  return `${JSON.stringify(report, null, 2)}\n`;
}

/** A finding in JSON reports (validate, eval), positioned in the input as in the text format. */
export function jsonDiagnostic(entry: ExpressionEntry, diagnostic: Diagnostic) {
  const from = entry.locate(diagnostic.span.start);
  const to = entry.locate(Math.max(diagnostic.span.start, diagnostic.span.end));
  return {
    severity: diagnostic.severity,
    code: diagnostic.code,
    message: diagnostic.message,
    line: from.line,
    column: from.column,
    endLine: to.line,
    endColumn: to.column,
    ...(diagnostic.hint === undefined ? {} : { hint: diagnostic.hint }),
    formatted: formatDiagnostic(entry.expression, diagnostic),
  };
}

/** A rule finding in JSON reports: the fields of the others, plus where (pointer) and the API's code. */
function jsonRuleFinding(finding: RuleFinding) {
  const { line, column } = finding.position;
  return {
    severity: 'error',
    code: finding.code,
    message: finding.message,
    line,
    column,
    endLine: line,
    endColumn: column,
    pointer: finding.pointer,
    apiCode: finding.apiCode,
    formatted: `${ruleFindingText(finding)}\n`,
  };
}

/**
 * GitHub's workflow-command escaping: data escapes `%`, CR and LF; properties also `:` and `,`. The log
 * shows the commands on a terminal-like page, so control characters are escaped first.
 */
export const escapeData = (text: string) =>
  escapeControlCharacters(text).replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
export const escapeProperty = (text: string) => escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');

const githubCommands: Record<Severity, string> = { error: 'error', warning: 'warning', info: 'notice' };

function renderGithub(
  results: CheckedExpression[],
  summary: Summary,
  shown: (d: Diagnostic) => boolean,
  options: ReportOptions,
): string {
  let out = '';
  const annotate = (
    entry: ExpressionEntry,
    severity: Severity,
    code: string,
    [from, to]: [Position, Position],
    text: string,
  ) => {
    const properties = [
      ...(entry.path === undefined ? [] : [`file=${escapeProperty(entry.path)}`]),
      `line=${from.line}`,
      `col=${from.column}`,
      `endLine=${to.line}`,
      `endColumn=${to.column}`,
      `title=${escapeProperty(`cfrules ${code}`)}`,
    ];
    // Without a file the annotation cannot point anywhere: name the input in the message instead.
    let message = entry.path === undefined ? `${entry.source}:${from.line}:${from.column}: ` : '';
    const label = ruleLabel(entry);
    if (label) message += `${label}: `;
    out += `::${githubCommands[severity]} ${properties.join(',')}::${escapeData(message + text)}\n`;
  };
  for (const { entry, diagnostics, ruleFindings = [] } of results) {
    for (const diagnostic of diagnostics.filter(shown)) {
      const from = entry.locate(diagnostic.span.start);
      const to = entry.locate(Math.max(diagnostic.span.start, diagnostic.span.end));
      const hint = diagnostic.hint ? `\nhint: ${diagnostic.hint}` : '';
      annotate(entry, diagnostic.severity, diagnostic.code, [from, to], diagnostic.message + hint);
    }
    for (const finding of ruleFindings)
      annotate(entry, 'error', finding.code, [finding.position, finding.position], ruleFindingText(finding));
  }
  for (const name of summary.emptyInputs) {
    const where = name.startsWith('<') ? '' : `file=${escapeProperty(name)},`;
    const message = `${where ? '' : `${name}: `}${emptyInputMessage}`;
    out += `::${summary.allowEmpty ? 'warning' : 'error'} ${where}title=cfrules empty-input::${escapeData(message)}\n`;
  }
  if (options.quiet) return out + warningLimitLine(summary);
  return out + summaryLine(summary) + warningLimitLine(summary);
}
