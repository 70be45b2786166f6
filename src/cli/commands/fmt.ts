import { formatExpression } from '../../lang/format.js';
import type { Command } from '../command.js';
import { forEachExpression, parseExpressionCommand } from '../inputs.js';

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
    const { values, inputs } = parseExpressionCommand(
      args,
      {
        symbols: { type: 'boolean', default: false },
        write: { type: 'boolean', short: 'w', default: false },
        check: { type: 'boolean', default: false },
      },
      io,
    );
    const options = { operators: values.symbols ? ('symbols' as const) : ('words' as const) };
    return forEachExpression(inputs, io, (input, ast) => {
      const formatted = formatExpression(ast, options);
      if (values.check) {
        if (formatted === input.source) return 0;
        io.stderr(`${input.name}: not formatted\n`);
        return 1;
      }
      if (values.write && input.path) {
        if (formatted !== input.source) io.writeFile(input.path, `${formatted}\n`);
      } else {
        io.stdout(`${formatted}\n`);
      }
      return 0;
    });
  },
};
