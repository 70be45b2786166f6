import type { RuleName, RulesetTrace, RuleTrace, SimulationResult, StageTrace } from '../engine/outcome.js';

/**
 * The bound on what `POST /zones/{id}/simulate` answers (docs/api.md §12). A trace lists every rule the
 * zone holds, with its expression, for every request: a zone of a thousand 2 KB rules answers 2 MB per
 * request, a quarter of a gigabyte for a hundred. Each result gets an equal share of the answer's budget
 * and is cut, in steps, until its JSON fits it; what was left out is said in the result's `truncated`.
 */

/** The answer's budget: the JSON of every result together stays within it. */
export const SIMULATE_ANSWER_BYTES = 8 * 1024 * 1024;

/** What a cut result lost, in the order the cuts are made. */
export type LeftOut = 'expressions' | 'unmatched_rules' | 'trace' | 'matched';

export interface Truncation {
  /** The result's share of the answer, in bytes of JSON. */
  limit: number;
  /** What was left out to fit it, each step adding to the previous ones. */
  omitted: LeftOut[];
  /** Rule entries left out of the trace (`unmatched_rules`). */
  rules?: number;
  /** How many rules matched in all, when `matched` lists only the first of them. */
  matched?: number;
}

export type BoundedResult = SimulationResult & { truncated?: Truncation };

type TraceNode = StageTrace | RulesetTrace | RuleTrace;

/** The result as it fits `limit` bytes of JSON: whole when it does, cut step by step otherwise. */
export function boundedResult(result: SimulationResult, limit: number): BoundedResult {
  if (fitsIn(result, limit)) return result;
  const omitted: LeftOut[] = ['expressions'];
  const truncated: Truncation = { limit, omitted };
  let cut: BoundedResult = { ...result, trace: result.trace.map(withoutExpressions), truncated };
  if (fitsIn(cut, limit)) return cut;

  omitted.push('unmatched_rules');
  const counter = { rules: 0 };
  cut = { ...cut, trace: cut.trace.map((stage) => notableOnly(stage, counter) as StageTrace) };
  truncated.rules = counter.rules;
  if (fitsIn(cut, limit)) return cut;

  omitted.push('trace');
  cut = { ...cut, trace: [] };
  if (fitsIn(cut, limit)) return cut;

  // Even the list of matched rules is too long: as many of the first as fit, and how many there were.
  omitted.push('matched');
  truncated.matched = result.matched.length;
  const matched: RuleName[] = [];
  cut = { ...cut, matched };
  for (const rule of result.matched) {
    matched.push(rule);
    if (!fitsIn(cut, limit)) {
      matched.pop();
      break;
    }
  }
  return cut;
}

function withoutExpressions<Node extends TraceNode>(node: Node): Node {
  if (node.type === 'rule') {
    const { expression: _, trace, ...rest } = node;
    return (trace ? { ...rest, trace: trace.map(withoutExpressions) } : rest) as Node;
  }
  return { ...node, trace: node.trace.map(withoutExpressions) };
}

/**
 * The trace without the rules that tell nothing about this request: those that ran and did not match.
 * Kept: rules that matched, that did not run and why, that ended evaluation, that scored, and the
 * rulesets and stages that hold any of them (stages always: they say what was evaluated or skipped).
 */
function notableOnly(node: TraceNode, counter: { rules: number }): TraceNode | undefined {
  if (node.type === 'rule') {
    const trace = node.trace
      ?.map((child) => notableOnly(child, counter))
      .filter((child): child is TraceNode => child !== undefined) as (RulesetTrace | RuleTrace)[] | undefined;
    const notable =
      node.matched ||
      node.notRun ||
      node.terminated ||
      node.score ||
      (trace !== undefined && trace.length > 0);
    if (!notable) {
      counter.rules++;
      return undefined;
    }
    return trace ? { ...node, trace } : node;
  }
  const trace = node.trace
    .map((child) => notableOnly(child, counter))
    .filter((child): child is RulesetTrace | RuleTrace => child !== undefined);
  if (node.type === 'ruleset' && trace.length === 0 && !node.score) return undefined;
  return { ...node, trace };
}

/** Whether JSON.stringify(value) has at most `limit` characters, found without building it. */
export function fitsIn(value: unknown, limit: number): boolean {
  return jsonLength(value, limit) <= limit;
}

/**
 * The length of JSON.stringify(value) — for the plain data of results: objects, arrays, strings, numbers,
 * booleans, null, undefined members — or a number above `limit` as soon as it is sure to exceed it, so
 * that measuring a 2 MB trace against an 80 kB share reads 80 kB of it, not 2 MB.
 */
export function jsonLength(value: unknown, limit: number): number {
  let length = 0;
  const visit = (item: unknown): void => {
    if (length > limit) return;
    if (typeof item === 'string') length += stringLength(item);
    else if (typeof item === 'number') length += Number.isFinite(item) ? String(item).length : 4;
    else if (typeof item === 'boolean') length += item ? 4 : 5;
    else if (item === null || item === undefined) length += 4;
    else if (Array.isArray(item)) {
      length += 2;
      for (let i = 0; i < item.length && length <= limit; i++) {
        if (i > 0) length += 1;
        visit(item[i]);
      }
    } else if (typeof item === 'object') {
      length += 2;
      let members = 0;
      for (const [key, member] of Object.entries(item)) {
        if (member === undefined || typeof member === 'function') continue;
        length += (members++ > 0 ? 1 : 0) + stringLength(key) + 1;
        visit(member);
        if (length > limit) return;
      }
    }
  };
  visit(value);
  return length;
}

/** The length of a string in JSON: its quotes, and each character as JSON.stringify escapes it. */
function stringLength(text: string): number {
  let length = text.length + 2;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x22 || code === 0x5c || code === 0x08 || code === 0x09 || code === 0x0a) length += 1;
    else if (code === 0x0c || code === 0x0d) length += 1;
    else if (code < 0x20) length += 5;
    else if (code >= 0xd800 && code <= 0xdfff) {
      // A surrogate pair is written as it is; a lone surrogate as \uXXXX.
      const pairs =
        code <= 0xdbff
          ? i + 1 < text.length && isLowSurrogate(text.charCodeAt(i + 1))
          : i > 0 && isHighSurrogate(text.charCodeAt(i - 1));
      if (!pairs) length += 5;
    }
  }
  return length;
}

const isHighSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number): boolean => code >= 0xdc00 && code <= 0xdfff;
