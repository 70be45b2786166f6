import { cpus, loadavg, totalmem } from 'node:os';

/** The machine a benchmark ran on, for the `Machine:` line of its report: CPU, cores, memory, Node, load. */
export function machineDescription(): string {
  const cpu = `${cpus()[0]?.model ?? 'unknown CPU'} × ${cpus().length}`;
  const load = `load average ${(loadavg()[0] ?? 0).toFixed(1)} at the start`;
  return `${cpu}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${load}`;
}
