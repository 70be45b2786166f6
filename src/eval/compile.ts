import { parameterAt } from '../check/arguments.js';
import type {
  TypedArgument,
  TypedCall,
  TypedComparison,
  TypedExpression,
  TypedLiteralArgument,
  TypedRhs,
  TypedValue,
} from '../check/typed-ast.js';
import { inputError, inputProblem, kindOf, type ValidateOptions, validate } from '../check/validate.js';
import { walkTyped } from '../check/walk.js';
import { type Diagnostic, diagnostic, hint, message } from '../lang/catalogue.js';
import { closestName } from '../lang/closest-name.js';
import { parseWildcard, type WildcardPart } from '../lang/wildcard.js';
import { type RegexEngine, re2RegexEngine } from '../regex/index.js';
import { mapEntryDeriver } from '../request/index.js';
import type { IpRange } from '../scheme/ip.js';
import type { Scheme } from '../scheme/scheme.js';
import { cloudflareScheme } from '../scheme/scheme.js';
import { elementType, type Type } from '../scheme/types.js';
import type { IpAddress, Value } from '../scheme/values.js';
import { type Check, valueCheck } from './comparisons.js';
import {
  type EvaluationInput,
  type FieldLayout,
  type FieldValues,
  layoutFor,
  RequestContext,
} from './context.js';
import { functionRuntimes } from './functions.js';
import { type ClosureTier, generateTest } from './generate.js';
import { type ListItems, listMatcher } from './lists.js';
import { IpSet, intRangeSet } from './sets.js';
import { markingRefusals, orUncompilable, preparing, Uncompilable } from './uncompilable.js';
import { valueKey } from './value-key.js';
import { wildcardMatcher } from './wildcard.js';

/**
 * The compiler: a typed tree becomes a tree of closures, each specialised for its operator and literal
 * (sets built once, patterns compiled once, fields resolved to slots), as the reference engine does.
 * `and`/`or` short-circuit. Comparisons on a missing value are false — `ne` included, as Cloudflare
 * documents (the open-source engine returns true for `ne` by default; docs/language.md explains).
 */

export interface CompileOptions extends ValidateOptions {
  /** The items of the lists used with `in $name`, by name: IPs and CIDRs, hostnames, or ASNs. */
  listItems?: Record<string, ListItems>;
  /**
   * Whether a filter may be compiled to generated JavaScript (`new Function`, ./generate.ts), which is
   * faster; false runs closures only. Default true; closures are used anyway where code generation is
   * disallowed.
   */
  generateCode?: boolean;
  /**
   * The engine `matches` and `regex_replace` run their patterns with. Default `re2RegexEngine` (linear
   * time on any input); `javascriptRegexEngine` needs no WebAssembly but suits trusted patterns only.
   */
  regexEngine?: RegexEngine;
}

/** What compiling a single node needs (compileNode, explanations): the options that shape closures. */
export type NodeCompileOptions = Pick<CompileOptions, 'scheme' | 'listItems' | 'regexEngine'>;

export interface Filter {
  readonly expression: 'filter' | 'rewrite';
  readonly ast: TypedExpression;
  /** The fields the expression reads. */
  readonly fields: readonly string[];
  /** Whether a filter expression matches (a rewrite expression: whether it yields a value). */
  match(input: EvaluationInput): boolean;
  /** The value of a rewrite expression (undefined when missing); for a filter, its Bool result. */
  value(input: EvaluationInput): Value | undefined;
  /** A context to share among several filters of the same scheme evaluated on one request. */
  context(input: Exclude<EvaluationInput, RequestContext>): RequestContext;
}

export type CompileResult =
  | { ok: true; filter: Filter; diagnostics: Diagnostic[] }
  | { ok: false; diagnostics: Diagnostic[] };

/** Validates and compiles an expression (source text), or compiles an already typed tree. */
export function compile(source: string | TypedExpression, options: CompileOptions = {}): CompileResult {
  let ast: TypedExpression;
  let diagnostics: Diagnostic[] = [];
  const isTree = typeof source === 'object' && source !== null && typeof source.kind === 'string';
  const problem = inputProblem(isTree ? '' : source, options) ?? listItemsProblem(options.listItems);
  if (problem) return { ok: false, diagnostics: [problem] };
  if (typeof source === 'string') {
    const result = validate(source, options);
    if (!result.ok || !result.ast) return { ok: false, diagnostics: result.diagnostics };
    ast = result.ast;
    diagnostics = result.diagnostics;
  } else {
    ast = source;
  }
  const scheme = options.scheme ?? cloudflareScheme;
  const unknown = options.lists ? undefined : unknownList(ast, scheme, options.listItems);
  if (unknown) return { ok: false, diagnostics: [...diagnostics, unknown] };
  const compiler = compilerFor(options);
  try {
    const filter = compiler.filter(ast, options.expression ?? 'filter', options.generateCode ?? true);
    return { ok: true, filter, diagnostics };
  } catch (error) {
    if (error instanceof Uncompilable) return { ok: false, diagnostics: [...diagnostics, error.diagnostic] };
    throw error;
  }
}

function listItemsProblem(listItems: unknown): Diagnostic | undefined {
  if (
    listItems === undefined ||
    (typeof listItems === 'object' && listItems !== null && !Array.isArray(listItems))
  )
    return undefined;
  return inputError('options.listItems to be an object (list name → items)', listItems);
}

/**
 * Given `listItems` (and no `lists` declaring kinds), the lists are exactly those, besides the scheme's
 * own: any other name is a typo, which would otherwise be an empty list that quietly never matches.
 */
function unknownList(
  ast: TypedExpression,
  scheme: Scheme,
  listItems: Record<string, ListItems> | undefined,
): Diagnostic | undefined {
  if (!listItems) return undefined;
  let found: Diagnostic | undefined;
  walkTyped(ast, (node) => {
    if (found || node.kind !== 'comparison' || node.rhs.kind !== 'list') return;
    const { name, span } = node.rhs;
    if (Object.hasOwn(listItems, name) || scheme.lists.has(name)) return;
    const suggestion = closestName(name, [...Object.keys(listItems), ...scheme.lists.keys()]);
    const why = suggestion ? hint('didYouMean', { name: `$${suggestion}` }) : undefined;
    found = diagnostic('unknown-list', message('unknownList', { name }), span, why);
  });
  return found;
}

type SampleRequest = Exclude<EvaluationInput, RequestContext | FieldValues>;

/**
 * What a filter runs on, checked: a plain object (such as the JSON of a sample request) would otherwise
 * fail deep inside with "cannot read properties of undefined".
 */
function requestInput(input: unknown): SampleRequest | FieldValues {
  if (input instanceof Map) return input as FieldValues;
  const request = input as Partial<SampleRequest> | null | undefined;
  if (request?.fields instanceof Map && request.edge instanceof Map && request.memo instanceof Map)
    return request as SampleRequest;
  const advice =
    typeof input === 'object' && input !== null && !Array.isArray(input)
      ? '; for a request written as JSON, pass it through readSampleRequest() first, and for field values use a Map'
      : '';
  throw new TypeError(
    `cfrules: expected the request as a SampleRequest (from readSampleRequest()), a Map of field values or a RequestContext, got ${kindOf(input)}${advice}`,
  );
}

/** Thrown by `evaluate` for an invalid expression; `diagnostics` says why. */
export class EvaluationError extends Error {
  constructor(readonly diagnostics: Diagnostic[]) {
    super(diagnostics.map((d) => d.message).join('\n'));
    this.name = 'EvaluationError';
  }
}

/** Compiles and runs an expression once: true when it matches. Throws EvaluationError when invalid. */
export function evaluate(source: string, input: EvaluationInput, options: CompileOptions = {}): boolean {
  const compiled = compile(source, options);
  if (!compiled.ok) throw new EvaluationError(compiled.diagnostics);
  return compiled.filter.match(input);
}

/**
 * Compiles one node of a typed tree on its own (for explanations): a Bool node gives a boolean, an
 * Array<Bool> node an array (undefined when its source is missing).
 */
export function compileNode(
  node: TypedExpression,
  options: NodeCompileOptions = {},
): (ctx: RequestContext) => boolean | boolean[] | undefined {
  const compiler = compilerFor(options);
  return isBoolArray(node) ? compiler.tests(node) : compiler.test(node);
}

function compilerFor(options: NodeCompileOptions): Compiler {
  const scheme = options.scheme ?? cloudflareScheme;
  const regexEngine = options.regexEngine ?? re2RegexEngine;
  return new Compiler(layoutFor(scheme), options.listItems ?? {}, scheme, regexEngine);
}

/** Compiles a value of a typed tree on its own (for explanations of rewrite expressions). */
export function compileValue(
  node: TypedValue,
  options: NodeCompileOptions = {},
): (ctx: RequestContext) => Value | undefined {
  return compilerFor(options).value(node);
}

type Test = (ctx: RequestContext) => boolean;
/** An Array<Bool> result; undefined when its source is missing. */
type Tests = (ctx: RequestContext) => boolean[] | undefined;
type Read = (ctx: RequestContext) => Value | undefined;
/** The element values of a mapped (`[*]`) value; missing elements are left out. */
type ReadAll = (ctx: RequestContext) => Value[];

const isBoolArray = (node: TypedExpression): boolean => typeof node.type !== 'string';

type CallNode = Extract<TypedValue, { kind: 'call' }>;

/** The call of `f(x[*])[*]`, whose elements are exactly f's per-element results; undefined for other shapes. */
function perElementResults(node: TypedValue): CallNode | undefined {
  if (node.kind !== 'index' || node.index.kind !== 'map-each') return undefined;
  const target = node.target;
  return target.kind === 'call' && target.perElement && !target.mapped ? target : undefined;
}

class Compiler implements ClosureTier {
  private readonly usedSlots = new Set<number>();
  /** The regex engine as functions get it: its refusals are then told from the functions' own failures. */
  private readonly functionRegexEngine: RegexEngine;

  constructor(
    private readonly layout: FieldLayout,
    private readonly listItems: Record<string, ListItems>,
    private readonly scheme: Scheme,
    private readonly regexEngine: RegexEngine,
  ) {
    this.functionRegexEngine = markingRefusals(regexEngine);
  }

  filter(ast: TypedExpression, expression: 'filter' | 'rewrite', generateCode: boolean): Filter {
    const layout = this.layout;
    // A context holds the values of one scheme's slots: another scheme's would be read wrongly.
    const checked = (ctx: RequestContext): RequestContext => {
      if (ctx.layout !== layout) throw new Error('this context was made for a filter of another scheme');
      return ctx;
    };
    const toContext = (input: EvaluationInput): RequestContext =>
      input instanceof RequestContext ? checked(input) : layout.context(requestInput(input));
    let match: (ctx: RequestContext) => boolean;
    let value: Read;
    // The generated function takes any input: what is not a context of this layout goes to `slow`.
    let generated: ((input: unknown) => boolean) | undefined;
    if (expression === 'rewrite' && ast.kind === 'predicate') {
      value = this.value(ast.value);
      match = (ctx) => value(ctx) !== undefined;
    } else {
      const slow = (input: unknown) => match(toContext(input as EvaluationInput));
      generated = generateCode ? generateTest(ast, this, layout, slow) : undefined;
      match = generated ?? this.test(ast);
      value = match;
    }
    const fields = [...this.usedSlots].map((slot) => layout.names[slot] as string);
    return {
      expression,
      ast,
      fields,
      match:
        generated ??
        ((input) => {
          if (!(input instanceof RequestContext)) return match(layout.context(requestInput(input)));
          if (input.layout !== layout) checked(input);
          return match(input);
        }),
      value: (input) => value(toContext(input)),
      context: (input) => layout.context(requestInput(input)),
    };
  }

  // ---- conditions ----

  /** A Bool expression. */
  test(node: TypedExpression): Test {
    switch (node.kind) {
      case 'comparison': {
        const check = this.check(node);
        if (node.lhs.kind === 'field' && node.lhs.definition.constant === undefined) {
          // The most common shape, a field compared with a literal: read the slot directly.
          const slot = this.slot(node.lhs.name);
          return (ctx) => {
            const value = ctx.get(slot);
            return value !== undefined && check(value);
          };
        }
        const read = this.value(node.lhs);
        return (ctx) => {
          const value = read(ctx);
          return value !== undefined && check(value);
        };
      }
      case 'predicate': {
        const read = this.value(node.value);
        return (ctx) => read(ctx) === true;
      }
      case 'not': {
        const operand = this.test(node.operand);
        return (ctx) => !operand(ctx);
      }
      case 'quantifier': {
        const { operand: inner } = node;
        if (inner.kind === 'comparison' && inner.lhs.mapped) {
          // any/all over a comparison on [*]: test element by element, stop once the answer is known.
          const check = this.check(inner);
          const any = node.quantifier === 'any';
          const results = perElementResults(inner.lhs);
          if (results) {
            // `f(x[*])[*]`: f runs on one element at a time, and not on the elements after the answer.
            const each = this.perElementCall(results);
            return (ctx) => (each(ctx, (value) => check(value) === any) ? any : !any);
          }
          const all = this.elements(inner.lhs);
          return (ctx) => {
            for (const value of all(ctx)) if (check(value) === any) return any;
            return !any;
          };
        }
        const operand = this.tests(node.operand);
        return node.quantifier === 'any'
          ? (ctx) => operand(ctx)?.some(Boolean) ?? false
          : (ctx) => operand(ctx)?.every(Boolean) ?? false;
      }
      case 'logical':
        return this.logical(
          node.op,
          node.operands.map((operand) => this.test(operand)),
        );
    }
  }

  private logical(op: 'and' | 'or' | 'xor', operands: Test[]): Test {
    const [first, second, third, ...rest] = operands as [Test, Test, Test | undefined, ...Test[]];
    if (op === 'xor')
      return (ctx) => {
        let result = false;
        for (const operand of operands) result = result !== operand(ctx);
        return result;
      };
    // Two or three operands are by far the most common: no loop (and no closure per call).
    if (op === 'and') {
      if (!third) return (ctx) => first(ctx) && second(ctx);
      if (rest.length === 0) return (ctx) => first(ctx) && second(ctx) && third(ctx);
      return (ctx) => {
        for (const operand of operands) if (!operand(ctx)) return false;
        return true;
      };
    }
    if (!third) return (ctx) => first(ctx) || second(ctx);
    if (rest.length === 0) return (ctx) => first(ctx) || second(ctx) || third(ctx);
    return (ctx) => {
      for (const operand of operands) if (operand(ctx)) return true;
      return false;
    };
  }

  /** An Array<Bool> expression (over `[*]`), element by element. */
  tests(node: TypedExpression): Tests {
    switch (node.kind) {
      case 'comparison': {
        const all = this.elements(node.lhs);
        const check = this.check(node);
        return (ctx) => all(ctx).map(check);
      }
      case 'predicate': {
        if (node.value.mapped) {
          const all = this.elements(node.value);
          return (ctx) => all(ctx).map((value) => value === true);
        }
        const read = this.value(node.value);
        return (ctx) => {
          const value = read(ctx);
          return Array.isArray(value) ? value.map((item) => item === true) : undefined;
        };
      }
      case 'not': {
        const operand = this.tests(node.operand);
        return (ctx) => operand(ctx)?.map((item) => !item);
      }
      case 'logical': {
        const operands = node.operands.map((operand) => this.tests(operand));
        const combine =
          node.op === 'and'
            ? (a: boolean, b: boolean) => a && b
            : node.op === 'or'
              ? (a: boolean, b: boolean) => a || b
              : (a: boolean, b: boolean) => a !== b;
        // Element-wise; the result is as long as the shortest operand (a missing one counts as empty).
        return (ctx) => {
          const results = operands.map((operand) => operand(ctx) ?? []);
          const length = Math.min(...results.map((r) => r.length));
          return Array.from({ length }, (_, i) =>
            results
              .slice(1)
              .reduce((acc, r) => combine(acc, r[i] as boolean), (results[0] as boolean[])[i] as boolean),
          );
        };
      }
      case 'quantifier':
        throw new Error('compile: a quantifier is a Bool, not an Array<Bool>');
    }
  }

  // ---- values ----

  /** A value that is not mapped. */
  value(node: TypedValue): Read {
    switch (node.kind) {
      case 'field': {
        // A constant (`true`, "match everything") is its definition's value, whatever the input holds.
        const { constant } = node.definition;
        if (constant !== undefined) return () => constant;
        const slot = this.slot(node.name);
        return (ctx) => ctx.get(slot);
      }
      case 'index': {
        const entry = this.mapEntry(node);
        if (entry) return entry;
        const target = this.value(node.target);
        const select = selector(node.index);
        return (ctx) => {
          const value = target(ctx);
          return value === undefined ? undefined : select(value);
        };
      }
      case 'call': {
        const compute = this.call(node);
        const key = valueKey(node);
        // Calls are pure: the same call on the same request gives the same value, computed once. Except a
        // test of fields and literals (`starts_with(http.request.uri.path, "/api/")`): cheap, and each rule
        // writes its own, so its slot would only lengthen every request's context (made per request).
        const slot = key === undefined || isTestOfFields(node) ? undefined : this.layout.computedSlotOf(key);
        if (slot === undefined) return compute;
        return (ctx) => ctx.computed(slot, compute);
      }
    }
  }

  /**
   * `field["key"]` of a map field that a request's message gives entry by entry (the headers): read
   * without deriving the whole map, unless the request's context has it already.
   */
  private mapEntry(node: Extract<TypedValue, { kind: 'index' }>): Read | undefined {
    const { target, index } = node;
    if (target.kind !== 'field' || index.kind !== 'map-key' || target.definition.constant !== undefined)
      return undefined;
    const entry = mapEntryDeriver(target.name, index.key);
    if (!entry) return undefined;
    const slot = this.slot(target.name);
    const { key } = index;
    return (ctx) => {
      const known = ctx.values[slot];
      // A context's input is a sample request or a map of field values (FieldValues, a ReadonlyMap).
      if (known === undefined && !(ctx.input instanceof Map)) return entry(ctx.input as SampleRequest);
      const map = known === undefined ? ctx.get(slot) : known;
      return map instanceof Map ? map.get(key) : undefined;
    };
  }

  slot(name: string): number {
    const slot = this.layout.slotOf(name);
    this.usedSlots.add(slot);
    return slot;
  }

  /** The element values of a mapped value (one with `[*]`). */
  elements(node: TypedValue): ReadAll {
    if (!node.mapped) {
      const read = this.value(node);
      return (ctx) => {
        const value = read(ctx);
        return value === undefined ? [] : [value];
      };
    }
    const index = node as Extract<TypedValue, { kind: 'index' }>;
    if (index.index.kind === 'map-each') {
      if (index.target.mapped) {
        const all = this.elements(index.target);
        return (ctx) => all(ctx).flatMap(itemsOf);
      }
      const read = this.value(index.target);
      return (ctx) => {
        const value = read(ctx);
        return value === undefined ? [] : itemsOf(value);
      };
    }
    const all = this.elements(index.target);
    const select = selector(index.index);
    return (ctx) => {
      const out: Value[] = [];
      for (const item of all(ctx)) {
        const selected = select(item);
        if (selected !== undefined) out.push(selected);
      }
      return out;
    };
  }

  private call(node: CallNode): Read {
    if (node.perElement) {
      const each = this.perElementCall(node);
      return (ctx) => {
        const out: Value[] = [];
        each(ctx, (result) => {
          out.push(result);
          return false;
        });
        return out;
      };
    }
    const implementation = this.implementation(node);
    const reads = node.args.map((_, i) => this.callArgument(node, i));
    // The arguments as an array literal of their number where calls have few (the managed rules make
    // thousands of calls a request; `map` cost a closure call per argument and a larger array).
    if (reads.length === 1) {
      const [only] = reads as [Read];
      return (ctx) => implementation([only(ctx)]);
    }
    if (reads.length === 2) {
      const [first, second] = reads as [Read, Read];
      return (ctx) => implementation([first(ctx), second(ctx)]);
    }
    if (reads.length === 3) {
      const [first, second, third] = reads as [Read, Read, Read];
      return (ctx) => implementation([first(ctx), second(ctx), third(ctx)]);
    }
    return (ctx) => implementation(reads.map((read) => read(ctx)));
  }

  private implementation(node: CallNode) {
    const runtime = functionRuntimes.get(node.name);
    if (!runtime) throw new Error(`compile: no implementation of function ${node.name}`);
    const literals = node.args.map((arg) => (arg.kind === 'literal' ? literalValue(arg) : undefined));
    const returnType = node.perElement ? (elementType(node.type) as Type) : node.type;
    return preparing(node.name, node.span, () =>
      runtime.prepare(literals, { returnType, regexEngine: this.functionRegexEngine }),
    );
  }

  /**
   * A call over `[*]`: the function runs once per element of its first argument (the other arguments are
   * read once), and `visit` gets each result that is not missing, until it returns true (then: true).
   */
  perElementCall(node: CallNode): (ctx: RequestContext, visit: (result: Value) => boolean) => boolean {
    const implementation = this.implementation(node);
    const all = this.elements(node.args[0] as TypedValue);
    const rest = node.args.slice(1).map((_, i) => this.callArgument(node, i + 1));
    return (ctx, visit) => {
      // One argument array for every element: implementations read their arguments, never keep them.
      const call: (Value | undefined)[] = [undefined, ...rest.map((read) => read(ctx))];
      for (const item of all(ctx)) {
        call[0] = item;
        const result = implementation(call);
        if (result !== undefined && visit(result)) return true;
      }
      return false;
    };
  }

  /** Argument `i` of a call, as its parameter says the implementation receives it. */
  private callArgument(node: CallNode, i: number): Read {
    const arg = node.args[i] as TypedArgument;
    return parameterAt(node.definition, i)?.namesField ? this.namedField(arg) : this.argument(arg);
  }

  /**
   * The value of the field a literal names (bit_slice's `"tcp"`: the Network Firewall field of that name
   * holds the header's bytes); missing when the scheme has no such field.
   */
  private namedField(arg: TypedArgument): Read {
    const name = arg.kind === 'literal' ? String(arg.value) : '';
    if (!this.scheme.fields.has(name)) return () => undefined;
    const slot = this.slot(name);
    return (ctx) => ctx.get(slot);
  }

  private argument(arg: TypedArgument): Read {
    switch (arg.kind) {
      case 'literal': {
        const value = literalValue(arg);
        return () => value;
      }
      case 'field':
      case 'index':
      case 'call':
        return this.value(arg);
      default: {
        if (isBoolArray(arg)) {
          const tests = this.tests(arg);
          return (ctx) => tests(ctx);
        }
        return this.test(arg);
      }
    }
  }

  // ---- comparisons ----

  /** The test of one value against the right-hand side, specialised by operator and literal. */
  check(node: TypedComparison): Check {
    const { op, rhs } = node;
    switch (rhs.kind) {
      case 'bytes':
      case 'int':
      case 'ip':
        return valueCheck(op, rhs);
      case 'regex': {
        const regex = orUncompilable(rhs.span, () => this.regexEngine.compile(rhs.pattern));
        return (value) => regex.test(value as string);
      }
      case 'wildcard': {
        const parsed = parseWildcard(rhs.pattern);
        const parts: WildcardPart[] = parsed.ok ? parsed.parts : [];
        const match = wildcardMatcher(parts, rhs.strict);
        return (value) => match(value as string);
      }
      case 'bytes-set': {
        const items = new Set(rhs.items.map((item) => item.value));
        return (value) => items.has(value as string);
      }
      case 'int-set': {
        return intRangeSet(rhs.items).matcher() as Check;
      }
      case 'ip-set': {
        return new IpSet(rhs.items as IpRange[]).matcher() as Check;
      }
      case 'list': {
        // Own properties only: a list named `__proto__` or `constructor` must not reach Object.prototype.
        const items = Object.hasOwn(this.listItems, rhs.name) ? this.listItems[rhs.name] : undefined;
        return listMatcher(rhs.list.kind, items ?? [], rhs.name);
      }
    }
  }
}

/** Reads one element of an array or one key of a map; anything else is missing. */
function selector(
  index: Extract<TypedValue, { kind: 'index' }>['index'],
): (value: Value) => Value | undefined {
  if (index.kind === 'array-index') {
    const i = index.index;
    return (value) => (Array.isArray(value) ? value[i] : undefined);
  }
  if (index.kind === 'map-key') {
    const key = index.key;
    return (value) => (value instanceof Map ? value.get(key) : undefined);
  }
  return (value) => value;
}

/** The items of an array, or the values of a map in the order of their keys (as the reference's BTreeMap). */
export function itemsOf(value: Value): Value[] {
  if (Array.isArray(value)) return value;
  if (value instanceof Map) {
    const keys = [...value.keys()].sort();
    return keys.map((key) => value.get(key) as Value);
  }
  return [];
}

function literalValue(arg: TypedLiteralArgument): Value {
  if (arg.type === 'Ip') return arg.address as IpAddress;
  if (arg.type === 'Int') return Number(arg.value as bigint);
  return arg.value as string;
}

export type { TypedRhs };

/** A Bool call whose arguments are fields and literals only. */
const isTestOfFields = (node: TypedCall): boolean =>
  node.type === 'Bool' && node.args.every((arg) => arg.kind === 'field' || arg.kind === 'literal');
