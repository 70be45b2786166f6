import { Worker } from 'node:worker_threads';
import type { LineBatch, ReplayPart } from './batch.js';

/** Batches a worker may hold at once: one running, one waiting, so that no worker idles between two. */
const IN_FLIGHT = 2;

interface Member {
  worker: Worker;
  inFlight: number;
}

/**
 * Worker threads that replay batches of lines: each batch goes to the least busy worker, and `send`
 * waits while every worker is full, so that reading the input never runs ahead of replaying it (memory
 * stays bounded whatever the input's size).
 */
export class WorkerPool {
  private readonly members: Member[];
  private waiting: (() => void)[] = [];
  private failure?: Error;

  /** `zones`: the zone file, and the one to compare with (if any), which each worker compiles. */
  constructor(count: number, script: URL, zones: { zone: unknown; compare?: unknown }) {
    this.members = Array.from({ length: count }, () => {
      const member: Member = { worker: new Worker(script, { workerData: zones }), inFlight: 0 };
      member.worker.on('message', (message: { done?: true }) => {
        if (!message.done) return;
        member.inFlight--;
        this.wake();
      });
      member.worker.on('error', (error) => {
        this.failure = error;
        this.wake();
      });
      return member;
    });
  }

  private wake(): void {
    const waiting = this.waiting;
    this.waiting = [];
    for (const resolve of waiting) resolve();
  }

  private settled(): Promise<void> {
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private leastBusy(): Member {
    return this.members.reduce((best, member) => (member.inFlight < best.inFlight ? member : best));
  }

  /** Hands the batch to a worker that has room for it; false when none has. */
  trySend(batch: LineBatch): boolean {
    if (this.failure) throw this.failure;
    const member = this.leastBusy();
    if (member.inFlight >= IN_FLIGHT) return false;
    member.inFlight++;
    member.worker.postMessage({ batch }, [batch.data.buffer as ArrayBuffer]);
    return true;
  }

  async send(batch: LineBatch): Promise<void> {
    while (!this.trySend(batch)) await this.settled();
  }

  /** Waits for every batch, collects each worker's tally and stops the workers. */
  async finish(): Promise<ReplayPart[]> {
    while (this.members.some((member) => member.inFlight > 0)) {
      if (this.failure) throw this.failure;
      await this.settled();
    }
    if (this.failure) throw this.failure;
    const parts = await Promise.all(
      this.members.map(
        ({ worker }) =>
          new Promise<ReplayPart>((resolve, reject) => {
            worker.on('message', (message: { result?: ReplayPart }) => {
              if (message.result) resolve(message.result);
            });
            worker.once('error', reject);
            worker.postMessage({ finish: true });
          }),
      ),
    );
    await Promise.all(this.members.map(({ worker }) => worker.terminate()));
    return parts;
  }

  async stop(): Promise<void> {
    await Promise.all(this.members.map(({ worker }) => worker.terminate()));
  }
}
