import type { Filter } from '../../eval/compile.js';
import type { RequestContext } from '../../eval/context.js';
import type { Diagnostic } from '../../lang/diagnostics.js';
import type { RegexEngine } from '../../regex/index.js';
import type { SampleRequest } from '../../request/index.js';
import type { RuleName, SimulationResult } from '../outcome.js';

/** Why a zone file cannot be simulated: where (a JSON pointer into the zone file), what, and a code. */
export interface ZoneProblem {
  /** JSON pointer, e.g. `/firewall_rules/3/filter/expression`. */
  path: string;
  message: string;
  /** e.g. `unknown-key`, `invalid-value`, `invalid-expression`, `unknown-ruleset`. */
  code: string;
  /**
   * For `invalid-expression`: the expression and its errors, whose code frames make up `message` (cut to
   * FRAME_WIDTH characters around the caret), so that a terminal can show them with their control characters
   * escaped and the carets still under them.
   */
  expression?: { source: string; errors: Diagnostic[] };
}

export interface CompileZoneOptions {
  /** `indexed` (default): the whole zone as one indexed program; `rule-by-rule`: the reference. */
  matcher?: 'indexed' | 'rule-by-rule';
  regexEngine?: RegexEngine;
}

export type CompileZoneResult =
  | { ok: true; zone: CompiledZone; warnings: ZoneProblem[] }
  | { ok: false; problems: ZoneProblem[] };

export interface SimulateOptions {
  /** Default true. Without it `trace` is empty: what replay uses, for speed. */
  trace?: boolean;
}

/** A zone compiled once, for many requests. */
export interface CompiledZone {
  /** Every rule that can match, firewall rules, ruleset rules and the managed rules executed, in order. */
  readonly rules: readonly RuleName[];
  /** `filters[i]` is the compiled expression of `rules[i]` (what `cfrules bench` times rule by rule). */
  readonly filters: readonly Filter[];
  simulate(request: SampleRequest | RequestContext, options?: SimulateOptions): SimulationResult;
  /**
   * The same zone (its expressions compiled once) asking its rules one after another: the reference the
   * indexed program is compared with (`cfrules bench`), as `matcher: 'rule-by-rule'` would compile it.
   */
  ruleByRule(): CompiledZone;
}
