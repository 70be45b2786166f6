import { escapeControlCharacters } from '../../lang/escape.js';
import { formatExpression } from '../../lang/format.js';
import { parseCommandLine } from '../args.js';
import type { CliIo, Command } from '../command.js';
import {
  forEachExpression,
  type InputDocument,
  inputOptions,
  inputSources,
  readInputs,
  resolveSources,
  withHclParser,
} from '../inputs.js';
import { ruleLabel } from '../report.js';
import type { ExpressionEntry } from '../rule-files.js';

export const fmtOptions = {
  ...inputOptions,
  symbols: { type: 'boolean' },
  write: { type: 'boolean', short: 'w' },
  check: { type: 'boolean' },
} as const;

export const fmtCommand: Command = {
  name: 'fmt',
  options: fmtOptions,
  help: `Usage: cfrules fmt [options] [FILE...]

Prints each expression in canonical form: one space around operators, minimal
parentheses, sets on one line. Each FILE holds one expression (it may span
several lines), or JSON rules as the Cloudflare API returns them; - reads one
expression from standard input.

Options:
  -e, --expression EXPR  format EXPR (may be repeated)
  -f, --file PATH        format every expression of a rules file: a text file
                         with one per line (# comments kept), JSON rules, or
                         Terraform (.tf: each literal expression string of a
                         cloudflare_ruleset rule or a cloudflare_filter); the
                         rest of the file stays as it is, byte for byte (may be
                         repeated); a directory stands for every .txt,
                         .cfrules, .json and .tf file under it (sorted, not in
                         node_modules or .directories). A FILE that is a
                         directory, a .tf or a .cfrules file is read the same
      --symbols          use C-like operators (&& || ! == != < ~ …) instead of words
  -w, --write            rewrite the files in place
      --check            print nothing; exit 1 if an expression is not formatted
  -h, --help             show this help

Exit status: 0 success, 1 syntax error or (with --check) unformatted input, 2 usage error.
`,
  run(args, io) {
    const { values, tokens } = parseCommandLine(args, fmtOptions);
    const sources = resolveSources(inputSources(tokens, 'expression-file'), io);
    return withHclParser(sources, io, (hcl) => {
      const documents = readInputs(sources, io, 'filter', undefined, false, hcl);
      const options = { operators: values.symbols ? ('symbols' as const) : ('words' as const) };
      let status = 0;
      for (const document of documents) {
        const formatted = new Map<ExpressionEntry, string>();
        const parsed = forEachExpression([document], io, 'fmt', (entry, ast) => {
          formatted.set(entry, formatExpression(ast, options));
          return 0;
        });
        status = Math.max(status, parsed);
        if (parsed !== 0) continue; // a document with a syntax error is left as it is
        if (values.check) status = Math.max(status, check(document, formatted, io));
        else write(document, formatted, values.write === true, io);
      }
      return status;
    });
  },
};

/** `--check`: names each expression that is not in canonical form; 1 if there is one. */
function check(document: InputDocument, formatted: Map<ExpressionEntry, string>, io: CliIo): number {
  let status = 0;
  for (const [entry, text] of formatted) {
    if (text === entry.expression) continue;
    status = 1;
    if (document.single) {
      io.stderr(`${escapeControlCharacters(document.name)}: not formatted\n`);
    } else {
      const { line, column } = entry.locate(0);
      const label = ruleLabel(entry);
      const where = `${document.name}:${line}:${column}: not formatted${label ? ` (${label})` : ''}`;
      io.stderr(`${escapeControlCharacters(where)}\n`);
    }
  }
  return status;
}

/**
 * Prints the canonical text of a document, or with `--write` writes it back to its file when it changed.
 * Rules files keep everything but their expressions: comments, blank lines, the JSON around them.
 */
function write(
  document: InputDocument,
  formatted: Map<ExpressionEntry, string>,
  toFile: boolean,
  io: CliIo,
): void {
  let text: string;
  let changed = false;
  if (document.single) {
    const [[entry, canonical]] = [...formatted] as [[ExpressionEntry, string]];
    text = `${canonical}\n`;
    changed = canonical !== entry.expression;
  } else {
    text = '';
    let from = 0;
    const inOrder = [...formatted].sort(([a], [b]) => (a.written?.start ?? 0) - (b.written?.start ?? 0));
    for (const [entry, canonical] of inOrder) {
      const written = entry.written;
      if (!written || canonical === entry.expression) continue;
      // A Terraform string says which part of the file changes, and how the expression is written there.
      const {
        start,
        end,
        text: replacement,
      } = written.rewrite?.(canonical) ?? {
        start: written.start,
        end: written.end,
        text: written.json ? JSON.stringify(canonical) : canonical,
      };
      text += document.text.slice(from, start) + replacement;
      from = end;
      changed = true;
    }
    text += document.text.slice(from);
  }
  if (toFile && document.path !== undefined) {
    if (changed) io.writeFile(document.path, text);
  } else {
    io.stdout(io.isTTY ? escapeControlCharacters(text) : text);
  }
}
