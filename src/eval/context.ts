import type { Scheme } from '../scheme/scheme.js';
import { fieldDeriver, type SampleRequest } from './request.js';
import type { Value } from './values.js';

/** Field values given directly, by field name (what a custom scheme's users pass). */
export type FieldValues = ReadonlyMap<string, Value>;

/** What an expression is evaluated against. */
export type EvaluationInput = SampleRequest | FieldValues | RequestContext;

/** Marks a slot whose value has not been derived yet (undefined means "missing"). */
const UNSET: unique symbol = Symbol('unset');

/**
 * Every field of a scheme gets a slot number, fixed when a filter is compiled, so that reading a field at
 * run time is an array access (the reference engine does the same, for a reported 2× speed-up).
 */
export class FieldLayout {
  private readonly slots = new Map<string, number>();
  readonly names: string[] = [];
  private readonly derivers: ((request: SampleRequest) => Value | undefined)[] = [];

  slotOf(name: string): number {
    let slot = this.slots.get(name);
    if (slot === undefined) {
      slot = this.names.length;
      this.slots.set(name, slot);
      this.names.push(name);
      this.derivers.push(fieldDeriver(name));
    }
    return slot;
  }

  /** The context of one request: values are derived on first use, once. */
  context(input: SampleRequest | FieldValues): RequestContext {
    return new RequestContext(this, input);
  }

  derive(slot: number, input: SampleRequest | FieldValues): Value | undefined {
    if (input instanceof Map) return input.get(this.names[slot] as string);
    return (this.derivers[slot] as (request: SampleRequest) => Value | undefined)(input as SampleRequest);
  }
}

/**
 * One request's field values, derived lazily and cached: several filters (a whole ruleset) evaluated on
 * one context derive each field at most once.
 */
export class RequestContext {
  private readonly values: (Value | undefined | typeof UNSET)[] = [];

  constructor(
    readonly layout: FieldLayout,
    readonly input: SampleRequest | FieldValues,
  ) {}

  get(slot: number): Value | undefined {
    const known = this.values[slot];
    // Past the end reads undefined, which is also "missing": the length tells them apart.
    if (known !== UNSET && (known !== undefined || slot < this.values.length)) return known;
    return this.derive(slot);
  }

  private derive(slot: number): Value | undefined {
    const values = this.values;
    while (values.length <= slot) values.push(UNSET);
    const value = this.layout.derive(slot, this.input);
    values[slot] = value;
    return value;
  }
}

const layouts = new WeakMap<Scheme, FieldLayout>();

/** The layout shared by every filter of a scheme, so that their contexts are interchangeable. */
export function layoutFor(scheme: Scheme): FieldLayout {
  let layout = layouts.get(scheme);
  if (!layout) {
    layout = new FieldLayout();
    layouts.set(scheme, layout);
  }
  return layout;
}
