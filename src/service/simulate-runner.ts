import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { CompiledZones, runSimulation, type SimulationAnswer, type SimulationJob } from './simulate-run.js';

/** Runs simulation jobs, off the event loop when it can. */
export interface SimulationRunner {
  run(job: SimulationJob): Promise<SimulationAnswer>;
  close(): Promise<void>;
}

/** The worker's script, beside the bundle that holds this module (dist/simulate-worker.js). */
const WORKER_SCRIPT = new URL('./simulate-worker.js', import.meta.url);

/**
 * A worker thread when the built worker script is there (dist/, what ships), else this thread (running
 * from the TypeScript sources, as the API tests do), where each job still waits for the event loop's
 * pending work before it starts.
 */
export function simulationRunner(): SimulationRunner {
  return existsSync(fileURLToPath(WORKER_SCRIPT)) ? new WorkerRunner(WORKER_SCRIPT) : new InThreadRunner();
}

export class InThreadRunner implements SimulationRunner {
  private readonly zones = new CompiledZones();

  async run(job: SimulationJob): Promise<SimulationAnswer> {
    await new Promise((resolve) => setImmediate(resolve));
    return runSimulation(job, this.zones);
  }

  async close(): Promise<void> {}
}

interface Pending {
  resolve: (answer: SimulationAnswer) => void;
  reject: (error: Error) => void;
}

/**
 * One worker thread, started on the first job and started again after a failure; jobs queue in it. It
 * does not keep the process alive (a service that closes does not wait for it).
 */
export class WorkerRunner implements SimulationRunner {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;

  constructor(private readonly script: URL) {}

  async run(job: SimulationJob): Promise<SimulationAnswer> {
    const worker = this.started();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ id, job });
    });
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(this.script);
    worker.unref();
    worker.on(
      'message',
      ({ id, answer, error }: { id: number; answer?: SimulationAnswer; error?: string }) => {
        const pending = this.pending.get(id);
        this.pending.delete(id);
        if (answer) pending?.resolve(answer);
        else pending?.reject(new Error(`simulation worker: ${error}`));
      },
    );
    // A worker that dies (out of memory, say) fails the jobs it held; the next job starts another.
    const fail = (error: Error) => {
      if (this.worker === worker) this.worker = undefined;
      for (const { reject } of this.pending.values()) reject(error);
      this.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`simulation worker stopped (exit code ${code})`)));
    this.worker = worker;
    return worker;
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate();
  }
}
