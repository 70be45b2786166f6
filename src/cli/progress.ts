import type { CliIo } from './command.js';

/**
 * A line on standard error that a long command rewrites in place to say how far it has got (replay's lines
 * read, bench's windows), so that a run of a minute is not a silent one. Only on a terminal: a pipe or a
 * log file would keep every version of the line, and CI logs are files.
 */
export interface Progress {
  /** Shows `text` in place of the previous line (at most ten times a second; the rest are dropped). */
  update(text: string): void;
  /** Erases the line, before the command prints anything else on standard error. */
  clear(): void;
}

const MIN_INTERVAL_MS = 100;

/** The progress line of a command, or undefined when standard error is not a terminal or CI is set. */
export function terminalProgress(io: CliIo): Progress | undefined {
  if (io.stderrIsTTY !== true || io.env?.CI) return undefined;
  let shownAt = Number.NEGATIVE_INFINITY;
  let shown = false;
  return {
    update(text) {
      const now = performance.now();
      if (now - shownAt < MIN_INTERVAL_MS) return;
      shownAt = now;
      shown = true;
      // Erase to the end of the line: the new text may be shorter than the old.
      io.stderr(`\r${text}\x1b[K`);
    },
    clear() {
      if (shown) io.stderr('\r\x1b[K');
      shown = false;
    },
  };
}
