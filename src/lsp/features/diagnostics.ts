import type { Diagnostic as LspDiagnostic, Range } from 'vscode-languageserver';
import type { Diagnostic } from '../../lang/diagnostics.js';
import type { DocumentAnalysis } from '../analysis.js';
import { lsp, type TextDocument } from '../protocol.js';
import type { Region } from '../regions/region.js';

// The library's diagnostics in the editor: Cloudflare's message as it words it, the diagnostic's code, and
// the hint on a line of its own, under the characters the span covers. Spans are offsets into the
// expression's text (UTF-16 code units; the line and column beside them count UTF-8 bytes, as Cloudflare
// does); the region maps them into the document, and the document into LSP's lines and UTF-16 characters.

const SEVERITY = {
  error: lsp.DiagnosticSeverity.Error,
  warning: lsp.DiagnosticSeverity.Warning,
  info: lsp.DiagnosticSeverity.Information,
} as const;

export const DIAGNOSTIC_SOURCE = 'cfrules';

/** The document range of a span of a region's text. An empty span still marks one character where it can. */
export function spanRange(document: TextDocument, region: Region, diagnostic: Diagnostic): Range {
  const from = Math.min(diagnostic.span.start, region.text.length);
  const to = Math.min(Math.max(diagnostic.span.end, from + 1), region.text.length);
  return {
    start: document.positionAt(region.toDocument(from)),
    end: document.positionAt(region.toDocument(Math.max(to, from))),
  };
}

export function lspDiagnostic(document: TextDocument, region: Region, diagnostic: Diagnostic): LspDiagnostic {
  return {
    range: spanRange(document, region, diagnostic),
    severity: SEVERITY[diagnostic.severity],
    code: diagnostic.code,
    source: DIAGNOSTIC_SOURCE,
    message: diagnostic.hint ? `${diagnostic.message}\nhint: ${diagnostic.hint}` : diagnostic.message,
    tags: diagnostic.code === 'deprecated-field' ? [lsp.DiagnosticTag.Deprecated] : undefined,
  };
}

/** Every diagnostic of a document: its own problems (malformed JSON), then each region's. */
export function documentDiagnostics(document: TextDocument, analysis: DocumentAnalysis): LspDiagnostic[] {
  const out: LspDiagnostic[] = analysis.scan.problems.map((problem) => ({
    range: { start: document.positionAt(problem.start), end: document.positionAt(problem.end) },
    severity: problem.severity === 'warning' ? lsp.DiagnosticSeverity.Warning : lsp.DiagnosticSeverity.Error,
    code: problem.code ?? 'document',
    source: DIAGNOSTIC_SOURCE,
    message: problem.message,
  }));
  for (const { region, result } of analysis.checks())
    for (const diagnostic of result.diagnostics) out.push(lspDiagnostic(document, region, diagnostic));
  return out;
}
