import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { diagramsPath, renderSyntaxDiagrams } from '../../scripts/grammar.js';
import { ExpressionParser } from '../../src/lang/parser.js';

describe('grammar', () => {
  it('has no ambiguities or definition errors (Chevrotain self-analysis with validations on)', () => {
    expect(() => new ExpressionParser(true)).not.toThrow();
  });

  it('keeps grammar/syntax-diagrams.html in step with the parser (run `npm run grammar`)', () => {
    expect(readFileSync(diagramsPath, 'utf8')).toBe(renderSyntaxDiagrams());
  });

  it('makes the diagrams page self-contained, loading nothing from the network', () => {
    const html = renderSyntaxDiagrams();
    expect(html).not.toMatch(/<(script|link)[^>]+(src|href)=/);
    expect(html).toContain('window.serializedGrammar');
  });
});
