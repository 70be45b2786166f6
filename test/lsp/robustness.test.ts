import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CheckCache, DocumentAnalysis } from '../../src/lsp/analysis.js';
import { codeActions } from '../../src/lsp/features/code-actions.js';
import { completion } from '../../src/lsp/features/completion.js';
import { documentDiagnostics } from '../../src/lsp/features/diagnostics.js';
import { formatting } from '../../src/lsp/features/formatting.js';
import { hover } from '../../src/lsp/features/hover.js';
import { semanticTokens } from '../../src/lsp/features/semantic-tokens.js';
import { signatureHelp } from '../../src/lsp/features/signature-help.js';
import { TextDocument } from '../../src/lsp/protocol.js';
import { expressionFileFinder } from '../../src/lsp/regions/expression-file.js';
import { jsonRulesFinder } from '../../src/lsp/regions/json-rules.js';

// Whatever a document holds while it is being typed, every feature answers without throwing, and every
// range it gives lies inside the document. (The server also catches what a feature throws; this holds the
// features themselves to it.)

const pieces = [
  'http.host',
  ' eq ',
  '"a\\"é😀"',
  ' and ',
  'lower(',
  ')',
  ', ',
  '{',
  '}',
  '[',
  '"user-Agent"',
  ']',
  ' in ',
  'ip.src',
  '192.0.2.0/24',
  '\n',
  '\r\n',
  '# c\n',
  ' matches ',
  'r#"x"#',
  '$list',
  'ip.geoip.country',
  '"get"',
  ' not ',
  '\\u00e9',
  '\\',
  '"',
];
const expressionText = fc.oneof(
  fc.array(fc.constantFrom(...pieces), { maxLength: 24 }).map((parts) => parts.join('')),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
);
/** JSON rules around the texts, sometimes cut short (JSON being typed). */
const jsonText = fc
  .tuple(fc.array(expressionText, { minLength: 1, maxLength: 4 }), fc.nat(100), fc.boolean())
  .map(([expressions, cut, whole]) => {
    const text = JSON.stringify(
      { phase: 'http_request_firewall_custom', rules: expressions.map((expression) => ({ expression })) },
      null,
      2,
    );
    return whole ? text : text.slice(0, Math.floor((text.length * cut) / 100));
  });

function everyFeature(text: string, uri: string, languageId: string) {
  const finder = languageId === 'json' ? jsonRulesFinder : expressionFileFinder;
  const document = TextDocument.create(uri, languageId, 1, text);
  const analysis = new DocumentAnalysis(text, uri, finder, { plan: 'free' }, new CheckCache());
  const inside = (position: { line: number; character: number }) => {
    const offset = document.offsetAt(position);
    expect(document.positionAt(offset)).toEqual(position);
  };
  for (const diagnostic of documentDiagnostics(document, analysis)) {
    inside(diagnostic.range.start);
    inside(diagnostic.range.end);
  }
  for (let offset = 0; offset <= text.length; offset += Math.max(1, Math.floor(text.length / 7))) {
    const position = document.positionAt(offset);
    completion(document, analysis, position);
    hover(document, analysis, position);
    signatureHelp(document, analysis, position);
  }
  const whole = { start: { line: 0, character: 0 }, end: document.positionAt(text.length) };
  codeActions(document, analysis, uri, whole);
  for (const edit of formatting(document, analysis)) inside(edit.range.end);
  expect(semanticTokens(document, analysis).data.length % 5).toBe(0);
}

describe('the features on documents being typed', () => {
  it('never throw on .cfrules text', () => {
    fc.assert(fc.property(expressionText, (text) => everyFeature(text, 'file:///a.cfrules', 'cfrules')));
  });
  it('never throw on JSON rules, whole or cut short', () => {
    fc.assert(fc.property(jsonText, (text) => everyFeature(text, 'file:///a.json', 'json')));
  });
});
