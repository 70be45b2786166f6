import type {
  Argument,
  ComparisonExpression,
  ComparisonOperator,
  Expression,
  FunctionCall,
  IndexAccess,
  IndexSelector,
  Span,
  ValueExpression,
} from '../lang/ast.js';
import {
  type Diagnostic,
  type DiagnosticCode,
  diagnostic,
  type Hint,
  type HintOf,
  hint,
  type Message,
  type MessageOf,
  make,
  message,
} from '../lang/catalogue.js';
import { closestName } from '../lang/closest-name.js';
import type { HookVerdict, LiteralPlace, LiteralReading, ParseHooks } from '../lang/hooks.js';
import { isSpace, type LexProblem, trimmedRange } from '../lang/lexer.js';
import type { ScanProblem, ScanResult } from '../lang/literals.js';
import { comparisonOperator, comparisonOperatorNames, matchLogical } from '../lang/operators.js';
import { PositionTracker } from '../lang/position.js';
import { parseWildcard } from '../lang/wildcard.js';
import { checkRegex } from '../regex/index.js';
import type { FunctionDefinition, LiteralValue, Parameter } from '../scheme/functions.js';
import { formatIp, type IpAddress, type IpRange } from '../scheme/ip.js';
import { type ListKind, listItemType, type Scheme } from '../scheme/scheme.js';
import { arrayOf, elementType, sameType, type Type, typeDebugName, typeName } from '../scheme/types.js';
import { textOf } from '../scheme/values.js';
import { accepts, argumentType, describeTypes, isMapped, parameterAt, patternError } from './arguments.js';
import { literalHint } from './hints.js';
import type {
  ExpressionType,
  TypedArgument,
  TypedComparison,
  TypedExpression,
  TypedLiteralArgument,
  TypedRhs,
  TypedValue,
} from './typed-ast.js';
import { scanBytes, scanInt, scanIntSetItem, scanIpAddress, scanIpSetItem } from './typed-literals.js';

export interface CheckerOptions {
  scheme: Scheme;
  /** Custom lists declared by the caller (in addition to the scheme's). */
  lists?: Scheme['lists'];
  /** `rewrite`: the root is a value (Transform Rules), not a condition. */
  expression: 'filter' | 'rewrite';
  /** Whether to check regex patterns (ValidateOptions.checkRegexes). */
  checkRegexes?: boolean;
}

/** The fields Cloudflare lets hostname and ASN lists follow (rules-language.md §2.5); IP lists fit any Ip. */
const listFields: Partial<Record<ListKind, readonly string[]>> = {
  hostname: ['http.host'],
  asn: ['ip.src.asnum'],
};

/** Operators each left-side type supports (engine-semantics §3), from the operator table. */
const operatorTypes: Record<ComparisonOperator, readonly Type[]> = Object.fromEntries(
  comparisonOperatorNames.map((op) => [op, comparisonOperator(op).types]),
) as Record<ComparisonOperator, readonly Type[]>;

/** The types a literal can be compared with (`operatorTypes` lets no other reach a literal). */
type LiteralType = 'Bytes' | 'Int' | 'Ip';

/** A function argument's literal as `literal` read it: its own type decides (see readArgument). */
type ArgumentValue = Omit<TypedLiteralArgument, 'kind' | 'span'>;

const BOOL_ARRAY: Type = arrayOf('Bool');

/**
 * The type checker. It follows the parse through ParseHooks, the way the reference engine checks types
 * while it parses, so that the first error in the text is the one reported and literals are read by the
 * type of the value they are compared with. `finish` then types the logical structure and returns the
 * typed tree.
 */
export class TypeChecker implements ParseHooks {
  // By node, for this one check (plain maps: a checker lives as long as its parse).
  private readonly values = new Map<object, TypedValue | TypedLiteralArgument>();
  private readonly comparisons = new Map<ComparisonExpression, TypedComparison>();
  private readonly expressions = new Map<Expression, TypedExpression | Diagnostic>();
  private readonly positions: PositionTracker;
  private readonly inputEnd: number;
  /** Warnings found while checking (lints come later, from the typed tree), in text order. */
  readonly warnings: Diagnostic[] = [];

  constructor(
    private readonly source: string,
    private readonly options: CheckerOptions,
  ) {
    this.positions = new PositionTracker(source);
    this.inputEnd = trimmedRange(source).end;
  }

  // ---- hooks ----

  value(value: ValueExpression): HookVerdict {
    const typed = this.typeValue(value);
    return 'severity' in typed ? typed : undefined;
  }

  call(name: string, nameSpan: Span): HookVerdict {
    const definition = this.functionDefinition(name, nameSpan.start);
    return 'severity' in definition ? definition : undefined;
  }

  argument(name: string, nameSpan: Span, args: readonly Argument[]): HookVerdict {
    const definition = this.functionDefinition(name, nameSpan.start);
    if ('severity' in definition) return definition;
    const index = args.length - 1;
    const arg = args[index] as Argument;
    const parameter = parameterAt(definition, index);
    if (!parameter) return this.error('invalid-argument-count', message('argumentCount'), arg.span.start);
    const typed = this.typeArgument(arg);
    if ('severity' in typed) return typed;
    return this.checkArgument(definition, parameter, index, typed, args);
  }

  operator(lhs: ValueExpression, op: ComparisonOperator, opSpan: Span): HookVerdict {
    const typed = this.values.get(lhs) as TypedValue;
    if (typed.type === 'Bool' && !typed.mapped) {
      // A Bool is a complete condition: whatever follows it is unexpected.
      return this.error('unrecognised-input', message('unrecognisedInput'), lhs.span.end);
    }
    if (!operatorTypes[op].some((type) => sameType(type, typed.type)))
      return this.unsupported(typed.type, opSpan.start, opSpan.end);
    return undefined;
  }

  literal(place: LiteralPlace, start: number): LiteralReading {
    const { source, inputEnd } = this;
    if (place.kind === 'argument') return this.readArgument(start);
    // The operator hook let only literal types through.
    const type = (this.values.get(place.lhs) as TypedValue).type as LiteralType;
    const read = place.kind === 'rhs' ? readValue[type] : readSetItem[type];
    const scanned = read(source, start, inputEnd);
    return scanned.ok
      ? { value: scanned.value, end: scanned.end }
      : { problem: this.problem(scanned.problem) };
  }

  comparison(comparison: ComparisonExpression, opSpan: Span): HookVerdict {
    const lhs = this.values.get(comparison.lhs) as TypedValue;
    const rhs = this.readRhs(comparison, lhs);
    if (rhs === undefined) return this.error('internal', message('rhsNotRead'), comparison.span.start);
    if ('severity' in rhs) return rhs;
    const type: ExpressionType = lhs.mapped ? { array: 'Bool' } : 'Bool';
    const typed: TypedComparison = {
      kind: 'comparison',
      lhs,
      op: comparison.op,
      opSpan,
      rhs,
      type,
      span: comparison.span,
    };
    this.comparisons.set(comparison, typed);
    return undefined;
  }

  predicate(value: ValueExpression): HookVerdict {
    if (this.options.expression === 'rewrite') return undefined; // the root may be any value; see finish()
    const typed = this.values.get(value) as TypedValue;
    if (typed.type === 'Bool') return undefined;
    if (!typed.mapped && sameType(typed.type, BOOL_ARRAY)) return undefined;
    if (typed.mapped && elementType(typed.type) !== undefined)
      return this.unsupported(typed.type, value.span.end);
    const rewriteOnly = typed.kind === 'call' && typed.definition.rewriteOnly;
    const why = rewriteOnly ? hint('rewriteValue', { name: typed.name }) : hint('comparisonOperators');
    return this.error('expected-operator', message('expectedOperator'), value.span.end, undefined, why);
  }

  isBoolValue(value: ValueExpression): boolean | undefined {
    const typed = this.values.get(value);
    return typed ? typed.type === 'Bool' : undefined;
  }

  // ---- the typed tree ----

  /** Types the parsed expression's logical structure; the root must be Bool (a value for rewrites). */
  finish(ast: Expression): TypedExpression | Diagnostic {
    const typed = this.typeExpression(ast);
    if ('severity' in typed) return typed;
    if (this.options.expression === 'rewrite') {
      if (typed.kind === 'predicate' && !typed.value.mapped && typed.type === 'Bytes') return typed;
      return this.mismatch('Bytes', typed.type, this.inputEnd, this.inputEnd);
    }
    if (typed.type !== 'Bool') return this.mismatch('Bool', typed.type, this.inputEnd, this.inputEnd);
    return typed;
  }

  private typeExpression(expression: Expression): TypedExpression | Diagnostic {
    const cached = this.expressions.get(expression);
    if (cached) return cached;
    const typed = this.typeExpressionUncached(expression);
    this.expressions.set(expression, typed);
    return typed;
  }

  private typeExpressionUncached(expression: Expression): TypedExpression | Diagnostic {
    switch (expression.kind) {
      case 'comparison':
        return this.comparisons.get(expression) as TypedComparison;
      case 'predicate': {
        const value = this.values.get(expression.value) as TypedValue;
        const type = value.mapped ? arrayOf(value.type) : value.type;
        return { kind: 'predicate', value, type, span: expression.span };
      }
      case 'not': {
        const operand = this.typeExpression(expression.operand);
        if ('severity' in operand) return operand;
        return { kind: 'not', operand, type: operand.type as 'Bool', span: expression.span };
      }
      case 'quantifier': {
        const operand = this.typeExpression(expression.operand);
        if ('severity' in operand) return operand;
        if (!sameType(operand.type, BOOL_ARRAY)) {
          const { start, end } = expression.operand.span;
          return this.mismatch('Array<Bool>', operand.type, start, end);
        }
        return {
          kind: 'quantifier',
          quantifier: expression.quantifier,
          operand,
          type: 'Bool',
          span: expression.span,
        };
      }
      case 'logical': {
        const operands: TypedExpression[] = [];
        for (const operand of expression.operands) {
          const typed = this.typeExpression(operand);
          if ('severity' in typed) return typed;
          operands.push(typed);
        }
        const first = operands[0] as TypedExpression;
        for (let i = 1; i < operands.length; i++) {
          const operand = operands[i] as TypedExpression;
          if (!sameType(operand.type, first.type)) {
            // The reference engine notices after reading the next operator: the span starts there.
            return this.mismatch(
              typeName(first.type),
              operand.type,
              this.afterNextOperator(operand.span.end),
            );
          }
        }
        return {
          kind: 'logical',
          op: expression.op,
          operands,
          type: first.type as 'Bool',
          span: expression.span,
        };
      }
    }
  }

  // ---- values ----

  private typeValue(value: ValueExpression): TypedValue | Diagnostic {
    const cached = this.values.get(value);
    if (cached) return cached as TypedValue;
    const typed =
      value.kind === 'field'
        ? this.typeField(value)
        : value.kind === 'call'
          ? this.typeCall(value)
          : this.typeIndex(value);
    if (!('severity' in typed)) this.values.set(value, typed);
    return typed;
  }

  private typeField(value: Extract<ValueExpression, { kind: 'field' }>): TypedValue | Diagnostic {
    const definition = this.options.scheme.fields.get(value.name);
    if (definition)
      return {
        kind: 'field',
        name: value.name,
        definition,
        type: definition.type,
        mapped: false,
        span: value.span,
      };
    if (this.options.scheme.functions.has(value.name)) {
      let next = value.span.end;
      while (next < this.inputEnd && isSpace(this.source.charCodeAt(next))) next++;
      return this.error('expected-literal', message('expectedOpen'), next);
    }
    return this.unknownIdentifier(value.name, value.span.start);
  }

  private typeCall(call: FunctionCall): TypedValue | Diagnostic {
    const definition = this.functionDefinition(call.name, call.span.start);
    if ('severity' in definition) return definition;
    if (call.args.length < definition.params.length) {
      return this.error('invalid-argument-count', message('argumentCount'), call.span.end - 1);
    }
    const args = call.args.map((arg) => this.typeArgument(arg) as TypedArgument);
    const types = args.map(argumentType);
    const returns = typeof definition.returns === 'function' ? definition.returns(types) : definition.returns;
    const perElement = isMapped(args[0]);
    return {
      kind: 'call',
      name: call.name,
      definition,
      args,
      perElement,
      type: perElement ? arrayOf(returns) : returns,
      mapped: false,
      span: call.span,
    };
  }

  private typeIndex(value: IndexAccess): TypedValue | Diagnostic {
    const target = this.typeValue(value.target);
    if ('severity' in target) return target;
    const { index } = value;
    const container = target.type;
    const element = elementType(container);
    const isArray = typeof container !== 'string' && 'array' in container;
    const fits =
      element !== undefined && (index.kind === 'map-each' || (index.kind === 'array-index') === isArray);
    if (!fits) {
      const text = message('indexForType', { index: indexName(index), type: typeDebugName(container) });
      return this.error('invalid-index', text, value.target.span.end, value.span.end);
    }
    return {
      kind: 'index',
      target,
      index,
      type: element as Type,
      mapped: target.mapped || index.kind === 'map-each',
      span: value.span,
    };
  }

  private functionDefinition(name: string, start: number): FunctionDefinition | Diagnostic {
    const definition = this.options.scheme.functions.get(name);
    if (definition) return definition;
    if (this.options.scheme.fields.has(name)) {
      const why = hint('fieldNotFunction', { name });
      return this.error('unknown-identifier', message('unknownIdentifier'), start, start + name.length, why);
    }
    return this.unknownIdentifier(name, start);
  }

  private unknownIdentifier(name: string, start: number): Diagnostic {
    const suggestion = closestName(name, [
      ...this.options.scheme.fields.keys(),
      ...this.options.scheme.functions.keys(),
    ]);
    const why = suggestion ? hint('didYouMean', { name: suggestion }) : undefined;
    return this.error('unknown-identifier', message('unknownIdentifier'), start, start + name.length, why);
  }

  // ---- function arguments ----

  private typeArgument(arg: Argument): TypedArgument | Diagnostic {
    switch (arg.kind) {
      case 'field':
      case 'call':
      case 'index':
        return this.typeValue(arg);
      case 'string':
        return { kind: 'literal', value: arg.value, type: 'Bytes', span: arg.span };
      case 'bare':
        return this.typeBareArgument(arg);
      default:
        return this.typeExpression(arg);
    }
  }

  /** A literal argument, as `literal` read it while the text was lexed. */
  private typeBareArgument(arg: Extract<Argument, { kind: 'bare' }>): TypedLiteralArgument | Diagnostic {
    const read = arg.value as ArgumentValue | undefined;
    if (!read) return this.error('internal', message('rhsNotRead'), arg.span.start);
    return { kind: 'literal', ...read, span: arg.span };
  }

  /** A literal argument: an IP address if it reads as one, else an integer, else bytes (hex or quoted). */
  private readArgument(start: number): LiteralReading {
    const { source, inputEnd } = this;
    const ip = scanIpAddress(source, start, inputEnd);
    if (ip.ok) {
      const value: ArgumentValue = { value: { ip: formatIp(ip.value) }, address: ip.value, type: 'Ip' };
      return { value, end: ip.end };
    }
    const int = scanInt(source, start, inputEnd);
    if (int.ok) return { value: { value: int.value, type: 'Int' } satisfies ArgumentValue, end: int.end };
    const bytes = scanBytes(source, start, inputEnd);
    if (!bytes.ok) return { problem: this.problem(bytes.problem) };
    return { value: { value: bytes.value, type: 'Bytes' } satisfies ArgumentValue, end: bytes.end };
  }

  private checkArgument(
    definition: FunctionDefinition,
    parameter: Parameter,
    index: number,
    typed: TypedArgument,
    args: readonly Argument[],
  ): HookVerdict {
    const span = (args[index] as Argument).span;
    const at = <C extends DiagnosticCode>(code: C, text: Message<MessageOf<C>>) =>
      this.error(code, text, span.start, span.end);
    if (isMapped(typed) && index > 0) return at('invalid-map-each', message('mapEachArgument'));
    const isLiteral = typed.kind === 'literal';
    if (parameter.kind === 'field' && isLiteral)
      return at(
        'invalid-argument-kind',
        message('argumentKind', { index, expected: 'Field', actual: 'Literal' }),
      );
    if (parameter.kind === 'literal' && !isLiteral)
      return at(
        'invalid-argument-kind',
        message('argumentKind', { index, expected: 'Literal', actual: 'Field' }),
      );
    const first = index > 0 ? this.typeArgument(args[0] as Argument) : undefined;
    const firstType = first && !('severity' in first) ? argumentType(first) : undefined;
    const type = argumentType(typed);
    if (!parameter.types.some((accepted) => accepts(accepted, type, firstType))) {
      const expected = describeTypes(parameter.types, firstType);
      return at(
        'invalid-argument-type',
        message('argumentType', { index, expected, actual: typeName(type) }),
      );
    }
    if (typed.kind === 'literal' && parameter.checkValue) {
      const problem = parameter.checkValue(typed.value as LiteralValue);
      if (problem)
        return at(
          'invalid-argument-value',
          message('argumentValue', { index, problem: JSON.stringify(problem) }),
        );
    }
    const checked = parameter.pattern === 'wildcard' || this.options.checkRegexes !== false;
    if (parameter.pattern && checked && typed.kind === 'literal' && typeof typed.value === 'string') {
      const error = patternError(parameter.pattern, typed.value);
      if (error) {
        const code = parameter.pattern === 'regex' ? 'invalid-regex' : 'invalid-wildcard';
        return make(code, error, this.span(span.start, span.end));
      }
    }
    if (parameter.fields && !(typed.kind === 'field' && parameter.fields.includes(typed.name))) {
      const problem = JSON.stringify(`${definition.name} only accepts ${parameter.fields.join(' or ')}`);
      return at('invalid-argument-value', message('argumentValue', { index, problem }));
    }
    return undefined;
  }

  // ---- right-hand sides ----

  /** The typed right-hand side, from the values `literal` read; checks patterns and lists. */
  private readRhs(comparison: ComparisonExpression, lhs: TypedValue): TypedRhs | Diagnostic | undefined {
    const { rhs } = comparison;
    switch (rhs.kind) {
      case 'regex': {
        const regex: TypedRhs = { kind: 'regex', pattern: rhs.pattern, raw: rhs.raw, span: rhs.span };
        if (this.options.checkRegexes === false) return regex;
        const problem = checkRegex(rhs.pattern);
        if (!problem) return regex;
        if (problem.kind === 'unsupported') {
          // Cloudflare accepts it; only cfrules' own regex engine cannot run it.
          const text = message('patternError', { error: problem.message });
          this.warnings.push(diagnostic('regex-unsupported', text, rhs.span, hint('regexUnsupported')));
          return regex;
        }
        // The reference points at the pattern inside the quotes; for a raw string, at what follows it.
        const text = message('patternError', { error: problem.message });
        return rhs.raw
          ? this.error('invalid-regex', text, rhs.span.end)
          : this.error('invalid-regex', text, rhs.span.start + 1, rhs.span.end - 1);
      }
      case 'list':
        return this.typeList(comparison, lhs);
      case 'set': {
        const values = rhs.items.map(literalValue);
        if (values.includes(undefined)) return undefined;
        const type = lhs.type as LiteralType;
        const spanOf = (i: number) => (rhs.items[i] as (typeof rhs.items)[number]).span;
        if (type === 'Bytes')
          return {
            kind: 'bytes-set',
            items: values.map((value, i) => ({ value: value as string, span: spanOf(i) })),
            span: rhs.span,
          };
        if (type === 'Int')
          return {
            kind: 'int-set',
            items: values.map((value, i) => {
              const [from, to] = value as [bigint, bigint];
              return { from, to, span: spanOf(i) };
            }),
            span: rhs.span,
          };
        return {
          kind: 'ip-set',
          items: values.map((value, i) => {
            const { from, to } = value as IpRange;
            return { from, to, span: spanOf(i) };
          }),
          span: rhs.span,
        };
      }
      default: {
        // A string after wildcard, or a single value after eq, ne, lt, contains…
        const operator = comparisonOperator(comparison.op);
        if (operator.rhs === 'wildcard') {
          const pattern = rhs.kind === 'string' ? rhs.value : '';
          const parsed = parseWildcard(pattern);
          if (!parsed.ok)
            return make('invalid-wildcard', parsed.message, this.span(rhs.span.start, this.inputEnd));
          return { kind: 'wildcard', pattern, strict: operator.strict, span: rhs.span };
        }
        const value = literalValue(rhs);
        if (value === undefined) return undefined;
        const type = lhs.type as LiteralType;
        if (type === 'Bytes') return { kind: 'bytes', value: value as string, span: rhs.span };
        if (type === 'Int') return { kind: 'int', value: value as bigint, span: rhs.span };
        return { kind: 'ip', value: value as IpAddress, span: rhs.span };
      }
    }
  }

  private typeList(comparison: ComparisonExpression, lhs: TypedValue): TypedRhs | Diagnostic {
    const rhs = comparison.rhs as Extract<ComparisonExpression['rhs'], { kind: 'list' }>;
    const { scheme } = this.options;
    const declared = this.options.lists?.get(rhs.name) ?? scheme.lists.get(rhs.name);
    const opStart = comparison.lhs.span.end;
    if (declared) {
      const kind = declared.kind === 'ip' ? 'an IP' : declared.kind === 'asn' ? 'an ASN' : 'a hostname';
      if (!sameType(listItemType[declared.kind], lhs.type)) {
        const text = message('listType', { name: rhs.name, kind, type: typeName(lhs.type) });
        return this.error('list-kind', text, rhs.span.start, rhs.span.end);
      }
      const fields = scheme.cloudflare ? listFields[declared.kind] : undefined;
      if (fields && !(lhs.kind === 'field' && fields.includes(lhs.name))) {
        const text = message('listField', { name: rhs.name, kind, fields: fields.join(' or ') });
        return this.error('list-kind', text, rhs.span.start, rhs.span.end);
      }
      return { kind: 'list', name: rhs.name, list: declared, span: rhs.span };
    }
    // Cloudflare's own lists are all known, and account list names have no dots.
    if (!scheme.openLists || this.options.lists || rhs.name.startsWith('cf.')) {
      const suggestion = closestName(rhs.name, [
        ...scheme.lists.keys(),
        ...(this.options.lists?.keys() ?? []),
      ]);
      const why = suggestion ? hint('didYouMean', { name: `$${suggestion}` }) : undefined;
      const text = message('unknownList', { name: rhs.name });
      return this.error('unknown-list', text, rhs.span.start, rhs.span.end, why);
    }
    // An undeclared account list: its kind follows from what it is compared with.
    const kind =
      lhs.type === 'Ip' ? 'ip' : lhs.type === 'Int' ? 'asn' : lhs.type === 'Bytes' ? 'hostname' : undefined;
    if (!kind) return this.unsupported(lhs.type, opStart, rhs.span.start);
    return { kind: 'list', name: rhs.name, list: { name: rhs.name, kind }, span: rhs.span };
  }

  // ---- diagnostics ----

  /** An error from `start` to `end`, or to the end of the input when `end` is absent. */
  private error<C extends DiagnosticCode>(
    code: C,
    text: Message<MessageOf<C>>,
    start: number,
    end?: number,
    why?: Hint<HintOf<C>>,
  ): Diagnostic {
    return diagnostic(code, text, this.span(start, end ?? this.inputEnd), why);
  }

  /** An operator or use the type does not support (the same message wherever it is found). */
  private unsupported(type: Type, start: number, end?: number): Diagnostic {
    return this.error(
      'unsupported-operation',
      message('unsupportedOperation', { type: typeDebugName(type) }),
      start,
      end,
    );
  }

  /** A value of type `actual` where `expected` was needed. */
  private mismatch(expected: string, actual: Type, start: number, end?: number): Diagnostic {
    return this.error(
      'type-mismatch',
      message('typeMismatch', { expected, actual: typeName(actual) }),
      start,
      end,
    );
  }

  /** An invalid literal, with the hint its message has for the text. */
  private problem(problem: ScanProblem): LexProblem {
    const text = this.source.slice(problem.start, problem.end ?? this.inputEnd);
    const why = literalHint(problem.message.id, text);
    return why ? { ...problem, hint: why } : problem;
  }

  private span(start: number, end: number): Span {
    return this.positions.span(start, end);
  }

  /** Past white space, a logical operator and white space again, from `offset`. */
  private afterNextOperator(offset: number): number {
    const { source, inputEnd } = this;
    let i = offset;
    const skipSpaces = () => {
      while (i < inputEnd && isSpace(source.charCodeAt(i))) i++;
    };
    skipSpaces();
    const operator = matchLogical(source, i);
    if (operator) {
      i += operator.text.length;
      skipSpaces();
    }
    return i;
  }
}

function indexName(index: IndexSelector): string {
  if (index.kind === 'map-each') return 'MapEach';
  if (index.kind === 'array-index') return `ArrayIndex(${index.index})`;
  return `MapKey(${JSON.stringify(textOf(index.key))})`;
}

/** Readers of the one literal after eq, ne, lt…, by the type it is compared with. */
const readValue: Record<LiteralType, (text: string, start: number, end: number) => ScanResult<unknown>> = {
  Bytes: scanBytes,
  Int: scanInt,
  Ip: scanIpAddress,
};

/** Readers of the items of a set after `in`: Int and Ip items may be ranges. */
const readSetItem: Record<LiteralType, (text: string, start: number, end: number) => ScanResult<unknown>> = {
  Bytes: scanBytes,
  Int: scanIntSetItem,
  Ip: scanIpSetItem,
};

/** A literal's value as `literal` read it: a string's, or what the hook gave an unquoted literal. */
function literalValue(node: ComparisonExpression['rhs']): unknown {
  if (node.kind === 'string') return node.value;
  return node.kind === 'bare' ? node.value : undefined;
}
