// A replay worker thread (bundled as dist/replay-worker.js): compiles the zone it is given (and the zone to
// compare with, if any), replays the batches of lines the main thread sends, and answers each with `done`,
// and `finish` with its tally (and comparison).
import { parentPort, workerData } from 'node:worker_threads';
import { type LineBatch, ReplayBatches } from './batch.js';

const port = parentPort;
if (port) {
  const batches = ReplayBatches.compiling(workerData.zone, workerData.compare);
  port.on('message', (message: { batch?: LineBatch; finish?: true }) => {
    if (message.batch) {
      batches.run(message.batch);
      port.postMessage({ done: true });
    } else if (message.finish) {
      port.postMessage({ result: batches.result() });
    }
  });
}
