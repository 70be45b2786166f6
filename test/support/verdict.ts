import { type Diagnostic, formatDiagnostic } from '../../src/lang/diagnostics.js';

/** What a user sees of a diagnostic: its code, message, position and the number of carets printed. */
export interface Verdict {
  code: string;
  message: string;
  line: number;
  column: number;
  carets: number;
}

export function verdictOf(source: string, diagnostic: Diagnostic): Verdict {
  const caretLine = formatDiagnostic(source, diagnostic).split('\n')[2] ?? '';
  const carets = (caretLine.match(/\^+/) ?? [''])[0].length;
  const { code, message, span } = diagnostic;
  return { code, message, line: span.line, column: span.column, carets };
}
