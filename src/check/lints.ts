import type { Span } from '../lang/ast.js';
import {
  type Diagnostic,
  type DiagnosticCode,
  diagnostic,
  hint,
  message,
  type Report,
} from '../lang/catalogue.js';
import { formatIp } from '../scheme/ip.js';
import { textOf } from '../scheme/values.js';
import type { TypedComparison, TypedExpression, TypedRhs, TypedValue } from './typed-ast.js';
import { walkTyped } from './walk.js';

/**
 * Lints: warnings about expressions that are valid but almost certainly not what the author meant. Each
 * has a stable code and can be turned off (docs/language.md, "Lints").
 */
export const LINTS = {
  'deprecated-field': 'a deprecated field, with its replacement',
  'uppercase-header-key': 'an upper-case header name as a map key: keys are lower-case, so it never matches',
  'contains-wildcard': '`contains` with `*`, which is not a wildcard there',
  'impossible-comparison': "a comparison that is never true given the field's documented values",
  'duplicate-set-item': 'the same item twice in a set',
  'case-mismatch':
    'a comparison with upper-case letters against a value Cloudflare lower-cases (or vice versa)',
  // Reported by the type checker, which sees patterns as it reads them; listed here to be turned off alike.
  'regex-unsupported': 'a regex Cloudflare accepts but cfrules cannot evaluate (RE2 lacks the feature)',
} as const satisfies Partial<Record<DiagnosticCode, string>>;

export type LintCode = keyof typeof LINTS;

/** A lint's warning: one of its code's messages over `span`, with a hint where it has one. */
type Warn = Report<LintCode>;

/** Header maps whose keys Cloudflare lower-cases. */
const LOWER_CASE_KEY_MAPS = new Set(['http.request.headers', 'http.response.headers']);

const hasUpper = (text: string) => /[A-Z]/.test(text);
const hasLower = (text: string) => /[a-z]/.test(text);
/** Binary string (UTF-8 bytes) → text, for messages. */
const display = (bytes: string) => JSON.stringify(textOf(bytes));

/**
 * The warnings for a typed tree, in the order of the text. `spanAt` turns offsets into a span (lints
 * sometimes point at part of a node).
 */
export function lint(
  ast: TypedExpression,
  enabled: (code: LintCode) => boolean,
  spanAt: (start: number, end: number) => Span,
): Diagnostic[] {
  const warnings: Diagnostic[] = [];
  const warn: Warn = (code, text, span, why) => {
    if (enabled(code)) warnings.push(diagnostic(code, text, span, why));
  };

  walkTyped(ast, (node) => {
    if (node.kind === 'field') {
      const replacement = node.definition.deprecated?.replacement;
      if (replacement)
        warn(
          'deprecated-field',
          message('deprecatedField', { name: node.name, replacement }),
          node.span,
          hint('replaceWith', { replacement }),
        );
    } else if (node.kind === 'index' && node.index.kind === 'map-key') {
      const target = node.target;
      if (target.kind === 'field' && LOWER_CASE_KEY_MAPS.has(target.name) && hasUpper(node.index.key))
        warn(
          'uppercase-header-key',
          message('headerKeyIndex', { map: target.name, key: display(node.index.key) }),
          spanAt(target.span.end, node.span.end),
          hint('write', { value: display(node.index.key.toLowerCase()) }),
        );
    } else if (node.kind === 'call' && node.name === 'has_key') {
      const [map, key] = node.args;
      if (map?.kind === 'field' && LOWER_CASE_KEY_MAPS.has(map.name) && key?.kind === 'literal') {
        const name = key.value as string;
        if (typeof name === 'string' && hasUpper(name))
          warn(
            'uppercase-header-key',
            message('headerKeyArgument', { map: map.name, key: display(name) }),
            key.span,
            hint('write', { value: display(name.toLowerCase()) }),
          );
      }
    } else if (node.kind === 'comparison') {
      lintComparison(node, warn);
    }
  });
  return warnings;
}

function lintComparison(node: TypedComparison, warn: Warn): void {
  const { lhs, rhs } = node;
  if (node.op === 'contains' && rhs.kind === 'bytes' && rhs.value.includes('*'))
    warn('contains-wildcard', message('containsStar'), rhs.span);
  lintDuplicates(rhs, warn);
  lintDomain(node, lhs, warn);
}

function lintDuplicates(rhs: TypedRhs, warn: Warn): void {
  const seen = new Set<string>();
  const items: { key: string; text: string; span: Span }[] =
    rhs.kind === 'bytes-set'
      ? rhs.items.map((item) => ({ key: item.value, text: display(item.value), span: item.span }))
      : rhs.kind === 'int-set'
        ? rhs.items.map((item) => ({
            key: `${item.from}..${item.to}`,
            text: `${item.from === item.to ? item.from : `${item.from}..${item.to}`}`,
            span: item.span,
          }))
        : rhs.kind === 'ip-set'
          ? rhs.items.map((item) => ({
              key: `${formatIp(item.from)}..${formatIp(item.to)}`,
              text:
                item.from.value === item.to.value
                  ? formatIp(item.from)
                  : `${formatIp(item.from)}..${formatIp(item.to)}`,
              span: item.span,
            }))
          : [];
  for (const item of items) {
    if (seen.has(item.key))
      warn('duplicate-set-item', message('duplicateItem', { item: item.text }), item.span);
    seen.add(item.key);
  }
}

/** The string values a comparison tests for equality (eq and in), if that is what it does. */
function equalityValues(node: TypedComparison): { value: string; span: Span }[] {
  if (node.op === 'eq' && node.rhs.kind === 'bytes') return [{ value: node.rhs.value, span: node.rhs.span }];
  if (node.op === 'in' && node.rhs.kind === 'bytes-set') return node.rhs.items;
  return [];
}

function lintDomain(node: TypedComparison, lhs: TypedValue, warn: Warn): void {
  if (lhs.kind === 'call' && (lhs.name === 'lower' || lhs.name === 'upper')) {
    const lower = lhs.name === 'lower';
    for (const { value, span } of equalityValues(node)) {
      if (lower ? hasUpper(value) : hasLower(value))
        warn(
          'case-mismatch',
          message('caseOfFunction', {
            name: lhs.name,
            case: lower ? 'lower' : 'upper',
            value: display(value),
          }),
          span,
          hint('write', { value: display(lower ? value.toLowerCase() : value.toUpperCase()) }),
        );
    }
    return;
  }
  if (lhs.kind !== 'field') return;
  const domain = lhs.definition.domain;
  if (!domain) return;
  const name = lhs.name;
  if (domain.case) {
    const upper = domain.case === 'upper';
    for (const { value, span } of equalityValues(node)) {
      if (upper ? !hasLower(value) : !hasUpper(value)) continue;
      const fixed = upper ? value.toUpperCase() : value.toLowerCase();
      // Upper-case fields (methods, country codes) are written so by definition; lower-cased ones are
      // normalised by Cloudflare, which users easily forget.
      const text = message('caseOfField', { name, case: domain.case, value: display(value) });
      const why = hint('write', { value: display(fixed) });
      if (upper) warn('impossible-comparison', text, span, why);
      else warn('case-mismatch', text, span, why);
    }
  }
  if (domain.values) {
    for (const { value, span } of equalityValues(node)) {
      if (!domain.values.includes(value))
        warn(
          'impossible-comparison',
          message('notOneOf', { name, values: domain.values.join(', '), value: display(value) }),
          span,
        );
    }
  }
  if (domain.min !== undefined && domain.max !== undefined) {
    const min = BigInt(domain.min);
    const max = BigInt(domain.max);
    const range =
      domain.min === domain.max ? `always ${domain.min}` : `between ${domain.min} and ${domain.max}`;
    const never = (span: Span) => warn('impossible-comparison', message('outOfRange', { name, range }), span);
    const { rhs } = node;
    if (rhs.kind === 'int') {
      const v = rhs.value;
      const impossible =
        (node.op === 'eq' && (v < min || v > max)) ||
        (node.op === 'lt' && v <= min) ||
        (node.op === 'le' && v < min) ||
        (node.op === 'gt' && v >= max) ||
        (node.op === 'ge' && v > max);
      if (impossible) never(node.span);
    } else if (rhs.kind === 'int-set' && rhs.items.length > 0) {
      if (rhs.items.every((item) => item.to < min || item.from > max)) never(node.span);
    }
  }
}
