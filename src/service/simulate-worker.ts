// The simulation worker thread (bundled as dist/simulate-worker.js): runs the jobs of
// `POST /zones/{id}/simulate` one after another, with the zones it compiled kept between jobs, so that the
// service's event loop answers other requests while a large zone is compiled or simulated.
import { parentPort } from 'node:worker_threads';
import { CompiledZones, runSimulation, type SimulationJob } from './simulate-run.js';

const port = parentPort;
if (port) {
  const zones = new CompiledZones();
  port.on('message', ({ id, job }: { id: number; job: SimulationJob }) => {
    try {
      port.postMessage({ id, answer: runSimulation(job, zones) });
    } catch (error) {
      port.postMessage({
        id,
        error: error instanceof Error ? (error.stack ?? error.message) : String(error),
      });
    }
  });
}
