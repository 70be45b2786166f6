import { type Diagnostic as EditorDiagnostic, linter } from '@codemirror/lint';
import type { EditorView, ViewUpdate } from '@codemirror/view';
import type { Diagnostic, ValidateResult } from '../../../src/index.js';
import { quickFixFor } from './quick-fixes.js';

// Live diagnostics: the library's diagnostics, with Cloudflare's text, underlined over their spans. Spans
// are offsets into the JavaScript string (the line and column beside them count UTF-8 bytes, as Cloudflare
// does, and are shown as written in the message header), so the underline needs no conversion.

export function editorDiagnostic(source: string, diagnostic: Diagnostic): EditorDiagnostic {
  const from = Math.min(diagnostic.span.start, source.length);
  // An empty span (an error at the end of the text) still gets a visible mark: one character wide where
  // there is one, else a point at the end.
  const to = Math.min(Math.max(diagnostic.span.end, from + 1), source.length);
  const fix = quickFixFor(source, diagnostic);
  return {
    from,
    to,
    severity: diagnostic.severity,
    source: `${diagnostic.code} (${diagnostic.span.line}:${diagnostic.span.column})`,
    message: diagnostic.hint ? `${diagnostic.message}\nhint: ${diagnostic.hint}` : diagnostic.message,
    actions: fix
      ? [
          {
            name: fix.label,
            apply(view: EditorView, start: number, end: number) {
              view.dispatch({ changes: { from: start, to: end, insert: fix.replacement } });
            },
          },
        ]
      : undefined,
  };
}

/** The lint extension: `analyse` checks the text (it may wait for RE2) and the page shows the result too. */
export function diagnosticsLinter(
  analyse: (source: string) => Promise<ValidateResult>,
  needsRefresh: (update: ViewUpdate) => boolean,
) {
  return linter(
    async (view) => {
      const source = view.state.doc.toString();
      const result = await analyse(source);
      return result.diagnostics.map((diagnostic) => editorDiagnostic(source, diagnostic));
    },
    // No wait after a keystroke: checking even a 4,096-character expression takes a few milliseconds
    // (bench/web.ts measures the underline against its 30 ms budget).
    { delay: 0, needsRefresh },
  );
}
