import { parseArgs } from 'node:util';
import { formatExpression } from '../../lang/format.js';
import { parse } from '../../lang/parse.js';
import type { Command } from '../command.js';
import { collectInputs, reportDiagnostics } from '../inputs.js';

export const fmtCommand: Command = {
  name: 'fmt',
  summary: 'print expressions in canonical form (or rewrite / check files)',
  help: `Usage: cfrules fmt [options] [FILE...]

Prints each expression in canonical form: one space around operators, minimal
parentheses, sets on one line. Each FILE holds one expression (it may span several
lines); - reads standard input.

Options:
  -e, --expression EXPR  format EXPR (may be repeated)
      --symbols          use C-like operators (&& || ! == != < ~ …) instead of words
  -w, --write            rewrite the files in place
      --check            print nothing; exit 1 if a file is not already formatted
  -h, --help             show this help

Exit status: 0 success, 1 syntax error or (with --check) unformatted input, 2 usage error.
`,
  run(args, io) {
    const { values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      options: {
        expression: { type: 'string', short: 'e', multiple: true, default: [] },
        symbols: { type: 'boolean', default: false },
        write: { type: 'boolean', short: 'w', default: false },
        check: { type: 'boolean', default: false },
      },
    });
    const options = { operators: values.symbols ? ('symbols' as const) : ('words' as const) };
    let status = 0;
    for (const input of collectInputs(positionals, values.expression ?? [], io)) {
      const result = parse(input.source);
      if (!result.ast) {
        reportDiagnostics(input, result, io);
        status = 1;
        continue;
      }
      const formatted = formatExpression(result.ast, options);
      if (values.check) {
        if (formatted !== input.source) {
          io.stderr(`${input.name}: not formatted\n`);
          status = 1;
        }
      } else if (values.write && input.path) {
        if (formatted !== input.source) io.writeFile(input.path, `${formatted}\n`);
      } else {
        io.stdout(`${formatted}\n`);
      }
    }
    return status;
  },
};
