import { LINTS, type LintCode } from '../check/lints.js';
import { CODES, type Layer, MESSAGES, type MessageId, templateText } from '../lang/catalogue.js';
import { type Diagnostic, FRAME_WIDTH, formatDiagnostic, type Severity } from '../lang/diagnostics.js';
import { escapeControlCharacters } from '../lang/escape.js';
import type { CliIo } from './command.js';
import { fileOfInput } from './files.js';
import { escapeData, escapeProperty } from './github.js';
import { plural } from './plural.js';
import type { ExpressionEntry, Position } from './rule-files.js';
import { type SarifLevel, type SarifRun, sarifLog, utf16Column } from './sarif.js';

/** The outcome of validating one expression (and, for JSON files, the rule object around it). */
export interface CheckedExpression {
  entry: ExpressionEntry;
  /** The phase it was checked for, if any. */
  phase?: string;
  ok: boolean;
  diagnostics: Diagnostic[];
  /** What the API would refuse in the rule around the expression (its action, products…); always errors. */
  ruleFindings?: RuleFinding[];
  /**
   * Why the expression was not checked (Terraform computes it): a warning, `unchecked-expression`, and the
   * expression is counted apart, neither valid nor invalid.
   */
  unchecked?: string;
}

/** The code of the warning about an expression that cannot be checked. */
export const UNCHECKED = 'unchecked-expression';

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
  /** Expressions that could not be checked (computed by Terraform); each is also a warning. */
  unchecked: number;
  errors: number;
  warnings: number;
  /** The `--max-warnings` limit, null when unlimited. */
  maxWarnings: number | null;
  /** The files (or standard input) that held no expression: a failure unless `--allow-empty`. */
  emptyInputs: string[];
  /** `--allow-empty`: an input without expressions is only a warning. */
  allowEmpty: boolean;
}

export const FORMATS = ['text', 'json', 'github', 'sarif'] as const;
export type Format = (typeof FORMATS)[number];

export interface ReportOptions {
  /** Only errors: no warnings or notes, and (text, github) no summary line. */
  quiet: boolean;
  /** ANSI colours in the text format. */
  color: boolean;
  /** The text of a line of a file (SARIF counts columns in UTF-16 code units, cfrules in UTF-8 bytes). */
  lineText?: (path: string, line: number) => string | undefined;
}

export function summarize(
  results: CheckedExpression[],
  limits: Pick<Summary, 'maxWarnings' | 'emptyInputs' | 'allowEmpty'>,
): Summary {
  const ruleErrors = results.reduce((n, r) => n + (r.ruleFindings?.length ?? 0), 0);
  const count = (severity: Severity) =>
    results.reduce((n, r) => n + r.diagnostics.filter((d) => d.severity === severity).length, 0);
  const unchecked = results.filter((r) => r.unchecked !== undefined).length;
  const valid = results.filter((r) => r.ok && r.unchecked === undefined).length;
  return {
    expressions: results.length,
    valid,
    invalid: results.length - valid - unchecked,
    unchecked,
    errors: count('error') + ruleErrors,
    warnings: count('warning') + unchecked,
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
  if (format === 'sarif') return renderSarif(results, summary, shown, options);
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
    `${summary.unchecked > 0 ? `${summary.unchecked} unchecked, ` : ''}${plural(summary.warnings, 'warning')}\n`
  );
}

/**
 * What validate, replay and test say of an input that held nothing to work on (`thing`: an expression, a
 * request, a test file): an error, so that a CI job does not pass on nothing, or with `--allow-empty` a
 * warning, in the same words for all three.
 */
export const emptyInputMessage = (thing: string): string =>
  `no ${thing} in this input (--allow-empty accepts that)`;

export function emptyInputLine(name: string, thing: string, allowEmpty: boolean): string {
  const severity = allowEmpty ? 'warning' : 'error';
  return `${escapeControlCharacters(name)}: ${severity}[empty-input]: ${emptyInputMessage(thing)}\n`;
}

function emptyInputLines(summary: Summary): string {
  return summary.emptyInputs.map((name) => emptyInputLine(name, 'expression', summary.allowEmpty)).join('');
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
  for (const { entry, diagnostics, ruleFindings = [], unchecked } of results) {
    for (const diagnostic of diagnostics.filter(shown))
      out += formatFinding(entry, diagnostic, options.color);
    for (const finding of ruleFindings) out += formatRuleFinding(entry, finding, options.color);
    if (unchecked !== undefined && !options.quiet) out += formatUnchecked(entry, unchecked, options.color);
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

/** An expression that was not checked, for people: the location line, what it is, and why. */
function formatUnchecked(entry: ExpressionEntry, message: string, color: boolean): string {
  const paint = (code: string, text: string) => (color ? `${code}${text}${ansi.reset}` : text);
  const { line, column } = entry.locate(0);
  const label = ruleLabel(entry);
  let out = `${paint(ansi.bold, `${escapeControlCharacters(entry.source)}:${line}:${column}:`)} `;
  out += paint(severityColors.warning, `warning[${UNCHECKED}]`);
  out += label ? ` (${escapeControlCharacters(label)})\n` : '\n';
  out += `${escapeControlCharacters(entry.expression.split('\n')[0] ?? '')}${entry.expression.includes('\n') ? ' …' : ''}\n`;
  return `${out}${paint(severityColors.warning, escapeControlCharacters(message))}\n`;
}

/** The warning about an expression that was not checked, in JSON reports. */
function jsonUnchecked(entry: ExpressionEntry, message: string) {
  const from = entry.locate(0);
  const to = entry.locate(entry.expression.length);
  return {
    severity: 'warning',
    code: UNCHECKED,
    message,
    line: from.line,
    column: from.column,
    endLine: to.line,
    endColumn: to.column,
    formatted: `${message}\n`,
  };
}

function renderJson(
  results: CheckedExpression[],
  summary: Summary,
  shown: (d: Diagnostic) => boolean,
): string {
  const report = {
    ok: succeeded(summary),
    summary,
    results: results.map(({ entry, phase, ok, diagnostics, ruleFindings = [], unchecked }) => {
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
        ...(unchecked === undefined ? {} : { unchecked: true }),
        diagnostics: [
          ...diagnostics.filter(shown).map((diagnostic) => jsonDiagnostic(entry, diagnostic)),
          ...ruleFindings.map(jsonRuleFinding),
          ...(unchecked === undefined || !shown({ severity: 'warning' } as Diagnostic)
            ? []
            : [jsonUnchecked(entry, unchecked)]),
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

const githubCommands: Record<Severity, string> = { error: 'error', warning: 'warning', info: 'notice' };

/** A finding as the CI formats show it: where it is in the input, and its text with the hint. */
interface LocatedFinding {
  entry: ExpressionEntry;
  severity: Severity;
  code: string;
  from: Position;
  to: Position;
  text: string;
}

/** Every finding shown, diagnostics and rule objects' problems, in report order. */
function locatedFindings(results: CheckedExpression[], shown: (d: Diagnostic) => boolean): LocatedFinding[] {
  return results.flatMap(({ entry, diagnostics, ruleFindings = [], unchecked }) => [
    ...diagnostics.filter(shown).map((diagnostic) => ({
      entry,
      severity: diagnostic.severity,
      code: diagnostic.code,
      from: entry.locate(diagnostic.span.start),
      to: entry.locate(Math.max(diagnostic.span.start, diagnostic.span.end)),
      text: diagnostic.message + (diagnostic.hint ? `\nhint: ${diagnostic.hint}` : ''),
    })),
    ...ruleFindings.map((finding) => ({
      entry,
      severity: 'error' as const,
      code: finding.code,
      from: finding.position,
      to: finding.position,
      text: ruleFindingText(finding),
    })),
    ...(unchecked === undefined || !shown({ severity: 'warning' } as Diagnostic)
      ? []
      : [
          {
            entry,
            severity: 'warning' as const,
            code: UNCHECKED,
            from: entry.locate(0),
            to: entry.locate(entry.expression.length),
            text: unchecked,
          },
        ]),
  ]);
}

/**
 * The message of a finding where it is shown on a file: the rule first, for JSON files. Without a file
 * (an argument, standard input) it cannot point anywhere: the input and position come first.
 */
function locatedMessage({ entry, from, text }: LocatedFinding): string {
  let message = entry.path === undefined ? `${entry.source}:${from.line}:${from.column}: ` : '';
  const label = ruleLabel(entry);
  if (label) message += `${label}: `;
  return message + text;
}

function renderGithub(
  results: CheckedExpression[],
  summary: Summary,
  shown: (d: Diagnostic) => boolean,
  options: ReportOptions,
): string {
  let out = '';
  for (const finding of locatedFindings(results, shown)) {
    const { entry, from, to } = finding;
    const properties = [
      ...(entry.path === undefined ? [] : [`file=${escapeProperty(entry.path)}`]),
      `line=${from.line}`,
      `col=${from.column}`,
      `endLine=${to.line}`,
      `endColumn=${to.column}`,
      `title=${escapeProperty(`cfrules ${finding.code}`)}`,
    ];
    out += `::${githubCommands[finding.severity]} ${properties.join(',')}::${escapeData(locatedMessage(finding))}\n`;
  }
  for (const name of summary.emptyInputs) {
    const file = fileOfInput(name);
    const where = file === undefined ? '' : `file=${escapeProperty(file)},`;
    const message = `${file === undefined ? `${name}: ` : ''}${emptyInputMessage('expression')}`;
    out += `::${summary.allowEmpty ? 'warning' : 'error'} ${where}title=cfrules empty-input::${escapeData(message)}\n`;
  }
  if (options.quiet) return out + warningLimitLine(summary);
  return out + summaryLine(summary) + warningLimitLine(summary);
}

const sarifLevels: Record<Severity, SarifLevel> = { error: 'error', warning: 'warning', info: 'note' };

/**
 * SARIF: a result per finding, located in its file with SARIF's UTF-16 columns (converted from cfrules'
 * UTF-8 ones on the line's text), and one per input without expressions; too many warnings is a
 * notification of the run. Findings of expressions given as arguments have no location.
 */
function renderSarif(
  results: CheckedExpression[],
  summary: Summary,
  shown: (d: Diagnostic) => boolean,
  options: ReportOptions,
): string {
  const column = (path: string, position: Position) => {
    const line = options.lineText?.(path, position.line);
    return line === undefined ? position.column : utf16Column(line, position.column);
  };
  const sarifResults: SarifRun['results'] = locatedFindings(results, shown).map((finding) => {
    const { entry, from, to } = finding;
    const path = entry.path;
    const location = path && {
      file: path,
      region: {
        startLine: from.line,
        startColumn: column(path, from),
        endLine: to.line,
        endColumn: column(path, to),
      },
    };
    return {
      ruleId: finding.code,
      level: sarifLevels[finding.severity],
      message: locatedMessage(finding),
      ...(location ? { location } : {}),
    };
  });
  for (const name of summary.emptyInputs) {
    const file = fileOfInput(name);
    sarifResults.push({
      ruleId: 'empty-input',
      level: summary.allowEmpty ? 'warning' : 'error',
      message: `${file === undefined ? `${name}: ` : ''}${emptyInputMessage('expression')}`,
      ...(file === undefined ? {} : { location: { file } }),
    });
  }
  const limit = warningLimitLine(summary).trim();
  return sarifLog({
    results: sarifResults,
    describe: describeCode,
    notifications: limit ? [{ level: 'error', message: limit }] : [],
    executionSuccessful: true,
  });
}

/** What a code of `cfrules validate` is about, in a few words, for SARIF's rule descriptions. */
export function describeCode(code: string): string {
  if (code === 'empty-input') return 'An input holds no expression';
  if (code === UNCHECKED) return 'An expression Terraform computes, which cannot be checked before it runs';
  if (code in LINTS) return `Lint: ${LINTS[code as LintCode]}`;
  const known = (CODES as Record<string, { layer: Layer; messages: readonly MessageId[] }>)[code];
  const words = code.replaceAll('-', ' ');
  if (!known) return `The API refuses the rule: ${words}`;
  // A code with one fixed message says it best; the others are named by their code.
  const [only, ...others] = known.messages;
  const message = only !== undefined && others.length === 0 ? templateText(MESSAGES[only]) : undefined;
  const what = message !== undefined && !message.includes('{') ? message : words;
  return `${layerWords[known.layer]}: ${what}`;
}

const layerWords: Record<Layer, string> = {
  parser: 'Syntax error',
  checker: 'Type error',
  profile: 'Not allowed in this plan or phase',
  lint: 'Lint',
  input: 'Input error',
  compile: 'Cannot be evaluated',
};
