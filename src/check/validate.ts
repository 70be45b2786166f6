import { type Diagnostic, diagnostic, message } from '../lang/catalogue.js';
import { parse } from '../lang/parse.js';
import { spanOf } from '../lang/position.js';
import { PHASES, type Phase, PLANS, type Plan, parsePhase, parsePlan } from '../scheme/profile.js';
import { cloudflareScheme, type ListDefinition, type ListKind, type Scheme } from '../scheme/scheme.js';
import { TypeChecker } from './checker.js';
import { lint } from './lints.js';
import { checkProfile } from './profile-rules.js';
import type { TypedExpression } from './typed-ast.js';

export type { ListKind } from '../scheme/scheme.js';

/** What kind of expression is being checked: a rule's filter (Bool) or a rewrite value (Transform Rules). */
export type ExpressionKind = 'filter' | 'rewrite';

/** Cloudflare's limit on the length of a rule expression (the dashboard stops at 4,000). */
export const MAX_EXPRESSION_LENGTH = 4096;

export interface ValidateOptions {
  /** The zone's plan; without it, plan rules are not applied. */
  plan?: Plan;
  /** The phase (or `firewall_rules` for the legacy product); without it, phase rules are not applied. */
  phase?: Phase;
  /** The fields, functions and lists to check against; Cloudflare's by default. */
  scheme?: Scheme;
  /** Custom lists the expression may use with `in $name`, by name (without `$`). */
  lists?: Record<string, ListKind>;
  /** `filter` (default) or `rewrite`. */
  expression?: ExpressionKind;
  /** Maximum length in characters (default 4,096; Cloudflare's dashboard stops at 4,000). */
  maxLength?: number;
  /** Lint codes to turn off (`false`), or `false` to turn all lints off. */
  lints?: false | Record<string, boolean>;
  /**
   * The expression is a rule of one of Cloudflare's managed rulesets (cfrules' catalogue): it may use the
   * fields and functions only those rules may (`waf.*`, `waf_*`; docs/managed-rules.md).
   */
  managedRuleset?: boolean;
  /**
   * `false` takes every regex pattern as valid and runnable without checking it (parsing a pattern and
   * compiling it with RE2 are most of a check's cost): for the managed rulesets' catalogue, data shipped
   * with cfrules, whose tests check every pattern in full. Default true.
   */
  checkRegexes?: boolean;
}

export interface ValidateResult {
  /** No error-severity diagnostic (warnings do not make an expression invalid). */
  ok: boolean;
  /** Errors first (at most one, the first in the text, like Cloudflare), then warnings in text order. */
  diagnostics: Diagnostic[];
  /** The typed tree, when the expression is valid. */
  ast?: TypedExpression;
}

/** Checks an expression as Cloudflare would before accepting it, plus lints. Never throws. */
export function validate(source: string, options: ValidateOptions = {}): ValidateResult {
  const invalid = (diagnostic: Diagnostic): ValidateResult => ({ ok: false, diagnostics: [diagnostic] });
  const problem = inputProblem(source, options);
  if (problem) return invalid(problem);
  const profile = readProfile(source, options);
  if ('severity' in profile) return invalid(profile);
  const maxLength = options.maxLength ?? MAX_EXPRESSION_LENGTH;
  // A text has no more characters than UTF-16 units: only a longer one needs counting.
  if (source.length > maxLength) {
    const length = characterCount(source);
    if (length > maxLength) {
      // Report from the first character past the limit, in UTF-16 offsets.
      let offset = 0;
      for (let count = 0; count < maxLength; count++)
        offset += (source.codePointAt(offset) as number) > 0xffff ? 2 : 1;
      const text = message('tooLong', { length, limit: maxLength });
      return invalid(diagnostic('expression-too-long', text, spanOf(source, offset, source.length)));
    }
  }

  const scheme = options.scheme ?? cloudflareScheme;
  const expression = options.expression ?? 'filter';
  const checker = new TypeChecker(source, {
    scheme,
    lists: declaredLists(options.lists),
    expression,
    checkRegexes: options.checkRegexes !== false,
  });
  const parsed = parse(source, { hooks: checker });
  if (!parsed.ast) return invalid(parsed.diagnostics[0] as Diagnostic);
  const typed = checker.finish(parsed.ast);
  if ('severity' in typed) return invalid(typed);

  const diagnostics: Diagnostic[] = [];
  if (scheme.cloudflare) {
    // The fields one by one: spreading `profile` here took V8's slow path and cost more than the whole
    // parse and type check of a short expression (2.5 µs against 1.7).
    const error = checkProfile(typed, {
      plan: profile.plan,
      phase: profile.phase,
      expression,
      managedRuleset: options.managedRuleset === true,
    });
    if (error) diagnostics.push(error);
  }
  const lints = options.lints;
  if (lints !== false) {
    const enabled = (code: string) => lints?.[code] !== false;
    const spanAt = (start: number, end: number) => spanOf(source, start, end);
    const warnings = [...checker.warnings.filter((w) => enabled(w.code)), ...lint(typed, enabled, spanAt)];
    diagnostics.push(...warnings.sort((a, b) => a.span.start - b.span.start));
  }
  const ok = diagnostics.every((d) => d.severity !== 'error');
  return ok ? { ok, diagnostics, ast: typed } : { ok, diagnostics };
}

/**
 * JavaScript callers (and TypeScript ones, through `any`) may pass anything: a wrong kind of input is
 * answered with an `invalid-input` diagnostic that says what was expected, instead of a TypeError from
 * deep inside the checker.
 */
export function inputProblem(source: unknown, options: unknown): Diagnostic | undefined {
  const problem = (expected: string, value: unknown) => inputError(expected, value);
  if (typeof source !== 'string') return problem('the expression as a string', source);
  if (options === undefined) return undefined;
  if (!isRecord(options)) return problem('the options as an object', options);
  const { expression, maxLength, lists, lints } = options as ValidateOptions;
  if (expression !== undefined && expression !== 'filter' && expression !== 'rewrite')
    return problem('options.expression to be "filter" or "rewrite"', expression);
  if (maxLength !== undefined && !(typeof maxLength === 'number' && maxLength >= 0))
    // Infinity: no limit
    return problem('options.maxLength to be a number of characters', maxLength);
  if (lints !== undefined && lints !== false && !isRecord(lints))
    return problem('options.lints to be false or an object', lints);
  if (lists !== undefined) {
    if (!isRecord(lists)) return problem('options.lists to be an object', lists);
    for (const [name, kind] of Object.entries(lists))
      if (kind !== 'ip' && kind !== 'hostname' && kind !== 'asn')
        return problem(`the kind of list $${name} to be "ip", "hostname" or "asn"`, kind);
  }
  return undefined;
}

/** An `invalid-input` error at 1:1: expected `expected` (`options.lists to be an object`), got `value`. */
export function inputError(expected: string, value: unknown): Diagnostic {
  const span = { start: 0, end: 0, line: 1, column: 1 };
  return diagnostic('invalid-input', message('invalidInput', { expected, got: kindOf(value) }), span);
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** What a JavaScript value is, for messages: `undefined`, `a number (12)`, `an array`, `a Set`. */
export function kindOf(value: unknown): string {
  if (value === undefined || value === null) return String(value);
  if (typeof value === 'string')
    return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    return `${typeof value === 'boolean' ? 'a boolean' : 'a number'} (${String(value)})`;
  if (typeof value === 'function') return 'a function';
  if (Array.isArray(value)) return 'an array';
  const name = Object.getPrototypeOf(value)?.constructor?.name;
  return !name || name === 'Object' ? 'a plain object' : `a ${name}`;
}

/**
 * The plan and phase of the options, read as the CLI reads them (any case, phase aliases such as `filters`).
 * An unknown one is a single diagnostic of its own: checking fields against a phase that does not exist
 * would only give a misleading "not available in phase x" for every field.
 */
function readProfile(source: string, options: ValidateOptions): { plan?: Plan; phase?: Phase } | Diagnostic {
  const unknown = (what: 'plan' | 'phase', value: unknown, known: readonly string[]): Diagnostic => {
    const text = message('unknownOption', { what, value: JSON.stringify(value), known: known.join(', ') });
    return diagnostic(what === 'plan' ? 'unknown-plan' : 'unknown-phase', text, spanOf(source, 0, 0));
  };
  const { plan, phase } = options;
  const knownPlan = typeof plan === 'string' ? parsePlan(plan) : undefined;
  if (plan !== undefined && !knownPlan) return unknown('plan', plan, PLANS);
  const knownPhase = typeof phase === 'string' ? parsePhase(phase) : undefined;
  if (phase !== undefined && !knownPhase) return unknown('phase', phase, PHASES);
  return { plan: knownPlan, phase: knownPhase };
}

function declaredLists(lists: Record<string, ListKind> | undefined): Map<string, ListDefinition> | undefined {
  if (!lists) return undefined;
  return new Map(
    Object.entries(lists).map(([written, kind]) => {
      const name = written.replace(/^\$/, '');
      return [name, { name, kind }];
    }),
  );
}

/** Unicode characters (code points) in a string: a surrogate pair counts once. */
function characterCount(text: string): number {
  let count = text.length;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xdc00 && unit <= 0xdfff && i > 0) {
      const previous = text.charCodeAt(i - 1);
      if (previous >= 0xd800 && previous <= 0xdbff) count--;
    }
  }
  return count;
}
