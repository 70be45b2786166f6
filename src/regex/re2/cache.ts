// RE2 (re2-wasm): the evaluator's own instance, a bounded LRU cache of compiled patterns, and recovery when
// the fixed 16 MiB heap runs out
import { isHeapFailure, loadRe2, type Re2Class, type Re2Match, type Re2Object } from './module.js';

/** A compiled pattern in the cache; `wrapper` is undefined once evicted (and deleted). */
interface Entry {
  source: string;
  cost: number;
  wrapper: Re2Object | undefined;
}

/** A caller's reference to a pattern: the entry it last used, compiled again when evicted. */
export interface Slot {
  readonly source: string;
  /** Estimated heap bytes of the compiled pattern (translate.ts). */
  readonly cost: number;
  entry?: Entry;
}

export interface RegexCacheStats {
  /** Compiled patterns alive in RE2's heap. */
  size: number;
  capacity: number;
  /** RE2 compilations so far (a pattern evicted and used again is compiled again). */
  compiled: number;
  /** Patterns evicted so far (freed, or dropped with their heap after an abort). */
  evicted: number;
}

/**
 * Default capacity. Measured (bench/regex.ts): the 16 MiB heap holds about 7,300 compiled
 * `^(\d+)\.(\d+)-N$` (2.2 KiB each), 2,200 `(?i)^/(wp-admin|api/vN|static)/[a-z0-9_]+\.(php|js)$` (7.4 KiB)
 * or 600 `(?u)\w+` (27 KiB); and every pattern's DFA grows as it matches varied input, to megabytes for
 * some. 1,000 typical patterns take 2–8 MiB.
 */
export const DEFAULT_CAPACITY = 1000;
/**
 * Estimated bytes the cached patterns may take together, whatever their number: heavy patterns (Unicode
 * classes, long literals) are evicted sooner, so that about half the heap stays free for DFAs.
 */
const HEAP_BUDGET = 8 * 1024 * 1024;

let re2: Re2Class | undefined;
/** Compiled patterns by RE2 source, least recently used first (a use moves its entry to the end). */
const entries = new Map<string, Entry>();
let lastUsed: Entry | undefined;
let capacity = DEFAULT_CAPACITY;
let totalCost = 0;
let compiled = 0;
let evicted = 0;

export function cacheStats(): RegexCacheStats {
  return { size: entries.size, capacity, compiled, evicted };
}

export function setCapacity(value: number): void {
  if (!Number.isInteger(value) || value < 1) {
    throw new RangeError(`regex cache capacity must be a positive integer, got ${value}`);
  }
  capacity = value;
  while (entries.size > capacity) evictOldest();
}

/**
 * Runs RE2's match for a slot's pattern on text already in the pattern's representation. re2-wasm aborts
 * when its heap is exhausted (no failed malloc to recover from), and an abort can leave memory that nothing
 * will free; so the cache starts over on a fresh instance (every pattern dropped, compiled again on use)
 * and tries once more. If the pattern cannot run even alone, the error says so.
 */
export function re2Match(slot: Slot, text: string, groups: boolean): Re2Match {
  try {
    return wrapperOf(slot).match(text, 0, groups);
  } catch (err) {
    if (!isHeapFailure(err)) throw err;
    restart();
  }
  try {
    return wrapperOf(slot).match(text, 0, groups);
  } catch (err) {
    if (!isHeapFailure(err)) throw err;
    restart();
    throw new Error(
      `RE2 ran out of memory evaluating the regex ${JSON.stringify(slot.source)} on its own ` +
        "(re2-wasm's heap is a fixed 16 MiB)",
    );
  }
}

function wrapperOf(slot: Slot): Re2Object {
  let entry = slot.entry;
  if (!entry?.wrapper) {
    entry = entries.get(slot.source) ?? insert(slot.source, slot.cost);
    slot.entry = entry;
  }
  // Touch: move to the young end of the Map, unless it is already there.
  if (entry !== lastUsed) {
    entries.delete(entry.source);
    entries.set(entry.source, entry);
    lastUsed = entry;
  }
  return entry.wrapper as Re2Object;
}

function insert(source: string, cost: number): Entry {
  while (entries.size > 0 && (entries.size >= capacity || totalCost + cost > HEAP_BUDGET)) evictOldest();
  re2 ??= loadRe2();
  const wrapper = new re2(source, false, false, false);
  compiled++;
  if (!wrapper.ok()) {
    const message = wrapper.error();
    wrapper.delete();
    throw new Error(`RE2 rejected the regex ${JSON.stringify(source)}: ${message}`);
  }
  const entry = { source, cost, wrapper };
  entries.set(source, entry);
  totalCost += cost;
  return entry;
}

function evictOldest(): void {
  const oldest = entries.values().next().value;
  if (oldest) evict(oldest);
}

function evict(entry: Entry): void {
  entries.delete(entry.source);
  if (lastUsed === entry) lastUsed = undefined;
  totalCost -= entry.cost;
  entry.wrapper?.delete();
  entry.wrapper = undefined;
  evicted++;
}

/** Drops every pattern and the instance itself (its whole heap goes with it: no delete needed). */
function restart(): void {
  for (const entry of entries.values()) entry.wrapper = undefined;
  evicted += entries.size;
  entries.clear();
  lastUsed = undefined;
  totalCost = 0;
  re2 = undefined;
}
