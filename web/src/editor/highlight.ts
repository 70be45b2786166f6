import { RangeSetBuilder } from '@codemirror/state';
import {
  Decoration,
  type DecorationSet,
  type EditorView,
  ViewPlugin,
  type ViewUpdate,
} from '@codemirror/view';
import { tokenize } from '../../../src/lang/lexer.js';

// Highlighting from the project's own lexer, so that the colours follow exactly what the parser reads
// (contextual keywords, `r#"…"#` strings, a field followed by `(` being a call) rather than a second grammar.

/** The CSS class of each token type of src/lang/tokens.ts. */
const CLASS_OF_TOKEN: Record<string, string> = {
  Identifier: 'cf-field',
  LogicalOp: 'cf-keyword',
  Not: 'cf-keyword',
  Quantifier: 'cf-keyword',
  ValueOp: 'cf-operator',
  PatternOp: 'cf-operator',
  In: 'cf-operator',
  StringLit: 'cf-string',
  RegexLit: 'cf-regex',
  BareLit: 'cf-literal',
  IndexNumber: 'cf-literal',
  ListName: 'cf-list',
  Star: 'cf-operator',
  Invalid: 'cf-invalid',
};

const marks = new Map(
  Object.entries(CLASS_OF_TOKEN).map(([name, cls]) => [name, Decoration.mark({ class: cls })]),
);
const functionMark = Decoration.mark({ class: 'cf-function' });

function decorations(text: string): DecorationSet {
  const builder = new RangeSetBuilder<Decoration>();
  const { tokens } = tokenize(text);
  tokens.forEach((token, i) => {
    const name = token.tokenType.name;
    let mark = marks.get(name);
    if (name === 'Identifier' && tokens[i + 1]?.tokenType.name === 'LParen') mark = functionMark;
    if (mark && token.end > token.startOffset) builder.add(token.startOffset, token.end, mark);
  });
  return builder.finish();
}

export const lexerHighlighting = ViewPlugin.fromClass(
  class {
    decorations: DecorationSet;
    constructor(view: EditorView) {
      this.decorations = decorations(view.state.doc.toString());
    }
    update(update: ViewUpdate) {
      if (update.docChanged) this.decorations = decorations(update.state.doc.toString());
    }
  },
  { decorations: (plugin) => plugin.decorations },
);
