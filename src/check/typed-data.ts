import type { Span } from '../lang/ast.js';
import type { Scheme } from '../scheme/scheme.js';
import type { TypedValue } from './typed-ast.js';

/**
 * A checked value (a field, a call, an index, with their literal arguments) written as JSON and read back
 * without the parser: the managed catalogue ships the typed trees of the ~400 values its index reads
 * (src/engine/managed/values.json), which a process loading the rulesets otherwise parsed and checked one
 * by one before its first answer (issue 22). The data is the tree without what JSON cannot hold or the
 * scheme gives back: a definition is found again by the field's or function's name, an integer is written
 * as `{ "int": "…" }`, and spans are left out (a value read from data stands for no text: its span is
 * empty).
 */
export type TypedValueData = unknown;

const NO_SPAN: Span = { start: 0, end: 0, line: 1, column: 1 };

/** The value as data; throws on what the data cannot hold (an address literal), which the caller keeps out. */
export function typedValueToData(value: TypedValue): TypedValueData {
  return JSON.parse(
    JSON.stringify(value, (key, item: unknown) => {
      if (key === 'definition' || key === 'span') return undefined;
      if (typeof item === 'bigint') return { int: item.toString() };
      if (ArrayBuffer.isView(item)) throw new Error('typedValueToData: an address literal has no data form');
      return item;
    }),
  );
}

/** The value back from data, its definitions found in the scheme; throws on a name the scheme lacks. */
export function typedValueFromData(data: TypedValueData, scheme: Scheme): TypedValue {
  return revive(data, scheme) as TypedValue;
}

function revive(item: unknown, scheme: Scheme): unknown {
  if (Array.isArray(item)) return item.map((element) => revive(element, scheme));
  if (typeof item !== 'object' || item === null) return item;
  const record = item as Record<string, unknown>;
  const keys = Object.keys(record);
  if (keys.length === 1 && typeof record.int === 'string') return BigInt(record.int);
  // The members in the checker's order (a definition right after the name), so that a tree read from data
  // has the shape of a checked one.
  const out: Record<string, unknown> = {};
  for (const key of keys) {
    out[key] = revive(record[key], scheme);
    if (key === 'name' && (record.kind === 'field' || record.kind === 'call'))
      out.definition = definitionOf(record, scheme);
  }
  // Every node of a typed tree has a span (the index selector, a plain object, has none).
  if ('type' in record || record.kind === 'literal') out.span = NO_SPAN;
  return out;
}

function definitionOf(node: Record<string, unknown>, scheme: Scheme): unknown {
  const name = node.name as string;
  const definition = node.kind === 'field' ? scheme.fields.get(name) : scheme.functions.get(name);
  if (!definition) throw new Error(`typedValueFromData: ${name} is not in the scheme`);
  return definition;
}
