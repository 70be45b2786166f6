import { closeBrackets } from '@codemirror/autocomplete';
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { lintGutter } from '@codemirror/lint';
import { EditorState, StateEffect } from '@codemirror/state';
import { EditorView, keymap, placeholder } from '@codemirror/view';
import type { ValidateResult } from '../../../src/index.js';
import { completions } from './completion.js';
import { lexerHighlighting } from './highlight.js';
import { hoverDocs } from './hover.js';
import { diagnosticsLinter } from './lint.js';
import type { Profile } from './names.js';
import { playgroundTheme } from './theme.js';

// The expression editor: CodeMirror 6 with the project's lexer for colours, the library's diagnostics,
// completion and hover documentation from its catalogue.

/** Dispatched when the plan or phase changes, so that the diagnostics are checked again. */
export const profileChanged = StateEffect.define<null>();

export interface ExpressionEditorOptions {
  parent: HTMLElement;
  text: string;
  profile: () => Profile;
  analyse: (source: string) => Promise<ValidateResult>;
  onChange: (text: string) => void;
}

export function expressionEditor(options: ExpressionEditorOptions): EditorView {
  const lint = diagnosticsLinter(options.analyse, (update) =>
    update.transactions.some((transaction) =>
      transaction.effects.some((effect) => effect.is(profileChanged)),
    ),
  );
  // A shadow root of its own: see ./theme.ts for why.
  const root = options.parent.attachShadow({ mode: 'open' });
  return new EditorView({
    root,
    parent: root,
    state: EditorState.create({
      doc: options.text,
      extensions: [
        history(),
        closeBrackets(),
        keymap.of([...defaultKeymap, ...historyKeymap]),
        EditorView.lineWrapping,
        placeholder('http.request.uri.path contains "/admin" and ip.src in {192.0.2.0/24}'),
        playgroundTheme,
        lexerHighlighting,
        lint,
        lintGutter(),
        completions(options.profile),
        hoverDocs(options.profile),
        EditorView.contentAttributes.of({ 'aria-label': 'Expression', spellcheck: 'false' }),
        EditorView.updateListener.of((update) => {
          if (update.docChanged) options.onChange(update.state.doc.toString());
        }),
      ],
    }),
  });
}
