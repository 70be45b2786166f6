import { compileZone } from '../engine/index.js';
import type { SimulationResult } from '../engine/outcome.js';
import type { CompiledZone } from '../engine/zone/types.js';
import { pathSegments, readSampleRequest, type SampleRequest } from '../request/index.js';
import type { Store, TableName, ZoneRecord } from '../store/store.js';
import { type ApiMessage, at, CODES, ServiceError } from './errors.js';
import { BodyObject, childPlace, invalid, type Place, rootPlace } from './input.js';
import { zoneFileFromStore } from './zone-file.js';

/**
 * `POST /zones/{zone_id}/simulate` (a cfrules extension, docs/api.md §12): which rules of the zone's stored
 * configuration fire on sample requests (docs/request.md), as the engine answers for the zone file that
 * `cfrules export zone` would write. The compiled zone is kept until the zone's configuration changes (not
 * in a StoreCache, which freezes what it keeps: a compiled zone is not plain data).
 */

export const SIMULATE_LIMITS = { requests: 100 } as const;

/** Every table the zone file is read from: a write to any of them recompiles the zone. */
const ZONE_TABLES: readonly TableName[] = [
  'zones',
  'filters',
  'firewallRules',
  'rulesets',
  'wafSettings',
  'wafOverrides',
  'pageRules',
  'wafMigrations',
];

const BODY_KEYS = ['request', 'requests', 'trace'];

/** Compiled zones kept at once; past it the cache starts afresh (a service has few zones). */
const MAX_COMPILED = 100;

export class SimulateService {
  private readonly compiled = new Map<string, CompiledZone>();
  private generation: number | undefined;

  constructor(private readonly store: Store) {}

  /**
   * Body `{"request": {...}}` → one SimulationResult; `{"requests": [...]}` (1 to 100) → an array, in
   * order. `trace: false` leaves the traces out.
   */
  simulate(zone: ZoneRecord, body: unknown): SimulationResult | SimulationResult[] {
    const { requests, single, trace } = readBody(body);
    const compiled = this.compiledZone(zone);
    const results = requests.map((request) => compiled.simulate(request, { trace }));
    return single ? (results[0] as SimulationResult) : results;
  }

  private compiledZone(zone: ZoneRecord): CompiledZone {
    const generation = this.store.generation(ZONE_TABLES);
    if (generation !== this.generation) {
      this.compiled.clear();
      this.generation = generation;
    }
    const kept = this.compiled.get(zone.id);
    if (kept) return kept;
    const file = this.store.transaction((tx) => zoneFileFromStore(tx, zone));
    const result = compileZone(file);
    if (!result.ok) {
      // The service stores only what its checks accept, so this is the engine refusing a stored zone.
      throw new ServiceError(
        'bad-request',
        result.problems.map(
          (problem): ApiMessage =>
            at(
              CODES.zoneNotSimulable,
              `the zone's configuration cannot be simulated: ${problem.path || '/'}: ${problem.message} (${problem.code})`,
            ),
        ),
      );
    }
    if (this.compiled.size >= MAX_COMPILED) this.compiled.clear();
    this.compiled.set(zone.id, result.zone);
    return result.zone;
  }
}

function readBody(body: unknown): { requests: SampleRequest[]; single: boolean; trace: boolean } {
  const root = rootPlace(CODES.invalidSimulation);
  const object = BodyObject.read(body, root, 'the request body');
  for (const key of Object.keys(object.rawValue())) {
    if (!BODY_KEYS.includes(key)) {
      throw invalid(
        childPlace(root, key),
        `unknown member ${key}: the body has request or requests, and trace`,
      );
    }
  }
  const trace = object.boolean('trace') ?? true;
  if (object.has('request') === object.has('requests')) {
    throw invalid(root, 'give either request (one sample request) or requests (an array of them)');
  }
  if (object.has('request')) {
    return {
      requests: [readRequest(object.get('request'), childPlace(root, 'request'))],
      single: true,
      trace,
    };
  }
  const list = object.get('requests');
  const place = childPlace(root, 'requests');
  if (!Array.isArray(list) || list.length === 0) throw invalid(place, 'requests must be a non-empty array');
  if (list.length > SIMULATE_LIMITS.requests) {
    throw invalid(
      place,
      `at most ${SIMULATE_LIMITS.requests} requests can be simulated at once; got ${list.length}`,
      CODES.tooManySimulations,
    );
  }
  return {
    requests: list.map((item, index) => readRequest(item, childPlace(place, index))),
    single: false,
    trace,
  };
}

/** A sample request; its problems are reported each with its JSON pointer (`/requests/3/url`). */
function readRequest(json: unknown, place: Place): SampleRequest {
  const read = readSampleRequest(json);
  if (read.ok) return read.request;
  throw new ServiceError(
    'bad-request',
    read.problems.map((problem) => {
      const pointer = pathSegments(problem.path).reduce(childPlace, place).pointer;
      return at(CODES.invalidSimulation, problem.message, pointer);
    }),
  );
}
