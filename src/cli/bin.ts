import { processIo, runCli } from './main.js';

// A long-running command (serve) gives its exit code when it stops.
Promise.resolve(runCli(process.argv.slice(2), processIo)).then((code) => {
  process.exitCode = code;
});
