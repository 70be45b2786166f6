import type { CodeAction, Position, Range } from 'vscode-languageserver';
import { quickFixFor } from '../../editor/quick-fixes.js';
import type { DocumentAnalysis } from '../analysis.js';
import { lsp, type TextDocument } from '../protocol.js';
import { lspDiagnostic, spanRange } from './diagnostics.js';

// Quick fixes: for each diagnostic in the range asked about whose hint names the change to make (a
// deprecated field's replacement, `did you mean …?`, `write "…"`, a repeated set item), the edit of its
// span — the playground's fixes (src/editor/quick-fixes.ts), written through the region's encoding.

const before = (a: Position, b: Position) =>
  a.line < b.line || (a.line === b.line && a.character < b.character);
const overlaps = (a: Range, b: Range) => !before(a.end, b.start) && !before(b.end, a.start);

export function codeActions(
  document: TextDocument,
  analysis: DocumentAnalysis,
  uri: string,
  range: Range,
): CodeAction[] {
  const actions: CodeAction[] = [];
  const from = document.offsetAt(range.start);
  const to = document.offsetAt(range.end);
  for (const region of analysis.regions) {
    if (region.end < from || region.start > to) continue;
    const { result } = analysis.check(region);
    for (const diagnostic of result.diagnostics) {
      const where = spanRange(document, region, diagnostic);
      if (!overlaps(where, range)) continue;
      const fix = quickFixFor(region.text, diagnostic);
      if (!fix) continue;
      const span = {
        start: document.positionAt(region.toDocument(diagnostic.span.start)),
        end: document.positionAt(region.toDocument(diagnostic.span.end)),
      };
      actions.push({
        title: fix.label,
        kind: lsp.CodeActionKind.QuickFix,
        diagnostics: [lspDiagnostic(document, region, diagnostic)],
        isPreferred: true,
        edit: { changes: { [uri]: [{ range: span, newText: region.encode(fix.replacement) }] } },
      });
    }
  }
  return actions;
}
