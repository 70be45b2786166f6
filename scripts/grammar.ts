// Writes grammar/syntax-diagrams.html: railroad diagrams of the parser's grammar, generated from the
// Chevrotain parser itself, with chevrotain's diagram scripts and styles inlined so the page works offline.
// Run with `npm run grammar`; test/lang/grammar.test.ts fails when the committed file is stale.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createSyntaxDiagramsCode } from 'chevrotain';
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

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(diagramsPath, renderSyntaxDiagrams());
  console.log(`wrote ${diagramsPath}`);
}
