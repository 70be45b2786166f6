import { fieldDeriver, type SampleRequest } from '../request/index.js';
import type { Scheme } from '../scheme/scheme.js';
import type { Value } from '../scheme/values.js';

/** Field values given directly, by field name (what a custom scheme's users pass). */
export type FieldValues = ReadonlyMap<string, Value>;

/** What an expression is evaluated against. */
export type EvaluationInput = SampleRequest | FieldValues | RequestContext;

/** Stored for a field the request does not have: `undefined` in `values` means "not derived yet". */
export const MISSING: unique symbol = Symbol('missing');

const MAX_COMPUTED_SLOTS = 50_000;

/**
 * Every field of a scheme gets a slot number, fixed when a filter is compiled, so that reading a field at
 * run time is an array access (the reference engine does the same, for a reported 2× speed-up).
 */
export class FieldLayout {
  private readonly slots = new Map<string, number>();
  readonly names: string[] = [];
  private readonly derivers: ((request: SampleRequest) => Value | undefined)[] = [];
  /** Computed values (calls, by their value key: src/eval/value-key.ts) also get a slot each. */
  private readonly computedSlots = new Map<string, number>();

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

  /**
   * The slot of a computed value, by its key: the same for every filter that computes it. Undefined once
   * MAX_COMPUTED_SLOTS keys have slots: a long-running service compiles whatever expressions it is sent,
   * and the keys must not grow without bound (values without a slot are computed at each use).
   */
  computedSlotOf(key: string): number | undefined {
    let slot = this.computedSlots.get(key);
    if (slot === undefined) {
      if (this.computedSlots.size >= MAX_COMPUTED_SLOTS) return undefined;
      slot = this.computedSlots.size;
      this.computedSlots.set(key, slot);
    }
    return slot;
  }

  /** How many computed values have slots. */
  get computedCount(): number {
    return this.computedSlots.size;
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

/** A context's computed values before it has any (shared: never written, since its length is 0). */
const NO_COMPUTED_VALUES: (Value | typeof MISSING | undefined)[] = [];

/**
 * One request's field values, derived lazily and cached: several filters (a whole ruleset) evaluated on
 * one context derive each field at most once.
 */
export class RequestContext {
  /**
   * Values by slot: `undefined` until derived, then the value or MISSING. Compiled filters read it
   * directly (`values[slot] ?? derive(slot)`) and never write it.
   */
  readonly values: (Value | typeof MISSING | undefined)[];
  /**
   * Computed values by slot, as `values`: a call that many rules make with the same arguments (a WAF's
   * transformation of every argument, in hundreds of managed rules) runs once per request.
   */
  private computedValues: (Value | typeof MISSING | undefined)[] = NO_COMPUTED_VALUES;

  constructor(
    readonly layout: FieldLayout,
    readonly input: SampleRequest | FieldValues,
  ) {
    // Filled, not holey: reading a slot is then a plain load (slots added to the layout later append).
    this.values = new Array(layout.names.length).fill(undefined);
  }

  /** A field's value; undefined when the request does not have it. */
  get(slot: number): Value | undefined {
    const known = this.values[slot] ?? this.derive(slot);
    return known === MISSING ? undefined : known;
  }

  /** A computed value, computed on first use; undefined when missing. */
  computed(slot: number, compute: (context: RequestContext) => Value | undefined): Value | undefined {
    let values = this.computedValues;
    // Made at the first computed value a request asks for, as long as the layout's: the layout is the
    // scheme's, and a process that compiled the managed rulesets has a thousand slots that a zone of
    // firewall rules never reads. Filled, not holey: slots are met in any order.
    if (slot >= values.length) values = this.moreComputedValues(slot);
    let known = values[slot];
    if (known === undefined) {
      known = compute(this) ?? MISSING;
      values[slot] = known;
    }
    return known === MISSING ? undefined : known;
  }

  /** Room for `slot` and every slot of the layout, keeping the values computed so far. */
  private moreComputedValues(slot: number): (Value | typeof MISSING | undefined)[] {
    const values = new Array(Math.max(this.layout.computedCount, slot + 1)).fill(undefined);
    for (let i = 0; i < this.computedValues.length; i++) values[i] = this.computedValues[i];
    this.computedValues = values;
    return values;
  }

  /** Derives a slot's value, stores it and returns what is stored (MISSING for a missing value). */
  derive(slot: number): Value | typeof MISSING {
    const value = this.layout.derive(slot, this.input) ?? MISSING;
    this.values[slot] = value;
    return value;
  }
}

/**
 * The members of RequestContext that generated code (./generate.ts) reaches by name inside its source text,
 * where the compiler cannot see them. Each is checked against the class here, so that renaming one is a
 * type error rather than filters that fail at run time; the generated code stays plain property accesses.
 */
export const CONTEXT_MEMBERS = {
  layout: 'layout',
  values: 'values',
  derive: 'derive',
} as const satisfies { [K in keyof RequestContext]?: K };

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
