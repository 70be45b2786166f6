import {
  createTokenInstance,
  EmbeddedActionsParser,
  EOF,
  type ILookaheadStrategy,
  type IOrAlt,
  type IToken,
  LLkLookaheadStrategy,
  type OrMethodOpts,
} from 'chevrotain';
import type {
  Argument,
  BareLiteral,
  ComparisonExpression,
  ComparisonOperator,
  Expression,
  IndexSelector,
  LogicalOperator,
  RegexLiteral,
  RightHandSide,
  SetLiteral,
  Span,
  StringLiteral,
  ValueExpression,
} from './ast.js';
import { type DiagnosticCode, type Hint, hint, type Message, message } from './catalogue.js';
import { closestName } from './closest-name.js';
import { HookStop, type HookVerdict, type ParseHooks } from './hooks.js';
import type {
  ExpressionLexer,
  InvalidPayload,
  LiteralReader,
  RegexPayload,
  StringPayload,
  Token,
} from './lexer.js';
import { comparisonOperatorNames, LOGICAL_OPERATORS } from './operators.js';
import * as T from './tokens.js';

/**
 * What a failure at each place of the grammar is, by the marker given to Chevrotain as the place's ERR_MSG
 * (which Chevrotain hands back as the error's message): parse.ts reports it with this code and message.
 */
export const SYNTAX_ERRORS: Record<string, { code: DiagnosticCode; message: Message }> = {
  operand: { code: 'expected-identifier', message: message('expectedIdentifier') },
  value: { code: 'expected-value', message: message('expectedValue') },
  brace: { code: 'expected-literal', message: message('expectedBrace') },
  close: { code: 'expected-literal', message: message('expectedClose') },
  'close-bracket': { code: 'expected-literal', message: message('expectedBracket') },
  index: { code: 'invalid-index', message: message('indexExpected') },
  unrecognised: { code: 'unrecognised-input', message: message('unrecognisedInput') },
};

/** The marker of a call's `)`, resolved by parse.ts, where the whole token stream is known. */
export const CALL_CLOSE = 'call-close';

/** A syntax error raised from a grammar action (Chevrotain passes non-recognition errors through). */
export class SyntaxFailure extends Error {
  constructor(
    readonly code: DiagnosticCode,
    readonly text: Message,
    readonly token: IToken,
    readonly hint?: Hint,
  ) {
    super(text.text);
  }
}

const tokenSpan = (token: IToken): Span => ({
  start: token.startOffset,
  end: (token as Token).end,
  line: token.startLine as number,
  column: token.startColumn as number,
});

const joinSpans = (first: Span, last: Span): Span => ({
  start: first.start,
  end: last.end,
  line: first.line,
  column: first.column,
});

/** From a token to the end of the last consumed token. */
const spanToEnd = (first: Span, lastToken: IToken): Span => ({
  start: first.start,
  end: (lastToken as Token).end,
  line: first.line,
  column: first.column,
});

// Literal nodes are built by plain functions rather than grammar rules: rule calls cost time.
// (While Chevrotain records the grammar, tokens have no payload; the values are never used then.)
function stringNode(token: IToken): StringLiteral {
  const payload = token.payload as StringPayload | undefined;
  return {
    kind: 'string',
    value: payload?.value as string,
    raw: payload?.raw === true,
    span: tokenSpan(token),
  };
}

function regexNode(token: IToken): RegexLiteral {
  const payload = token.payload as RegexPayload | undefined;
  return {
    kind: 'regex',
    pattern: payload?.pattern as string,
    raw: payload?.raw === true,
    span: tokenSpan(token),
  };
}

function bareNode(token: IToken): BareLiteral {
  const node: BareLiteral = { kind: 'bare', text: token.image, span: tokenSpan(token) };
  if (token.payload !== undefined) node.value = token.payload;
  return node;
}

/** What LA answers past the last token, as Chevrotain's own end of input does (no offset). */
const END_OF_INPUT = createTokenInstance(
  EOF,
  '',
  Number.NaN,
  Number.NaN,
  Number.NaN,
  Number.NaN,
  Number.NaN,
  Number.NaN,
);

/** Binary operators from loosest to tightest. */
const precedence: readonly LogicalOperator[] = LOGICAL_OPERATORS.map(({ op }) => op);

/** An operand of a logical operator, with the extent of its text (parentheses around it included). */
interface Operand {
  node: Expression;
  extent: Span;
}

/**
 * Builds the tree for `a op b op c …` by precedence (and > xor > or), flattening runs of one operator into
 * one n-ary node, as the reference engine does.
 */
function combine(
  operands: readonly Operand[],
  ops: readonly LogicalOperator[],
  level = 0,
  first = 0,
  last = operands.length - 1,
): Operand {
  // operands[first..last], with ops[i] between operands[i] and operands[i + 1]: ranges, not slices, as
  // this runs for every expression the checker validates.
  if (first === last) return operands[first] as Operand;
  const op = precedence[level] as LogicalOperator;
  let groups: Operand[] | undefined;
  let from = first;
  for (let i = first; i < last; i++) {
    if (ops[i] !== op) continue;
    groups ??= [];
    groups.push(combine(operands, ops, level + 1, from, i));
    from = i + 1;
  }
  const lastGroup = combine(operands, ops, level + 1, from, last);
  if (!groups) return lastGroup;
  groups.push(lastGroup);
  const extent = joinSpans((groups[0] as Operand).extent, lastGroup.extent);
  return { node: { kind: 'logical', op, operands: groups.map((g) => g.node), span: extent }, extent };
}

const placeholder = undefined as never;

/**
 * Chevrotain's own LL(k) lookahead, each decision's function built the first time the decision is taken
 * rather than all of them when the parser is created. A command-line run parses a few expressions, which
 * reach few of the grammar's decisions, and building them all was a third of the parser's set-up, itself
 * a fifth of `cfrules validate`'s start-up (issue 16). The functions are the same, so are the parses; the
 * grammar's validation (tests) is the inherited one.
 */
function lazyLookahead(maxLookahead: number): ILookaheadStrategy {
  const strategy = new LLkLookaheadStrategy({ maxLookahead });
  type Alternation = ReturnType<ILookaheadStrategy['buildLookaheadForAlternation']>;
  type Optional = ReturnType<ILookaheadStrategy['buildLookaheadForOptional']>;
  return {
    validate: (options) => strategy.validate(options),
    buildLookaheadForAlternation(options) {
      let built: Alternation | undefined;
      // Chevrotain calls lookahead functions with the parser as `this`.
      return function (this: unknown, alternatives) {
        built ??= strategy.buildLookaheadForAlternation(options);
        return built.call(this, alternatives);
      };
    },
    buildLookaheadForOptional(options) {
      let built: Optional | undefined;
      return function (this: unknown) {
        built ??= strategy.buildLookaheadForOptional(options);
        return built.call(this);
      };
    },
  };
}

/**
 * The grammar, with embedded actions that build the AST directly (faster than a CST plus a visitor).
 * Nesting depth and token-level errors are handled by the lexer, so recursion here is bounded.
 *
 * Speed matters (rules are parsed in bulk by the service and the benchmarks), so the alternatives of each
 * OR are built once as fields instead of on every call, and actions test RECORDING_PHASE (Chevrotain runs
 * every rule once with dummy tokens to learn the grammar) instead of allocating ACTION closures.
 */
export class ExpressionParser extends EmbeddedActionsParser {
  /** Set by parse() for the duration of one parse. */
  hooks: ParseHooks | undefined;

  /** Chevrotain's index of the last consumed token (not in its typings). */
  declare private currIdx: number;
  /** Where the tokens come from, one at a time (see LA); set by `start`. */
  private lexer: ExpressionLexer | undefined;
  private tokens: Token[] = [];

  /** Prepares a parse of the text the lexer reads; the lexer reads literals through `readLiteral`. */
  start(lexer: ExpressionLexer, hooks: ParseHooks | undefined): void {
    this.input = lexer.tokens; // resets Chevrotain's state
    this.lexer = lexer;
    this.tokens = lexer.tokens;
    this.hooks = hooks;
    this.rhsOpen = false;
  }

  /**
   * The next tokens, lexed when first looked at: the lexer reaches a right-hand side only once the parser
   * has taken its operator (every decision before it looks one token ahead), and `readLiteral` then knows
   * what the literal is compared with.
   */
  protected override LA(howMuch: number): IToken {
    return this.currIdx + howMuch < 0 ? END_OF_INPUT : this.LA_FAST(howMuch);
  }

  /** LA without the check for a place before the first token, which Chevrotain's lookahead never asks. */
  protected override LA_FAST(howMuch: number): IToken {
    const index = this.currIdx + howMuch;
    return index < this.tokens.length ? (this.tokens[index] as Token) : this.lexUpTo(index);
  }

  private lexUpTo(index: number): IToken {
    const tokens = this.tokens;
    while (index >= tokens.length) if (!this.lexer?.step()) return END_OF_INPUT;
    return tokens[index] as Token;
  }

  /** Chevrotain pads the token vector for LA_FAST here; LA lexes on demand instead. */
  onBeforeParse(): void {}

  /** The comparison being parsed: its left side, its operator, and whether its right side is being read. */
  private lhs: ValueExpression | undefined;
  private op: ComparisonOperator = 'eq';
  private opToken: IToken = END_OF_INPUT;
  private rhsOpen = false;

  /** Answers the lexer: a literal is read by the type of what it is compared with (ParseHooks.literal). */
  readonly readLiteral: LiteralReader = (place, start) => {
    const hooks = this.hooks;
    if (!hooks?.literal) return undefined;
    if (place === 'argument') return hooks.literal({ kind: 'argument' }, start);
    if (!this.rhsOpen) throw new Error('parser: a right-hand side was lexed before its operator was parsed');
    const lhs = this.lhs as ValueExpression;
    return hooks.literal(
      place === 'rhs' ? { kind: 'rhs', lhs, op: this.op } : { kind: 'set-item', lhs },
      start,
    );
  };

  constructor(validate = false) {
    super(T.allTokens, {
      recoveryEnabled: false,
      maxLookahead: 2,
      lookaheadStrategy: lazyLookahead(2),
      skipValidations: !validate,
    });
    this.performSelfAnalysis();
    // Made a prototype (of an object thrown away), the parser gets V8's fast property layout, which
    // parsing reads on every token. Chevrotain does the same before recording the grammar, where it makes
    // the recording slow; the bundles leave it to here, after the recording (scripts/bundle-options.mjs).
    Object.create(this);
  }

  filter = this.RULE('filter', (): Expression => this.SUBRULE(this.logical));

  logical = this.RULE('logical', (): Expression => {
    const start = this.LA(1);
    const first = this.SUBRULE(this.simple);
    return this.logicalRest(first, start);
  });

  simple = this.RULE('simple', (): Expression => this.OR(this.simpleAlternatives));

  group = this.RULE('group', (): Expression => {
    this.CONSUME(T.LParen);
    const inner = this.SUBRULE(this.logical);
    this.CONSUME(T.RParen, { ERR_MSG: 'close' });
    return inner;
  });

  negation = this.RULE('negation', (): Expression => {
    const not = this.CONSUME(T.Not);
    const operand = this.SUBRULE(this.simple);
    if (this.RECORDING_PHASE) return placeholder;
    return { kind: 'not', operand, span: spanToEnd(tokenSpan(not), this.LA(0)) };
  });

  quantified = this.RULE('quantified', (): Expression => {
    const quantifier = this.CONSUME(T.Quantifier);
    this.CONSUME(T.LParen);
    const operand = this.SUBRULE(this.logical);
    const close = this.CONSUME(T.RParen, { ERR_MSG: 'close' });
    if (this.RECORDING_PHASE) return placeholder;
    const kind = quantifier.payload as 'any' | 'all';
    return { kind: 'quantifier', quantifier: kind, operand, span: spanToEnd(tokenSpan(quantifier), close) };
  });

  /** An operator and its right-hand side after `lhs`; the comparison node is built here for the hooks. */
  operatorAndOperand = this.RULE('operatorAndOperand', (lhs: ValueExpression): ComparisonExpression => {
    this.lhs = lhs;
    const rhs = this.OR(this.operatorAlternatives);
    this.rhsOpen = false;
    if (this.RECORDING_PHASE) return placeholder;
    // A right-hand side holds no comparison: `op` and `opToken` are still this comparison's.
    const comparison = comparisonNode(lhs, this.op, rhs);
    if (this.hooks?.comparison) this.heed(this.hooks.comparison(comparison, tokenSpan(this.opToken)));
    return comparison;
  });

  value = this.RULE('value', (): ValueExpression => {
    const name = this.CONSUME(T.Identifier);
    const call = this.OPTION(() => this.SUBRULE(this.callArguments, { ARGS: [name] }));
    let value: ValueExpression = call ?? { kind: 'field', name: name.image, span: tokenSpan(name) };
    this.MANY(() => {
      this.CONSUME(T.LBracket);
      const index = this.OR1(this.indexAlternatives);
      const close = this.CONSUME(T.RBracket, { ERR_MSG: 'close-bracket' });
      if (!this.RECORDING_PHASE)
        value = { kind: 'index', target: value, index, span: spanToEnd(value.span, close) };
    });
    if (!this.RECORDING_PHASE) this.heed(this.hooks?.value?.(value));
    return value;
  });

  callArguments = this.RULE('callArguments', (name: IToken): ValueExpression => {
    this.CONSUME(T.LParen);
    if (!this.RECORDING_PHASE) this.heed(this.hooks?.call?.(name.image, tokenSpan(name)));
    const args: Argument[] = [];
    this.OPTION(() => {
      args.push(this.SUBRULE(this.argument));
      if (!this.RECORDING_PHASE) this.heed(this.hooks?.argument?.(name.image, tokenSpan(name), args));
      this.MANY(() => {
        this.CONSUME(T.Comma);
        args.push(this.SUBRULE1(this.argument));
        if (!this.RECORDING_PHASE) this.heed(this.hooks?.argument?.(name.image, tokenSpan(name), args));
      });
    });
    const close = this.CONSUME(T.RParen, { ERR_MSG: CALL_CLOSE });
    if (this.RECORDING_PHASE) return placeholder;
    return { kind: 'call', name: name.image, args, span: spanToEnd(tokenSpan(name), close) };
  });

  /**
   * A function argument. As in the reference engine, one starting with `(`, `not` or `any(` is a whole
   * logical expression; one starting with a name is a value, or a comparison when an operator follows.
   */
  argument = this.RULE('argument', (): Argument => this.OR(this.argumentAlternatives));

  set = this.RULE('set', (): SetLiteral => {
    const open = this.CONSUME(T.LBrace);
    const items: (StringLiteral | BareLiteral)[] = [];
    this.MANY(() => {
      items.push(this.OR(this.literalAlternatives));
    });
    const close = this.CONSUME(T.RBrace, { ERR_MSG: 'unrecognised' });
    if (this.RECORDING_PHASE) return placeholder;
    return { kind: 'set', items, span: spanToEnd(tokenSpan(open), close) };
  });

  // ---- alternatives, built once ----

  private readonly simpleAlternatives: OrMethodOpts<Expression> = {
    DEF: [
      { ALT: () => this.SUBRULE(this.group) },
      { ALT: () => this.SUBRULE(this.negation) },
      { ALT: () => this.SUBRULE(this.quantified) },
      {
        // A value, then optionally an operator and its right-hand side; alone, the value is a predicate.
        ALT: () => {
          const value = this.SUBRULE(this.value);
          const comparison = this.OPTION(() => this.SUBRULE(this.operatorAndOperand, { ARGS: [value] }));
          if (this.RECORDING_PHASE) return placeholder;
          if (comparison) return comparison;
          this.rejectTextAfterValue(value);
          this.heed(this.hooks?.predicate?.(value));
          return { kind: 'predicate', value, span: value.span };
        },
      },
    ],
    ERR_MSG: 'operand',
  };

  private readonly literalAlternatives: IOrAlt<StringLiteral | BareLiteral>[] = [
    { ALT: () => stringNode(this.CONSUME(T.StringLit)) },
    { ALT: () => bareNode(this.CONSUME(T.BareLit)) },
  ];

  private readonly valueRhsAlternatives: OrMethodOpts<RightHandSide> = {
    DEF: [
      { ALT: () => stringNode(this.CONSUME1(T.StringLit)) },
      { ALT: () => bareNode(this.CONSUME1(T.BareLit)) },
    ],
    ERR_MSG: 'value',
  };

  private readonly patternRhsAlternatives: OrMethodOpts<RightHandSide> = {
    DEF: [
      { ALT: () => regexNode(this.CONSUME(T.RegexLit)) },
      { ALT: () => stringNode(this.CONSUME2(T.StringLit)) },
    ],
    ERR_MSG: 'unrecognised',
  };

  private readonly inRhsAlternatives: OrMethodOpts<RightHandSide> = {
    DEF: [
      { ALT: () => this.SUBRULE(this.set) },
      {
        ALT: (): RightHandSide => {
          const list = this.CONSUME(T.ListName);
          return { kind: 'list', name: list.payload as string, span: tokenSpan(list) };
        },
      },
    ],
    ERR_MSG: 'brace',
  };

  private readonly operatorAlternatives: IOrAlt<RightHandSide>[] = [
    {
      ALT: () => {
        this.operator(this.CONSUME(T.ValueOp));
        return this.OR1(this.valueRhsAlternatives);
      },
    },
    {
      ALT: () => {
        this.operator(this.CONSUME(T.PatternOp));
        return this.OR2(this.patternRhsAlternatives);
      },
    },
    {
      ALT: () => {
        this.operator(this.CONSUME(T.In));
        return this.OR3(this.inRhsAlternatives);
      },
    },
  ];

  /** Reads an operator token and lets the hooks see it before its right-hand side is parsed. */
  private operator(token: IToken): void {
    if (this.RECORDING_PHASE) return;
    this.op = token.payload as ComparisonOperator;
    this.opToken = token;
    if (this.hooks?.operator)
      this.heed(this.hooks.operator(this.lhs as ValueExpression, this.op, tokenSpan(token)));
    this.rhsOpen = true;
  }

  /** Stops the parse when a hook says so. */
  private heed(verdict: HookVerdict): void {
    if (!verdict) return;
    // Chevrotain still looks for leftover text once a rule has thrown: there is none to read.
    this.lexer = undefined;
    throw new HookStop(verdict);
  }

  private readonly indexAlternatives: OrMethodOpts<IndexSelector> = {
    DEF: [
      {
        ALT: () => {
          this.CONSUME(T.Star);
          return { kind: 'map-each' as const };
        },
      },
      {
        ALT: () => ({
          kind: 'map-key' as const,
          key: (this.CONSUME(T.StringLit).payload as StringPayload)?.value,
        }),
      },
      { ALT: () => ({ kind: 'array-index' as const, index: this.CONSUME(T.IndexNumber).payload as number }) },
    ],
    ERR_MSG: 'index',
  };

  private readonly argumentAlternatives: OrMethodOpts<Argument> = {
    DEF: [
      { ALT: () => stringNode(this.CONSUME(T.StringLit)) },
      { ALT: () => bareNode(this.CONSUME(T.BareLit)) },
      {
        ALT: (): Argument => {
          const value = this.SUBRULE(this.value);
          const comparison = this.OPTION(() => this.SUBRULE(this.operatorAndOperand, { ARGS: [value] }));
          return comparison ?? value;
        },
      },
      {
        ALT: () => {
          const start = this.LA(1);
          const first = this.OR1(this.prefixedAlternatives);
          return this.logicalRest(first, start);
        },
      },
    ],
    ERR_MSG: 'unrecognised',
  };

  /** The simple expressions that start with a token of their own: `(`, `not`, `any(`/`all(`. */
  private readonly prefixedAlternatives: IOrAlt<Expression>[] = [
    { ALT: () => this.SUBRULE(this.group) },
    { ALT: () => this.SUBRULE(this.negation) },
    { ALT: () => this.SUBRULE(this.quantified) },
  ];

  /** `first (op simple)*`, combined by precedence. */
  /**
   * `first (op simple)*`, combined by precedence. `firstStart` is the first operand's first token: a
   * logical node spans its operands' whole text, parentheses around them included.
   */
  private logicalRest(first: Expression, firstStart: IToken): Expression {
    let operands: Operand[] | undefined;
    let ops: LogicalOperator[] | undefined;
    const firstEnd = this.LA(0);
    this.MANY9(() => {
      const op = this.CONSUME9(T.LogicalOp).payload as LogicalOperator;
      const start = this.LA(1);
      const operand = this.SUBRULE9(this.simple);
      if (this.RECORDING_PHASE) return;
      if (!ops || !operands) {
        ops = [];
        operands = [{ node: first, extent: spanToEnd(tokenSpan(firstStart), firstEnd) }];
      }
      ops.push(op);
      operands.push({ node: operand, extent: spanToEnd(tokenSpan(start), this.LA(0)) });
    });
    if (this.RECORDING_PHASE || !operands || !ops) return first;
    return combine(operands, ops).node;
  }

  /**
   * After a value that takes no operator, other text is an error. After anything but a Bool the reference
   * engine expects an operator; after a Bool the enclosing construct reports it (`expected literal ")"`,
   * `unrecognised input`…), which is what happens when this returns.
   */
  private rejectTextAfterValue(value: ValueExpression): void {
    const next = this.LA(1);
    if (next.tokenType !== T.Invalid) return;
    const payload = next.payload as InvalidPayload;
    if (payload.problem || !payload.afterValue || this.hooks?.isBoolValue?.(value) === true) return;
    this.lexer = undefined; // as in heed
    // The message is the reference engine's; the hint names the operator a misspelt word stands for.
    const operator = payload.word && closestName(payload.word, comparisonOperatorNames);
    throw new SyntaxFailure(
      'expected-operator',
      message('expectedOperator'),
      next,
      payload.word && operator
        ? hint('operatorTypo', { word: payload.word, operator })
        : hint('comparisonOperators'),
    );
  }
}

function comparisonNode(
  lhs: ValueExpression,
  op: ComparisonOperator,
  rhs: RightHandSide,
): ComparisonExpression {
  return { kind: 'comparison', lhs, op, rhs, span: joinSpans(lhs.span, rhs.span) };
}
