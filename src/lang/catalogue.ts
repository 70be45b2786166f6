import type { Span } from './ast.js';
import { HINTS, type HintId, MESSAGES, type MessageId, render } from './messages.js';

export { HINTS, type HintId, MESSAGES, type MessageId, templateText } from './messages.js';

/**
 * The diagnostic catalogue: every message, hint and code that the language core (lexer, parser, checker,
 * product rules, lints, validate, compile) reports, in one place. A diagnostic is made by naming its code,
 * a message of that code and, where there is one, a hint; nothing elsewhere writes the text of a message or
 * guesses a code from it. docs/language.md §4.4 is generated from these tables (`npm run diagnostics`; a
 * test fails when the page is stale).
 *
 * Messages are separate from codes because the reference engine's wording is shared: `unrecognised input`
 * is both `unrecognised-input` and `comma-in-set`, and `expected 2 characters, but found 1` is an
 * `invalid-string` inside a quoted string but an `invalid-bytes` in hex bytes. The text of a message is the
 * reference engine's where it has the situation, so it must never change (tests compare it verbatim).
 *
 * The texts themselves are in ./messages.ts.
 */

export type Severity = 'error' | 'warning' | 'info';

/**
 * Who reports a code: the syntax layer, the type checker, the product rules, the lints, the API, or the
 * compiler (for a valid expression it cannot run).
 */
export type Layer = 'parser' | 'checker' | 'profile' | 'lint' | 'input' | 'compile';

interface CodeEntry {
  severity: Severity;
  layer: Layer;
  /** The messages this code is reported with. */
  messages: readonly MessageId[];
  /** The hints it may carry. */
  hints?: readonly HintId[];
  /** A hint every diagnostic of this code carries, unless it is given another. */
  hint?: HintId;
  /** A word for the docs where the severity is not the whole story. */
  note?: string;
}

/** The literal messages an item of a set may get where a comma stands (see `comma-in-set`). */
const SET_ITEM_STARTS = [
  'expectedDigit',
  'expectedIpCharacter',
  'invalidDigit',
  'expectedCharacters',
] as const;

export const CODES = {
  'expected-identifier': { severity: 'error', layer: 'parser', messages: ['expectedIdentifier'] },
  'expected-operator': {
    severity: 'error',
    layer: 'parser',
    messages: ['expectedOperator'],
    hints: ['comparisonOperators', 'operatorTypo', 'rewriteValue'],
  },
  'expected-value': {
    severity: 'error',
    layer: 'parser',
    messages: ['expectedValue'],
    hint: 'expectedValue',
  },
  'expected-string': { severity: 'error', layer: 'parser', messages: ['expectedString'] },
  'expected-literal': {
    severity: 'error',
    layer: 'parser',
    messages: ['expectedBrace', 'expectedClose', 'expectedComma', 'expectedBracket', 'expectedOpen'],
  },
  'invalid-index': {
    severity: 'error',
    layer: 'parser',
    messages: ['indexExpected', 'indexNegative', 'indexNotUtf8', 'indexForType'],
    hints: ['mapKeyQuotes'],
  },
  'invalid-string': {
    severity: 'error',
    layer: 'parser',
    messages: [
      'noEndingQuote',
      'unknownEscape',
      'expectedCharacters',
      'invalidDigit',
      'numberTooLarge',
      'expectedRawQuote',
      'rawHashCount',
    ],
    hints: ['doubleQuotes'],
  },
  'invalid-list-name': { severity: 'error', layer: 'parser', messages: ['invalidListName'] },
  'comma-in-set': {
    severity: 'error',
    layer: 'parser',
    messages: ['unrecognisedInput', ...SET_ITEM_STARTS],
    hints: ['commaInSet'],
  },
  'nesting-limit': { severity: 'error', layer: 'parser', messages: ['nestingLimit'] },
  'unrecognised-input': { severity: 'error', layer: 'parser', messages: ['unrecognisedInput'] },
  'syntax-error': {
    severity: 'error',
    layer: 'parser',
    messages: ['parserLibrary'],
    note: 'a fallback; no known input produces it',
  },
  'unknown-identifier': {
    severity: 'error',
    layer: 'checker',
    messages: ['unknownIdentifier'],
    hints: ['didYouMean', 'fieldNotFunction'],
  },
  'unsupported-operation': { severity: 'error', layer: 'checker', messages: ['unsupportedOperation'] },
  'type-mismatch': { severity: 'error', layer: 'checker', messages: ['typeMismatch'] },
  'invalid-map-each': { severity: 'error', layer: 'checker', messages: ['mapEachArgument'] },
  'invalid-argument-count': { severity: 'error', layer: 'checker', messages: ['argumentCount'] },
  'invalid-argument-kind': { severity: 'error', layer: 'checker', messages: ['argumentKind'] },
  'invalid-argument-type': { severity: 'error', layer: 'checker', messages: ['argumentType'] },
  'invalid-argument-value': { severity: 'error', layer: 'checker', messages: ['argumentValue'] },
  'invalid-integer': {
    severity: 'error',
    layer: 'checker',
    messages: ['expectedDigit', 'invalidDigit', 'numberTooLarge', 'numberTooSmall'],
    hints: ['integerQuotes', 'doubleQuotes'],
  },
  'invalid-ip': {
    severity: 'error',
    layer: 'checker',
    messages: ['expectedIpCharacter', 'invalidAddress', 'invalidNetworkLength', 'networkTooLong', 'hostBits'],
    hints: ['ipQuotes', 'cidrInSet', 'cidrNetwork', 'doubleQuotes'],
  },
  'invalid-range': { severity: 'error', layer: 'checker', messages: ['rangeBounds'] },
  'invalid-bytes': {
    severity: 'error',
    layer: 'checker',
    messages: ['expectedCharacters', 'byteSeparator', 'invalidDigit'],
    hints: ['doubleQuotes'],
  },
  'invalid-regex': { severity: 'error', layer: 'checker', messages: ['patternError'] },
  'regex-unsupported': {
    severity: 'warning',
    layer: 'checker',
    messages: ['patternError', 'cannotEvaluate'],
    hints: ['regexUnsupported'],
    note: 'an error from `compile`, which cannot run the filter',
  },
  'call-unsupported': {
    severity: 'error',
    layer: 'compile',
    messages: ['cannotEvaluateCall'],
    note: "a function's implementation refused its literal arguments, which its signature let through",
  },
  'invalid-wildcard': {
    severity: 'error',
    layer: 'checker',
    messages: ['wildcardSyntax', 'wildcardDoubleStar', 'wildcardStars'],
  },
  'unknown-list': {
    severity: 'error',
    layer: 'checker',
    messages: ['unknownList'],
    hints: ['didYouMean'],
  },
  'list-kind': { severity: 'error', layer: 'checker', messages: ['listType', 'listField'] },
  internal: {
    severity: 'error',
    layer: 'checker',
    messages: ['rhsNotRead'],
    note: 'a safeguard; no known input produces it',
  },
  'invalid-input': { severity: 'error', layer: 'input', messages: ['invalidInput'] },
  'unknown-plan': { severity: 'error', layer: 'input', messages: ['unknownOption'] },
  'unknown-phase': { severity: 'error', layer: 'input', messages: ['unknownOption'] },
  'expression-too-long': { severity: 'error', layer: 'input', messages: ['tooLong'], hint: 'tooLong' },
  'field-plan': { severity: 'error', layer: 'profile', messages: ['fieldPlan'] },
  'field-phase': { severity: 'error', layer: 'profile', messages: ['fieldPhase'] },
  'function-plan': { severity: 'error', layer: 'profile', messages: ['functionPlan'] },
  'function-phase': { severity: 'error', layer: 'profile', messages: ['functionPhase'], hints: ['phases'] },
  'managed-only': { severity: 'error', layer: 'profile', messages: ['managedOnly'] },
  'rewrite-only': {
    severity: 'error',
    layer: 'profile',
    messages: ['fieldRewriteOnly', 'functionRewriteOnly'],
    hints: ['rewriteFunction'],
  },
  'replace-once': { severity: 'error', layer: 'profile', messages: ['replaceOnce'] },
  'matches-plan': { severity: 'error', layer: 'profile', messages: ['matchesPlan'], hint: 'matchesPlan' },
  'regex-limit': { severity: 'error', layer: 'profile', messages: ['regexLimit'] },
  'list-plan': { severity: 'error', layer: 'profile', messages: ['listPlan'] },
  'deprecated-field': {
    severity: 'warning',
    layer: 'lint',
    messages: ['deprecatedField'],
    hints: ['replaceWith'],
  },
  'uppercase-header-key': {
    severity: 'warning',
    layer: 'lint',
    messages: ['headerKeyIndex', 'headerKeyArgument'],
    hints: ['write'],
  },
  'contains-wildcard': {
    severity: 'warning',
    layer: 'lint',
    messages: ['containsStar'],
    hint: 'wildcardInstead',
  },
  'impossible-comparison': {
    severity: 'warning',
    layer: 'lint',
    messages: ['caseOfField', 'notOneOf', 'outOfRange'],
    hints: ['write'],
  },
  'duplicate-set-item': { severity: 'warning', layer: 'lint', messages: ['duplicateItem'] },
  'case-mismatch': {
    severity: 'warning',
    layer: 'lint',
    messages: ['caseOfFunction', 'caseOfField'],
    hints: ['write'],
  },
} as const satisfies Record<string, CodeEntry>;

/** Every code a diagnostic of the language core can have. */
export type DiagnosticCode = keyof typeof CODES;

type Entry<C extends DiagnosticCode> = (typeof CODES)[C];
/** The messages code `C` is reported with. */
export type MessageOf<C extends DiagnosticCode> = Entry<C>['messages'][number];
/** The hints code `C` may carry. */
export type HintOf<C extends DiagnosticCode> =
  | (Entry<C> extends { hints: readonly (infer H extends HintId)[] } ? H : never)
  | (Entry<C> extends { hint: infer H extends HintId } ? H : never);

type ParamsOf<T> = T extends (params: infer P) => string ? [params: P] : [];

/** A message rendered from the catalogue, with the id it came from (so its code can be checked). */
export interface Message<M extends MessageId = MessageId> {
  readonly id: M;
  readonly text: string;
}

export interface Hint<H extends HintId = HintId> {
  readonly id: H;
  readonly text: string;
}

export function message<M extends MessageId>(id: M, ...params: ParamsOf<(typeof MESSAGES)[M]>): Message<M> {
  return { id, text: render(MESSAGES[id], params[0]) };
}

export function hint<H extends HintId>(id: H, ...params: ParamsOf<(typeof HINTS)[H]>): Hint<H> {
  return { id, text: render(HINTS[id], params[0]) };
}

/** One finding about an expression, from the parser, the checker or a lint. */
export interface Diagnostic {
  severity: Severity;
  /** Stable machine-readable identifier, e.g. `unrecognised-input` (the catalogue's codes). */
  code: DiagnosticCode;
  /** The reference engine's wording where it has one. */
  message: string;
  span: Span;
  /** A friendlier explanation or a suggested fix, when we have one. */
  hint?: string;
}

/**
 * A diagnostic of `code` with one of its messages, over `span`; the code's severity, and the hint given or
 * else the code's own.
 */
export function diagnostic<C extends DiagnosticCode>(
  code: C,
  text: Message<MessageOf<C>>,
  span: Span,
  withHint?: Hint<HintOf<C>>,
): Diagnostic {
  return make(code, text, span, withHint);
}

/** Where a pass reports its findings of the codes `Codes`, each with one of its code's messages and hints. */
export type Report<Codes extends DiagnosticCode = DiagnosticCode> = <C extends Codes>(
  code: C,
  text: Message<MessageOf<C>>,
  span: Span,
  why?: Hint<HintOf<C>>,
) => void;

/**
 * Pairings of a code with a message or hint that its entry does not list, as `code id`, made through `make`
 * (where the compiler cannot check them). The catalogue test runs the corpora and expects none; a
 * diagnostic is still made, as the parser must answer whatever happens.
 */
export const undeclared = new Set<string>();

/**
 * The same, for a message whose code is known only when the program runs (a literal's problem, with the
 * code its reader gave it). The pairing is checked by the catalogue test rather than the compiler.
 */
export function make(code: DiagnosticCode, text: Message, span: Span, withHint?: Hint): Diagnostic {
  const entry: CodeEntry = CODES[code];
  if (!entry.messages.includes(text.id)) undeclared.add(`${code} ${text.id}`);
  if (withHint && !entry.hints?.includes(withHint.id) && entry.hint !== withHint.id)
    undeclared.add(`${code} ${withHint.id}`);
  const result: Diagnostic = { severity: entry.severity, code, message: text.text, span };
  const hintText = withHint?.text ?? (entry.hint ? render(HINTS[entry.hint], undefined) : undefined);
  if (hintText !== undefined) result.hint = hintText;
  return result;
}
