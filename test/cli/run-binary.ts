// Runs the built command (bin/cfrules.js → dist/cli.js, bundled by test/cli/build-once.ts) as a user would.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';

export const root = fileURLToPath(new URL('../..', import.meta.url));
const bin = fileURLToPath(new URL('../../bin/cfrules.js', import.meta.url));

export interface RunOptions {
  /** Text piped to standard input (an empty, closed stdin otherwise). */
  stdin?: string;
  /** Variables added to (or, when undefined, removed from) the environment. */
  env?: Record<string, string | undefined>;
  /** Working directory, the repository by default (paths in the examples are relative to it). */
  cwd?: string;
}

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The environment of every run: CI, and no colour settings inherited from the developer's shell. */
function environment(extra: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, CI: 'true' };
  delete env.FORCE_COLOR;
  delete env.NO_COLOR;
  for (const [name, value] of Object.entries(extra)) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  return env;
}

/** The built command must be fresh: report the bundling error instead of running an old bundle. */
function assertBuilt(): void {
  const error = inject('cliBuildError');
  if (error) throw new Error(`the CLI could not be bundled (test/cli/build-once.ts):\n${error}`);
}

/** Runs `cfrules ARGS`; resolves when the process has exited. */
export function cfrules(args: string[], options: RunOptions = {}): Promise<RunResult> {
  assertBuilt();
  return run(process.execPath, [bin, ...args], options);
}

/** Runs a shell script in which `cfrules` (and `npx cfrules`) is the built command; standard error is merged into the output. */
export async function shell(script: string): Promise<string> {
  assertBuilt();
  // `npx cfrules …`, as the README writes it, runs the same command.
  const prelude = `exec 2>&1\ncfrules() { "${process.execPath}" "${bin}" "$@"; }\nnpx() { shift; cfrules "$@"; }\n`;
  return (await run('sh', ['-c', prelude + script], {})).stdout;
}

function run(command: string, args: string[], options: RunOptions): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd ?? root, env: environment(options.env ?? {}) });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => {
      stdout += text;
    });
    child.stderr.setEncoding('utf8').on('data', (text: string) => {
      stderr += text;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.on('error', () => {}); // a command that does not read its input may close it first
    child.stdin.end(options.stdin ?? '');
  });
}
