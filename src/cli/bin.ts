import type { CliIo } from './command.js';
import { processIo, runCli } from './main.js';

// A reader that goes away (`cfrules validate … | head -1`) closes the pipe. Stop at once and without a
// word, with the status of a command that SIGPIPE ends (128 + 13), as `grep … | head -1` does; Node
// ignores SIGPIPE, so without this handler the failed write is an unhandled 'error' event and a stack trace.
function stopOnClosedPipe(stream: NodeJS.WriteStream): NodeJS.WriteStream {
  return stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(141);
    throw error;
  });
}

// Node sets process.stderr up on first use, which for a pipe runs some 11 million instructions, a
// twentieth of what `cfrules validate` adds to Node's own start-up (issue 16). Most runs write nothing
// there, so standard error is set up, with its handler, when something is first written to it.
stopOnClosedPipe(process.stdout);
let stderr: NodeJS.WriteStream | undefined;
const io: CliIo = {
  ...processIo,
  stderr: (text) => {
    stderr ??= stopOnClosedPipe(process.stderr);
    stderr.write(text);
  },
};

// A long-running command (serve) gives its exit code when it stops.
void Promise.resolve(runCli(process.argv.slice(2), io)).then((code) => {
  process.exitCode = code;
});
