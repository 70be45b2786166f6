// Runs `cfrules serve` (the built binary) as a child process, until it says where it listens.
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL('../../bin/cfrules.js', import.meta.url));
const root = fileURLToPath(new URL('../..', import.meta.url));

export interface ServeProcess {
  /** The API's base URL, `http://127.0.0.1:PORT/client/v4`. */
  url: string;
  /** Standard output and error so far. */
  readonly output: string;
  child: ChildProcess;
  /** Sends the signal and resolves with the exit code (null when killed by the signal). */
  stop(signal: NodeJS.Signals): Promise<number | null>;
}

export function startServe(args: string[]): Promise<ServeProcess> {
  const child = spawn(process.execPath, [bin, 'serve', ...args], {
    cwd: root,
    env: { ...process.env, CI: 'true' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`cfrules serve did not start in 15 s:\n${output}`));
    }, 15_000);
    const take = (text: string) => {
      output += text;
      const url = /listening on (http:\/\/\S+)/.exec(output)?.[1];
      if (url) {
        clearTimeout(timer);
        resolve({
          url,
          child,
          get output() {
            return output;
          },
          stop: (signal) => {
            child.kill(signal);
            return exited;
          },
        });
      }
    };
    child.stdout?.setEncoding('utf8').on('data', take);
    child.stderr?.setEncoding('utf8').on('data', take);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`cfrules serve exited with ${code} before listening:\n${output}`));
    });
  });
}
