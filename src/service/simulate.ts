import { pathSegments, readSampleRequest } from '../request/index.js';
import type { Store, TableName, ZoneRecord } from '../store/store.js';
import { type ApiMessage, at, CODES, ServiceError } from './errors.js';
import { BodyObject, childPlace, invalid, type Place, rootPlace } from './input.js';
import { type BoundedResult, SIMULATE_ANSWER_BYTES } from './simulate-answer.js';
import { InThreadRunner, type SimulationRunner } from './simulate-runner.js';
import { zoneFileFromStore } from './zone-file.js';

/**
 * `POST /zones/{zone_id}/simulate` (a cfrules extension, docs/api.md §12): which rules of the zone's stored
 * configuration fire on sample requests (docs/request.md), as the engine answers for the zone file that
 * `cfrules export zone` would write. The zone file is kept until the zone's configuration changes, and the
 * runner keeps the zone it compiled from it under the same key.
 */

export const SIMULATE_LIMITS = { requests: 100 } as const;

/** Every table the zone file is read from: a write to any of them recompiles the zone. */
const ZONE_TABLES: readonly TableName[] = [
  'zones',
  'filters',
  'firewallRules',
  'rulesets',
  'accountRulesets',
  'wafSettings',
  'wafOverrides',
  'pageRules',
  'wafMigrations',
];

const BODY_KEYS = ['request', 'requests', 'trace'];

/** Zone files kept at once; past it the cache starts afresh (a service has few zones). */
const MAX_ZONE_FILES = 100;

export interface SimulateOptions {
  /** Runs the jobs (a worker thread in the service as it ships; ./simulate-runner.ts). */
  runner?: SimulationRunner;
  /** The answer's budget in bytes of JSON (SIMULATE_ANSWER_BYTES by default). */
  answerBytes?: number;
}

export class SimulateService {
  /** Each zone's file for the store's current generation, with its job key. */
  private readonly zoneFiles = new Map<string, { key: string; file: unknown }>();
  private generation: number | undefined;
  private readonly runner: SimulationRunner;
  private readonly answerBytes: number;

  constructor(
    private readonly store: Store,
    options: SimulateOptions = {},
  ) {
    this.runner = options.runner ?? new InThreadRunner();
    this.answerBytes = options.answerBytes ?? SIMULATE_ANSWER_BYTES;
  }

  /**
   * Body `{"request": {...}}` → one result; `{"requests": [...]}` (1 to 100) → an array, in order.
   * `trace: false` leaves the traces out. The zone is compiled and the requests run by the runner, off
   * the event loop; each result is kept within its share of the answer's budget (./simulate-answer.ts).
   */
  async simulate(zone: ZoneRecord, body: unknown): Promise<BoundedResult | BoundedResult[]> {
    const { requests, single, trace } = readBody(body);
    const { key, file } = await this.zoneFile(zone);
    const answer = await this.runner.run({
      key,
      zoneFile: file,
      requests,
      trace,
      answerBytes: this.answerBytes,
    });
    if (!answer.ok) {
      // The service stores only what its checks accept, so this is the engine refusing a stored zone.
      throw new ServiceError(
        'bad-request',
        answer.problems.map(
          (problem): ApiMessage =>
            at(
              CODES.zoneNotSimulable,
              `the zone's configuration cannot be simulated: ${problem.path || '/'}: ${problem.message} (${problem.code})`,
            ),
        ),
      );
    }
    return single ? (answer.results[0] as BoundedResult) : answer.results;
  }

  async close(): Promise<void> {
    return this.runner.close();
  }

  private async zoneFile(zone: ZoneRecord): Promise<{ key: string; file: unknown }> {
    const generation = this.currentGeneration();
    const kept = this.zoneFiles.get(zone.id);
    if (kept) return kept;
    const file = await this.store.transaction((tx) => zoneFileFromStore(tx, zone));
    const read = { key: `${zone.id}@${generation}`, file };
    // Kept only if nothing was written while it was read (it may hold rows of before that write).
    if (this.currentGeneration() === generation) {
      if (this.zoneFiles.size >= MAX_ZONE_FILES) this.zoneFiles.clear();
      this.zoneFiles.set(zone.id, read);
    }
    return read;
  }

  /** The store's generation of the zone's tables, after forgetting the zone files if it moved. */
  private currentGeneration(): number {
    const generation = this.store.generation(ZONE_TABLES);
    if (generation !== this.generation) {
      this.zoneFiles.clear();
      this.generation = generation;
    }
    return generation;
  }
}

function readBody(body: unknown): { requests: unknown[]; single: boolean; trace: boolean } {
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

/**
 * A sample request, checked (its problems reported each with its JSON pointer, `/requests/3/url`) and
 * given back as the body had it: the runner reads it again where it runs.
 */
function readRequest(json: unknown, place: Place): unknown {
  const read = readSampleRequest(json);
  if (read.ok) return json;
  throw new ServiceError(
    'bad-request',
    read.problems.map((problem) => {
      const pointer = pathSegments(problem.path).reduce(childPlace, place).pointer;
      return at(CODES.invalidSimulation, problem.message, pointer);
    }),
  );
}
