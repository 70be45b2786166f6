import type { TypedComparison, TypedExpression } from '../check/typed-ast.js';
import type { IpRange } from '../scheme/ip.js';
import type { Value } from '../scheme/values.js';
import { numberLiteral, valueCode } from './comparisons.js';
import { CONTEXT_MEMBERS, MISSING, type RequestContext } from './context.js';
import { IpSet, intRangeSet } from './sets.js';

/**
 * The code-generating tier: a filter's Bool tree as the source of one JavaScript function, compiled with
 * `new Function`, so that `a and b and (c or d)` on fields costs one call instead of a closure per node,
 * per field read and per check (bench/eval.ts measures both tiers).
 *
 * Only the common shapes are written out: `and`/`or`/`xor`/`not`, and a field compared with a literal (Bytes,
 * Int or IP value, or a small IP or Int set). Every other node is a closure built by the closure compiler
 * and called from the generated code, so both tiers share one meaning for everything they do not both
 * spell out. Literals reach the source only as JSON strings and decimal numbers.
 *
 * Where code generation is disallowed (`--disallow-code-generation-from-strings`, a CSP), `generateTest`
 * returns undefined and the closures run alone.
 */

export type Test = (ctx: RequestContext) => boolean;
type Check = (value: Value) => boolean;

/** What the generator asks of the closure compiler. */
export interface ClosureTier {
  /** The slot of a field (the field is recorded as read). */
  slot(name: string): number;
  /** A node's closure, for what is not written out. */
  test(node: TypedExpression): Test;
  /** The check of one value against a comparison's right-hand side. */
  check(node: TypedComparison): Check;
}

/** Sets of at most this many ranges are written out as comparisons; larger ones are searched. */
const INLINE_RANGES = 8;

let codeGeneration: boolean | undefined;

function codeGenerationAllowed(): boolean {
  if (codeGeneration === undefined) {
    try {
      codeGeneration = new Function('return true')() === true;
    } catch {
      codeGeneration = false;
    }
  }
  return codeGeneration;
}

/**
 * The generated function for a Bool tree, or undefined where code generation is disallowed. `slow` takes
 * inputs that are not yet a context of this scheme's layout (they fail the generated `c.layout` check).
 */
export function generateTest(
  node: TypedExpression,
  tier: ClosureTier,
  layout: object,
  slow: (input: unknown) => boolean,
): ((input: unknown) => boolean) | undefined {
  if (!codeGenerationAllowed()) return undefined;
  const writer = new Writer(tier);
  const expression = writer.test(node);
  const { layout: layoutMember, values } = CONTEXT_MEMBERS;
  const body = `"use strict";
return function match(c) {
  if (c?.${layoutMember} !== layout) return slow(c);
  const v = c.${values};
  let a, b;
  return ${expression};
};`;
  const make = new Function('M', 'x', 'layout', 'slow', body);
  return make(MISSING, writer.externals, layout, slow);
}

class Writer {
  /** Values the generated code refers to as `x[i]`: closures, checks, sets, bigints. */
  readonly externals: unknown[] = [];

  constructor(private readonly tier: ClosureTier) {}

  test(node: TypedExpression): string {
    switch (node.kind) {
      case 'logical': {
        const operands = node.operands.map((operand) => this.test(operand));
        // Each operand is a boolean, so `!==` chains as xor.
        const joiner = node.op === 'and' ? ' && ' : node.op === 'or' ? ' || ' : ' !== ';
        return `(${operands.join(joiner)})`;
      }
      case 'not':
        return `!${this.test(node.operand)}`;
      case 'comparison':
        // A constant field (`true`) has no slot: its closure gives the value.
        if (node.lhs.kind === 'field' && node.lhs.definition.constant === undefined) {
          const slot = this.tier.slot(node.lhs.name);
          // `a` is the field's value, or M when the request has none: every comparison is then false.
          return `(a = v[${slot}] ?? c.${CONTEXT_MEMBERS.derive}(${slot}), ${this.check(node)})`;
        }
        return this.closure(node);
      default:
        return this.closure(node);
    }
  }

  private closure(node: TypedExpression): string {
    return `${this.external(this.tier.test(node))}(c)`;
  }

  private external(value: unknown): string {
    this.externals.push(value);
    return `x[${this.externals.length - 1}]`;
  }

  /** A test of `a` (a value or M). */
  private check(node: TypedComparison): string {
    const { op, rhs } = node;
    const present = 'a !== M';
    if (rhs.kind === 'bytes' || rhs.kind === 'int' || rhs.kind === 'ip') {
      const code = valueCode(op, rhs);
      if (code !== undefined) return code;
    }
    if (rhs.kind === 'ip-set') {
      const set = new IpSet(rhs.items as IpRange[]);
      if (set.v6.size === 0 && set.v4.size <= INLINE_RANGES)
        return `${present} && a.family === 4 && (b = a.value, ${rangesTest(set.v4.ranges())})`;
    }
    if (rhs.kind === 'int-set') {
      const set = intRangeSet(rhs.items);
      if (set.size <= INLINE_RANGES) return `${present} && (b = a, ${rangesTest(set.ranges())})`;
    }
    return `${present} && ${this.external(this.tier.check(node))}(a)`;
  }
}

/** `b` within one of the ranges. */
function rangesTest(ranges: readonly (readonly [number, number])[]): string {
  if (ranges.length === 0) return 'false';
  const tests = ranges.map(([start, end]) =>
    start === end
      ? `b === ${numberLiteral(start)}`
      : `(b >= ${numberLiteral(start)} && b <= ${numberLiteral(end)})`,
  );
  return `(${tests.join(' || ')})`;
}
