import type { TypedExpression, TypedValue } from '../check/typed-ast.js';
import { walkTyped } from '../check/walk.js';
import type { Span } from '../lang/ast.js';
import { escapeControlCharacters } from '../lang/escape.js';
import { formatIp } from '../scheme/ip.js';
import { cloudflareScheme } from '../scheme/scheme.js';
import { textOf, type Value } from '../scheme/values.js';
import { compileNode, compileValue, type NodeCompileOptions } from './compile.js';
import { layoutFor, type RequestContext } from './context.js';

/**
 * Why an expression matched or not: every sub-expression with its result and the field values it read.
 * Operands that short-circuit evaluation did not need are marked `skipped`, as the engine never ran them.
 */
export interface Explanation {
  /** The sub-expression as written. */
  text: string;
  span: Span;
  result: boolean | boolean[] | 'missing' | 'skipped';
  /**
   * For a rewrite expression, the value it yields, written as `describeValue` writes it (strings quoted,
   * `missing` when it yields none); `result` then says whether it yields one.
   */
  value?: string;
  /** The fields a comparison or predicate read, with their values (missing ones included). */
  fields: { name: string; value: string }[];
  children: Explanation[];
}

/** The options the expression was compiled with, so that each part is run as the filter runs it. */
export interface ExplainOptions extends NodeCompileOptions {
  /** `rewrite` explains a rewrite expression (its value); `filter` by default. */
  expression?: 'filter' | 'rewrite';
}

export function explain(
  source: string,
  ast: TypedExpression,
  ctx: RequestContext,
  options: ExplainOptions = {},
): Explanation {
  const scheme = options.scheme ?? cloudflareScheme;
  const layout = layoutFor(scheme);

  const fieldsOf = (value: TypedValue) => {
    const names = new Set<string>();
    walkTyped(value, (node) => {
      if (node.kind === 'field') names.add(node.name);
    });
    return [...names].map((name) => ({ name, value: describeValue(ctx.get(layout.slotOf(name))) }));
  };

  const visit = (node: TypedExpression, skipped: boolean): Explanation => {
    const text = source.slice(node.span.start, node.span.end);
    const result = skipped ? 'skipped' : (compileNode(node, options)(ctx) ?? 'missing');
    const fields =
      skipped || (node.kind !== 'comparison' && node.kind !== 'predicate')
        ? []
        : fieldsOf(node.kind === 'comparison' ? node.lhs : node.value);
    let children: Explanation[] = [];
    if (node.kind === 'not' || node.kind === 'quantifier') children = [visit(node.operand, skipped)];
    if (node.kind === 'logical') {
      // `and` stops at the first false operand, `or` at the first true one; `xor` needs them all.
      let done = skipped;
      children = node.operands.map((operand) => {
        const explained = visit(operand, done);
        if (node.type === 'Bool' && node.op !== 'xor' && explained.result === (node.op === 'or')) done = true;
        return explained;
      });
    }
    return { text, span: node.span, result, fields, children };
  };
  if (options.expression === 'rewrite' && ast.kind === 'predicate') {
    // A rewrite yields a value, not a condition: a Bool test of it would say `false` for "/v2/users".
    const value = compileValue(ast.value, options)(ctx);
    return { ...visit(ast, false), result: value !== undefined, value: describeValue(value) };
  }
  return visit(ast, false);
}

/** A value as the user would write it: strings quoted (as text), addresses in their usual form. */
export function describeValue(value: Value | undefined): string {
  if (value === undefined) return 'missing';
  if (typeof value === 'string') return JSON.stringify(textOf(value));
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `[${value.map(describeValue).join(', ')}]`;
  if (value instanceof Map)
    return `{${[...value].map(([key, item]) => `${JSON.stringify(textOf(key))}: ${describeValue(item)}`).join(', ')}}`;
  return formatIp(value as Parameters<typeof formatIp>[0]);
}

/**
 * The explanation as indented text, one sub-expression per line, for a terminal: control characters in
 * the expression and in field values are escaped.
 */
export function formatExplanation(explanation: Explanation, indent = ''): string {
  return escapeControlCharacters(explanationLines(explanation, indent));
}

function explanationLines(explanation: Explanation, indent: string): string {
  const result =
    explanation.value ??
    (Array.isArray(explanation.result) ? `[${explanation.result.join(', ')}]` : String(explanation.result));
  // The result column is six wide (`false `), wider for an array result; field values line up under the
  // expression text of their own line, two columns in.
  const column = `${result.padEnd(6)} `;
  const lines = [`${indent}${column}${explanation.text.replace(/\s+/g, ' ')}`];
  const fieldIndent = `${indent}${' '.repeat(column.length + 2)}`;
  for (const field of explanation.fields) lines.push(`${fieldIndent}${field.name} = ${field.value}`);
  for (const child of explanation.children) lines.push(explanationLines(child, `${indent}  `));
  return lines.join('\n');
}
