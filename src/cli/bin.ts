import { processIo, runCli } from './main.js';

process.exitCode = runCli(process.argv.slice(2), processIo);
