import type { ZoneProblem } from '../engine/zone/types.js';
import type { CliIo } from './command.js';
import { commandMessage } from './messages.js';
import { terminalFrame } from './report.js';
import type { StructuredFile } from './structured-file.js';

/**
 * What is wrong in a zone file, for people: the engine's message, but for an invalid expression its code
 * frames as a terminal shows them (control characters escaped, the carets still under them).
 */
export function zoneProblemMessage(problem: ZoneProblem): string {
  if (!problem.expression) return problem.message;
  const { source, errors } = problem.expression;
  return errors.map((diagnostic) => terminalFrame(source, diagnostic)).join('\n');
}

/** `ZONE:LINE: POINTER: MESSAGE`, the line found from the pointer. */
export const zoneProblemText = (file: StructuredFile, problem: ZoneProblem): string =>
  `${file.name}:${file.lineOf(problem.path)}: ${problem.path}: ${zoneProblemMessage(problem)}`;

/**
 * The zone's warnings (what it holds that is not simulated), one line each on standard error, so that a
 * result is never read as covering rules it did not run.
 */
export function reportZoneWarnings(
  io: CliIo,
  command: string,
  file: StructuredFile,
  warnings: readonly ZoneProblem[],
): void {
  for (const warning of warnings)
    io.stderr(commandMessage(command, `warning: ${zoneProblemText(file, warning)}`));
}
