import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { diagramsPath, renderGrammarRules, renderSyntaxDiagrams, rulesPath } from '../../scripts/grammar.js';
import { comparisonOperatorNames, LOGICAL_OPERATORS, spellingsOf } from '../../src/lang/operators.js';
import { ExpressionParser } from '../../src/lang/parser.js';

describe('grammar', () => {
  it('has no ambiguities or definition errors (Chevrotain self-analysis with validations on)', () => {
    expect(() => new ExpressionParser(true)).not.toThrow();
  });

  it('keeps grammar/syntax-diagrams.html in step with the parser (run `npm run grammar`)', () => {
    expect(readFileSync(diagramsPath, 'utf8')).toBe(renderSyntaxDiagrams());
  });

  it("keeps grammar/rules.ebnf's operator productions in step with the operator table (run `npm run grammar`)", () => {
    const rules = readFileSync(rulesPath, 'utf8');
    expect(rules).toBe(renderGrammarRules(rules));
    const spellings = [
      ...comparisonOperatorNames.flatMap(spellingsOf),
      ...LOGICAL_OPERATORS.flatMap(({ op, symbol }) => [op, symbol]),
    ];
    for (const spelling of spellings) expect(rules).toContain(`"${spelling}"`);
  });

  it('makes the diagrams page self-contained, loading nothing from the network', () => {
    const html = renderSyntaxDiagrams();
    expect(html).not.toMatch(/<(script|link)[^>]+(src|href)=/);
    expect(html).toContain('window.serializedGrammar');
  });
});
