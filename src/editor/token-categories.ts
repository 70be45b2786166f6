import { tokenize } from '../lang/lexer.js';

// What each token of an expression is, for colouring: read from the project's own lexer, so that colours
// follow exactly what the parser reads (contextual keywords, `r#"…"#` strings, a field followed by `(` being
// a call) rather than a second grammar. The playground turns categories into CSS classes, the language
// server into semantic tokens.

export type TokenCategory =
  | 'field'
  | 'function'
  | 'keyword'
  | 'operator'
  | 'string'
  | 'regex'
  | 'literal'
  | 'list'
  | 'invalid';

/** The category of each token type of src/lang/tokens.ts that gets a colour. */
const CATEGORY_OF_TOKEN: Record<string, TokenCategory> = {
  Identifier: 'field',
  LogicalOp: 'keyword',
  Not: 'keyword',
  Quantifier: 'keyword',
  ValueOp: 'operator',
  PatternOp: 'operator',
  In: 'operator',
  StringLit: 'string',
  RegexLit: 'regex',
  BareLit: 'literal',
  IndexNumber: 'literal',
  ListName: 'list',
  Star: 'operator',
  Invalid: 'invalid',
};

export interface CategorisedToken {
  /** Offsets into the text (UTF-16 code units), `[start, end)`. */
  start: number;
  end: number;
  category: TokenCategory;
}

/** The coloured tokens of `text`, in order; tokens without a category (brackets, commas) are left out. */
export function tokenCategories(text: string): CategorisedToken[] {
  const { tokens } = tokenize(text);
  const out: CategorisedToken[] = [];
  tokens.forEach((token, i) => {
    const name = token.tokenType.name;
    let category = CATEGORY_OF_TOKEN[name];
    if (name === 'Identifier' && tokens[i + 1]?.tokenType.name === 'LParen') category = 'function';
    if (category && token.end > token.startOffset)
      out.push({ start: token.startOffset, end: token.end, category });
  });
  return out;
}
