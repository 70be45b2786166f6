import type { IRecognitionException, IToken } from 'chevrotain';
import type { Expression } from './ast.js';
import { type Diagnostic, type DiagnosticCode, type Hint, type Message, make, message } from './catalogue.js';
import { HookStop, type ParseHooks } from './hooks.js';
import { ExpressionLexer, type InvalidPayload, type Token } from './lexer.js';
import { CALL_CLOSE, ExpressionParser, SYNTAX_ERRORS, SyntaxFailure } from './parser.js';
import { spanOf } from './position.js';
import * as T from './tokens.js';

export interface ParseOptions {
  /**
   * Lets a type checker follow the parse and read literals by type (see ParseHooks). Without hooks the
   * parser knows no types: text after a lone value is then reported as `expected ComparisonOp`, and
   * literals are read neutrally.
   */
  hooks?: ParseHooks;
}

export interface ParseResult {
  /** Present when the expression is syntactically valid. */
  ast?: Expression;
  /** Syntax errors: at most one, the first in the text, like the reference engine. */
  diagnostics: Diagnostic[];
}

let sharedParser: ExpressionParser | undefined;

/** Parses a Rules-language expression, in one pass. Never throws on any input (unless a hook throws). */
export function parse(source: string, options: ParseOptions = {}): ParseResult {
  sharedParser ??= new ExpressionParser(); // built once: Chevrotain's grammar analysis is costly
  const parser = sharedParser;
  // Without a literal hook the lexer need not wait for the parser: it lexes the whole text in one go.
  const lexer = new ExpressionLexer(source, options.hooks?.literal ? parser.readLiteral : undefined);
  parser.start(lexer, options.hooks);
  let ast: Expression | undefined;
  try {
    ast = parser.filter();
  } catch (error) {
    if (error instanceof HookStop) return { diagnostics: [error.verdict] };
    if (!(error instanceof SyntaxFailure)) throw error;
    const found = { code: error.code, message: error.text, hint: error.hint };
    return { diagnostics: [diagnose(source, lexer.end, error.token, found)] };
  } finally {
    parser.hooks = undefined;
  }
  const [error] = parser.errors;
  if (error) return { diagnostics: [fromRecognitionError(source, lexer.end, error, lexer.tokens)] };
  return { ast, diagnostics: [] };
}

/** An error "from here to the end of the line", the reference engine's usual span. */
function diagnose(source: string, inputEnd: number, token: IToken, found: Found): Diagnostic {
  const start = Number.isNaN(token.startOffset) ? inputEnd : token.startOffset;
  return make(found.code, found.message, spanOf(source, start, inputEnd), found.hint);
}

interface Found {
  code: DiagnosticCode;
  message: Message;
  hint?: Hint;
}

const UNRECOGNISED: Found = { code: 'unrecognised-input', message: message('unrecognisedInput') };

function fromRecognitionError(
  source: string,
  inputEnd: number,
  error: IRecognitionException,
  tokens: Token[],
): Diagnostic {
  const token = error.token;
  if (token.tokenType === T.Invalid) {
    const { problem } = token.payload as InvalidPayload;
    if (problem) {
      const span = spanOf(source, problem.start, problem.end ?? inputEnd);
      return make(problem.code, problem.message, span, problem.hint);
    }
  }
  if (error.name === 'NotAllInputParsedException') {
    // Leftover text: the reference's span starts right after the expression, white space included.
    const previous = tokens[tokens.indexOf(token as Token) - 1];
    const start = previous ? previous.end : token.startOffset;
    const diagnostic = diagnose(source, inputEnd, token, UNRECOGNISED);
    diagnostic.span = spanOf(source, start, inputEnd);
    return diagnostic;
  }
  const marker = ownMessage(error);
  if (marker === CALL_CLOSE) return callCloseError(source, inputEnd, token, tokens);
  // A place of the grammar without a marker of its own gets Chevrotain's text (no known input reaches it).
  const found = (Object.hasOwn(SYNTAX_ERRORS, marker) ? SYNTAX_ERRORS[marker] : undefined) ?? {
    code: 'syntax-error',
    message: message('parserLibrary', { message: marker }),
  };
  return diagnose(source, inputEnd, token, found);
}

/** Chevrotain frames the ERR_MSG of a failed alternative as "Expecting: … but found: …". */
function ownMessage(error: IRecognitionException): string {
  const framed = /^Expecting: ([^\n]*)\nbut found: /.exec(error.message);
  return framed ? (framed[1] as string) : error.message;
}

/**
 * Inside a call's parentheses: at the end of input a `)` is missing; where an argument should start the
 * text is unreadable; after an argument a `,` (or `)`) was expected.
 */
function callCloseError(source: string, inputEnd: number, token: IToken, tokens: Token[]): Diagnostic {
  const expected = (id: 'expectedClose' | 'expectedComma'): Found => ({
    code: 'expected-literal',
    message: message(id),
  });
  if (Number.isNaN(token.startOffset)) return diagnose(source, inputEnd, token, expected('expectedClose'));
  const previous = tokens[tokens.indexOf(token as Token) - 1];
  const atArgumentStart = previous?.tokenType === T.LParen || previous?.tokenType === T.Comma;
  if (atArgumentStart) return diagnose(source, inputEnd, token, UNRECOGNISED);
  return diagnose(source, inputEnd, token, expected('expectedComma'));
}
