// What kind of text completes at a position, decided from the text before it alone, so that every editor
// (the playground's CodeMirror, the language server) offers the same things at the same places.

/** After a complete operand (a name, `]`, `)`, a string or a set) and a space: an operator comes next. */
export const AFTER_OPERAND = /[\w.\])"}]\s+$/;

/** Inside quotes right after `FIELD eq|ne|==|!=` or within `FIELD in {…`: group 1 the field, 2 the text typed. */
export const VALUE_IN_QUOTES = /([a-z][\w.]*)(?:\[[^\]]*\])*\s*(?:eq|ne|==|!=|in\s*\{[^}]*)\s*"([^"]*)$/;

/** The name or operator being typed, at the end of the text before the cursor. */
export const WORD_BEFORE = /(?:[A-Za-z_][\w.]*|[=!<>&|^~]+)$/;

/**
 * Whether an operator is expected at the end of `prefix` (the text before the word being typed): after an
 * operand and a space, but not after a word operator that itself wants an operand next.
 */
export const operatorExpected = (prefix: string): boolean =>
  AFTER_OPERAND.test(prefix) && !/\b(and|or|xor|not|in|eq|ne)\s+$/.test(prefix);

export type CompletionPlace =
  /** Inside quotes after a field: its known values; `typed` is what is already written of the value. */
  | { kind: 'value'; field: string; typed: string }
  /** An operator; `typed` is its part already written. */
  | { kind: 'operator'; typed: string }
  /** A field or function name; `typed` is its part already written. */
  | { kind: 'name'; typed: string };

/** What completes after `before` (the text from the start of the expression, or a window of it). */
export function completionPlace(before: string): CompletionPlace {
  const value = VALUE_IN_QUOTES.exec(before);
  if (value) return { kind: 'value', field: value[1] as string, typed: value[2] as string };
  const typed = WORD_BEFORE.exec(before)?.[0] ?? '';
  const prefix = before.slice(0, before.length - typed.length);
  return { kind: operatorExpected(prefix) ? 'operator' : 'name', typed };
}
