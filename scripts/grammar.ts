// Writes grammar/syntax-diagrams.html: railroad diagrams of the parser's grammar, generated from the
// Chevrotain parser itself, with chevrotain's diagram scripts and styles inlined so the page works offline;
// and the operator productions of grammar/rules.ebnf, from the operator table (the rest of that file is
// written by hand). Run with `npm run grammar`; test/lang/grammar.test.ts fails when either is stale.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createSyntaxDiagramsCode } from 'chevrotain';
import {
  COMPARISON_OPERATORS,
  comparisonOperatorNames,
  LOGICAL_OPERATORS,
  type RhsKind,
  spellingsOf,
} from '../src/lang/operators.js';
import { ExpressionParser } from '../src/lang/parser.js';

const diagramsDir = join(
  dirname(createRequire(import.meta.url).resolve('chevrotain')),
  '..',
  '..',
  'diagrams',
);
const placeholder = 'cfrules-inline:';
export const diagramsPath = fileURLToPath(new URL('../grammar/syntax-diagrams.html', import.meta.url));

export function renderSyntaxDiagrams(): string {
  const grammar = new ExpressionParser().getSerializedGastProductions();
  const html = createSyntaxDiagramsCode(grammar, {
    resourceBase: placeholder,
    css: `${placeholder}diagrams.css`,
  });
  const read = (file: string) => readFileSync(join(diagramsDir, file), 'utf8');
  return html
    .replace(
      new RegExp(`<link rel='stylesheet' href='${placeholder}([^']+)'>`),
      (_, file: string) => `<style>\n${read(file)}</style>`,
    )
    .replace(
      new RegExp(`<script src='${placeholder}([^']+)'></script>`, 'g'),
      (_, file: string) => `<script>\n${read(file).replaceAll('</script', '<\\/script')}</script>`,
    )
    .replace('<!DOCTYPE html>', '<!DOCTYPE html>\n<title>cfrules: Rules language syntax diagrams</title>');
}

export const rulesPath = fileURLToPath(new URL('../grammar/rules.ebnf', import.meta.url));

/** The ebnf's operator productions, by name, with the spellings each lists (one array per operator). */
function operatorProductions(): [string, string[][]][] {
  const comparisons = (...kinds: RhsKind[]) =>
    comparisonOperatorNames
      .filter((op) => kinds.includes(COMPARISON_OPERATORS[op].rhs))
      .map((op) => spellingsOf(op));
  return [
    // Tightest first, as the precedence note beside `logical` reads.
    ['logical-op', [...LOGICAL_OPERATORS].reverse().map(({ op, symbol }) => [op, symbol])],
    ['value-op', comparisons('value')],
    ['pattern-op', comparisons('regex', 'wildcard')],
    ['set-op', comparisons('set')],
  ];
}

const NAME_WIDTH = 14;
const LINE_WIDTH = 100;

/** `name = "a" | "b" … ;`, wrapped before an operator whose spellings would pass the line width. */
function production(name: string, operators: string[][]): string {
  const lines = [`${name.padEnd(NAME_WIDTH)}= `];
  operators.forEach((spellings, i) => {
    const text = spellings.map((spelling) => `"${spelling}"`).join(' | ');
    const last = lines.length - 1;
    const line = lines[last] as string;
    if (i === 0) lines[last] = line + text;
    else if (line.length + 3 + text.length <= LINE_WIDTH) lines[last] = `${line} | ${text}`;
    else lines.push(`${' '.repeat(NAME_WIDTH)}| ${text}`);
  });
  return `${lines.join('\n')} ;`;
}

/** `rules` (the ebnf's text) with its operator productions written from the operator table. */
export function renderGrammarRules(rules: string): string {
  let out = rules;
  for (const [name, operators] of operatorProductions()) {
    // From the production's name at the start of a line to its closing `;` (no operator is spelt `;`).
    const pattern = new RegExp(`^${name} *=[^;]*;`, 'm');
    if (!pattern.test(out)) throw new Error(`grammar/rules.ebnf has no production ${name}`);
    out = out.replace(pattern, () => production(name, operators));
  }
  return out;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(diagramsPath, renderSyntaxDiagrams());
  console.log(`wrote ${diagramsPath}`);
  writeFileSync(rulesPath, renderGrammarRules(readFileSync(rulesPath, 'utf8')));
  console.log(`wrote ${rulesPath}`);
}
