import { processIo, runCli } from './main.js';

// A reader that goes away (`cfrules validate … | head -1`) closes the pipe. Stop at once and without a
// word, with the status of a command that SIGPIPE ends (128 + 13), as `grep … | head -1` does; Node
// ignores SIGPIPE, so without this handler the failed write is an unhandled 'error' event and a stack trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(141);
    throw error;
  });
}

// A long-running command (serve) gives its exit code when it stops.
Promise.resolve(runCli(process.argv.slice(2), processIo)).then((code) => {
  process.exitCode = code;
});
