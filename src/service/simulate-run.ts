import { compileZone } from '../engine/index.js';
import type { CompiledZone, ZoneProblem } from '../engine/zone/types.js';
import { readSampleRequest } from '../request/index.js';
import { type BoundedResult, boundedResult } from './simulate-answer.js';

/**
 * One call of `POST /zones/{id}/simulate`, as plain data, so that it can run in a worker thread
 * (./simulate-runner.ts): the zone file, the sample requests as the body gave them (already checked), and
 * the budget of the answer.
 */
export interface SimulationJob {
  /** Names the zone's configuration: the same key, the same zone file (the zone's id and the store's generation). */
  key: string;
  zoneFile: unknown;
  requests: unknown[];
  trace: boolean;
  answerBytes: number;
}

export type SimulationAnswer =
  | { ok: true; results: BoundedResult[] }
  | { ok: false; problems: readonly ZoneProblem[] };

/** Compiled zones kept at once; past it the cache starts afresh (a service has few zones). */
const MAX_COMPILED = 100;

/** The compiled zones of one thread, by job key. */
export class CompiledZones {
  private readonly zones = new Map<string, CompiledZone>();

  get(job: SimulationJob): { zone: CompiledZone } | { problems: readonly ZoneProblem[] } {
    const kept = this.zones.get(job.key);
    if (kept) return { zone: kept };
    const result = compileZone(job.zoneFile);
    if (!result.ok) return { problems: result.problems };
    if (this.zones.size >= MAX_COMPILED) this.zones.clear();
    this.zones.set(job.key, result.zone);
    return { zone: result.zone };
  }
}

/** Runs a job: each result within its equal share of the answer's budget. */
export function runSimulation(job: SimulationJob, zones: CompiledZones): SimulationAnswer {
  const compiled = zones.get(job);
  if ('problems' in compiled) return { ok: false, problems: compiled.problems };
  const share = Math.floor(job.answerBytes / Math.max(1, job.requests.length));
  const results = job.requests.map((json) => {
    const read = readSampleRequest(json);
    // The service read every request before sending the job: a refusal here is a bug, not bad input.
    if (!read.ok) throw new Error('simulate: a sample request the service accepted is refused');
    return boundedResult(compiled.zone.simulate(read.request, { trace: job.trace }), share);
  });
  return { ok: true, results };
}
