import { RangeSetBuilder } from '@codemirror/state';
import {
  Decoration,
  type DecorationSet,
  type EditorView,
  ViewPlugin,
  type ViewUpdate,
} from '@codemirror/view';
import { type TokenCategory, tokenCategories } from '../../../src/editor/token-categories.js';

// Highlighting from the project's own lexer, so that the colours follow exactly what the parser reads
// (contextual keywords, `r#"…"#` strings, a field followed by `(` being a call) rather than a second grammar.

const marks = new Map<TokenCategory, Decoration>();
const markOf = (category: TokenCategory): Decoration => {
  const known = marks.get(category);
  if (known) return known;
  const mark = Decoration.mark({ class: `cf-${category}` });
  marks.set(category, mark);
  return mark;
};

function decorations(text: string): DecorationSet {
  const builder = new RangeSetBuilder<Decoration>();
  for (const { start, end, category } of tokenCategories(text)) builder.add(start, end, markOf(category));
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
