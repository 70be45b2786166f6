import type { Span } from '../lang/ast.js';
import { type Diagnostic, diagnostic, message } from '../lang/catalogue.js';
import type { CompiledRegex, RegexEngine } from '../regex/index.js';

/**
 * A valid expression that cfrules cannot run, as the diagnostic `compile` returns for it: a pattern the
 * regex engine refuses (`regex-unsupported`: Cloudflare accepts it, and validate only warns), or a call
 * whose function's implementation refuses its literal arguments (`call-unsupported`). Each is reported as
 * what it is, so that a failing function is not taken for a regex problem.
 */
export class Uncompilable extends Error {
  constructor(readonly diagnostic: Diagnostic) {
    super(diagnostic.message);
  }
}

/** Runs `build` (a regex engine compiling a pattern), turning the engine's refusal into a diagnostic over `span`. */
export function orUncompilable<T>(span: Span, build: () => T): T {
  try {
    return build();
  } catch (error) {
    throw regexUnsupported(error, span);
  }
}

function regexUnsupported(error: unknown, span: Span): Uncompilable {
  const text = message('cannotEvaluate', { reason: (error as Error).message });
  // A warning from validate (Cloudflare accepts the pattern), but compile cannot give a filter for it.
  return new Uncompilable({ ...diagnostic('regex-unsupported', text, span), severity: 'error' });
}

/** What a regex engine threw when compiling a pattern, told apart from anything else a function throws. */
class RegexRefused extends Error {
  constructor(readonly refusal: unknown) {
    super((refusal as Error).message);
  }
}

/**
 * The engine handed to functions that compile patterns (regex_replace): the same engine, whose refusals
 * `preparing` recognises as such whatever the engine throws (each engine has its own errors, and a caller
 * may bring its own engine).
 */
export function markingRefusals(engine: RegexEngine): RegexEngine {
  return {
    compile(pattern: string): CompiledRegex {
      try {
        return engine.compile(pattern);
      } catch (error) {
        throw new RegexRefused(error);
      }
    },
  };
}

/**
 * Runs a function's `prepare` for the call `name` over `span`: a pattern the regex engine refuses is
 * `regex-unsupported`, as in `matches`; any other failure is the call's own, `call-unsupported`.
 */
export function preparing<T>(name: string, span: Span, prepare: () => T): T {
  try {
    return prepare();
  } catch (error) {
    if (error instanceof RegexRefused) throw regexUnsupported(error.refusal, span);
    const text = message('cannotEvaluateCall', { name, reason: (error as Error).message });
    throw new Uncompilable(diagnostic('call-unsupported', text, span));
  }
}
