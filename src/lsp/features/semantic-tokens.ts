import type { SemanticTokens, SemanticTokensLegend } from 'vscode-languageserver';
import { type TokenCategory, tokenCategories } from '../../editor/token-categories.js';
import { cloudflareScheme } from '../../scheme/scheme.js';
import type { DocumentAnalysis } from '../analysis.js';
import { lsp, type TextDocument } from '../protocol.js';

// Semantic tokens from the project's own lexer (src/editor/token-categories.ts, as the playground colours
// them), so that an editor colours what the parser reads: contextual keywords, raw strings, a name followed
// by `(` being a call. A deprecated field carries the `deprecated` modifier.

const TYPE_OF_CATEGORY: Record<TokenCategory, string | undefined> = {
  field: 'variable',
  function: 'function',
  keyword: 'keyword',
  operator: 'operator',
  string: 'string',
  regex: 'regexp',
  literal: 'number',
  list: 'enumMember',
  // Text the lexer stopped at is underlined by its diagnostic, not coloured.
  invalid: undefined,
};

const TOKEN_TYPES = [...new Set(Object.values(TYPE_OF_CATEGORY).filter((type) => type !== undefined))];
const TOKEN_MODIFIERS = ['deprecated', 'defaultLibrary'];

export const SEMANTIC_TOKENS_LEGEND: SemanticTokensLegend = {
  tokenTypes: TOKEN_TYPES,
  tokenModifiers: TOKEN_MODIFIERS,
};

const DEPRECATED = 1 << TOKEN_MODIFIERS.indexOf('deprecated');
const DEFAULT_LIBRARY = 1 << TOKEN_MODIFIERS.indexOf('defaultLibrary');

export function semanticTokens(document: TextDocument, analysis: DocumentAnalysis): SemanticTokens {
  const builder = new lsp.SemanticTokensBuilder();
  for (const region of analysis.regions) {
    for (const token of tokenCategories(region.text)) {
      const type = TYPE_OF_CATEGORY[token.category];
      if (type === undefined) continue;
      let modifiers = 0;
      if (token.category === 'field') {
        const field = cloudflareScheme.fields.get(region.text.slice(token.start, token.end));
        if (field?.deprecated) modifiers |= DEPRECATED;
      } else if (token.category === 'function') modifiers |= DEFAULT_LIBRARY;
      const typeIndex = TOKEN_TYPES.indexOf(type);
      // A token is on one line: one that spans lines (a string of a multi-line expression) is cut at
      // each line break.
      let start = region.toDocument(token.start);
      const end = region.toDocument(token.end);
      while (start < end) {
        const position = document.positionAt(start);
        const lineEnd = document.offsetAt({ line: position.line + 1, character: 0 });
        const stop = Math.min(end, lineEnd);
        const length =
          stop - start - (stop === lineEnd && lineEnd <= end ? lineBreakLength(document, lineEnd) : 0);
        if (length > 0) builder.push(position.line, position.character, length, typeIndex, modifiers);
        if (stop === start) break;
        start = stop;
      }
    }
  }
  return builder.build();
}

/** The length of the line break that ends just before `offset` (CRLF 2, LF 1). */
function lineBreakLength(document: TextDocument, offset: number): number {
  const text = document.getText({
    start: document.positionAt(Math.max(0, offset - 2)),
    end: document.positionAt(offset),
  });
  return text.endsWith('\r\n') ? 2 : text.endsWith('\n') ? 1 : 0;
}
