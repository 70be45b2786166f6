import type { OptionSpecs } from './args.js';

/** What a command may touch: injected so that tests run commands in-process. */
export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  readFile: (path: string) => string;
  /** The entries of a directory, or undefined when `path` is not one (absent: no directories). */
  listDirectory?: (path: string) => string[] | undefined;
  writeFile: (path: string, text: string) => void;
  readStdin: () => string;
  /** Whether standard output is a terminal (colours); absent means no. */
  isTTY?: boolean;
  /** Whether standard error is a terminal (progress lines); absent means no. */
  stderrIsTTY?: boolean;
  /** Environment variables (NO_COLOR, FORCE_COLOR, TERM); absent means none. */
  env?: Record<string, string | undefined>;
}

export interface Command {
  name: string;
  /** The full `--help` text. */
  help: string;
  /** Its options, when it parses them with ./args.ts (which tells `-e -h` from a request for help). */
  options?: OptionSpecs;
  /**
   * The values its `--format` accepts, when it has that option: a usage error is reported in the one asked
   * for when it is a machine format (./failure-report.ts). Absent: JSON only.
   */
  formats?: readonly string[];
  /**
   * Returns the process exit code: 0 success, 1 findings (syntax errors, check failures), 2 usage errors;
   * a long-running command (serve) returns it when it stops.
   */
  run: (args: string[], io: CliIo) => number | Promise<number>;
}

/** The file a usage error is about, and where in it when that is known (line 1-based, column in UTF-8 bytes). */
export interface ErrorLocation {
  file: string;
  line?: number;
  column?: number;
}

/**
 * A mistake in the command line itself (unknown option, missing argument) or an input it names that cannot
 * be used (no such file, not JSON, not text): exit code 2. `location` names the file, so that a CI format
 * can point at it; `code` names the problem in JSON reports, when it has a name (`binary-file`).
 */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly location?: ErrorLocation,
    readonly code?: string,
  ) {
    super(message);
  }
}
