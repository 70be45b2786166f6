import type { TextEdit } from 'vscode-languageserver';
import { formatExpression } from '../../lang/format.js';
import { parse } from '../../lang/parse.js';
import type { DocumentAnalysis } from '../analysis.js';
import type { TextDocument } from '../protocol.js';

// Formatting: each expression in the library's canonical form (`cfrules fmt`), written back inside its
// region — for a JSON string, escaped again — and nothing else of the document touched. An expression with
// a syntax error is left as it is, as `cfrules fmt` leaves it.

export function formatting(document: TextDocument, analysis: DocumentAnalysis): TextEdit[] {
  const edits: TextEdit[] = [];
  for (const region of analysis.regions) {
    const { ast } = parse(region.text);
    if (!ast) continue;
    const canonical = formatExpression(ast);
    if (canonical === region.text) continue;
    edits.push({
      range: { start: document.positionAt(region.start), end: document.positionAt(region.end) },
      newText: region.encode(canonical),
    });
  }
  return edits;
}
