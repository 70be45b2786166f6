import type { Node } from '../../lang/ast.js';
import { parseCommandLine } from '../args.js';
import type { Command } from '../command.js';
import { forEachExpression, inputOptions, inputSources, readInputs } from '../inputs.js';

export const parseOptions = { ...inputOptions, spans: { type: 'boolean' } } as const;

export const parseCommand: Command = {
  name: 'parse',
  options: parseOptions,
  help: `Usage: cfrules parse [options] [FILE...]

Parses each expression and prints its syntax tree as JSON (one document per
expression), or the syntax error in Cloudflare's format. Each FILE holds one
expression, or JSON rules as the Cloudflare API returns them; - reads one
expression from standard input.

Options:
  -e, --expression EXPR  parse EXPR (may be repeated)
  -f, --file PATH        parse every expression of a rules file: a text file
                         with one per line (# comments skipped) or JSON rules
                         (may be repeated); a directory stands for every .txt
                         and .json file under it
      --spans            include source spans (start, end, line, column) in the tree
  -h, --help             show this help

Strings, regex patterns and map keys are byte strings; in the JSON they appear as
text when they are valid UTF-8. Numbers, IP addresses and byte strings stay
uninterpreted ("bare") until they are checked against a field's type.

Exit status: 0 all valid, 1 a syntax error, 2 usage error.
`,
  run(args, io) {
    const { values, tokens } = parseCommandLine(args, parseOptions);
    const documents = readInputs(inputSources(tokens, 'expression-file'), io, 'filter');
    return forEachExpression(documents, io, 'parse', (_entry, ast) => {
      io.stdout(`${JSON.stringify(ast, jsonReplacer(values.spans === true), 2)}\n`);
      return 0;
    });
  },
};

/** Byte strings become readable text where they are UTF-8; spans are left out unless asked for. */
function jsonReplacer(spans: boolean) {
  return (key: string, value: unknown): unknown => {
    if (key === 'span' && !spans) return undefined;
    if ((key === 'value' || key === 'pattern' || key === 'key') && typeof value === 'string')
      return bytesToText(value);
    return value as Node | unknown;
  };
}

function bytesToText(binary: string): string {
  return Buffer.from(binary, 'latin1').toString('utf8');
}
