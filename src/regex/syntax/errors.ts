// Positions and the error text

/** A position as regex-syntax reports it: offset and column count characters; line and column from 1. */
export interface Position {
  offset: number;
  line: number;
  column: number;
}

export interface Span {
  start: Position;
  end: Position;
}

export function span(start: Position, end: Position): Span {
  return { start, end };
}

export function wholeSpan(text: string): Span {
  const chars = Array.from(text);
  let end: Position = { offset: 0, line: 1, column: 1 };
  for (const ch of chars) {
    end = ch === '\n' ? { offset: end.offset + 1, line: end.line + 1, column: 1 } : advance(end);
  }
  return span({ offset: 0, line: 1, column: 1 }, end);
}

export function advance(pos: Position): Position {
  return { offset: pos.offset + 1, line: pos.line, column: pos.column + 1 };
}

/** A regex-syntax error: its description, where it is, and for duplicates where the original is. */
export class RegexSyntaxError extends Error {
  constructor(
    readonly description: string,
    readonly span: Span,
    readonly original?: Span,
  ) {
    super(description);
  }
}

const DIVIDER = '~'.repeat(79);

/**
 * regex-syntax's error layout. A one-line pattern is indented by 4 with carets under the error (and under
 * the original, for duplicates); a pattern with newlines gets numbered lines between two rules of `~`, and
 * spans over several lines are described in words.
 */
export function formatRegexError(text: string, error: RegexSyntaxError): string {
  const lines = rustLines(text);
  const lineCount = lines.length + (text.endsWith('\n') ? 1 : 0);
  const numberWidth = lineCount <= 1 ? 0 : String(lineCount).length;
  const spans = [error.span, ...(error.original ? [error.original] : [])].sort(
    (a, b) => a.start.offset - b.start.offset || a.end.offset - b.end.offset,
  );
  const oneLine = spans.filter((s) => s.start.line === s.end.line);
  const multiLine = spans.filter((s) => s.start.line !== s.end.line);
  let notated = '';
  lines.forEach((line, i) => {
    notated += `${numberWidth > 0 ? `${String(i + 1).padStart(numberWidth)}: ` : '    '}${line}\n`;
    const onThisLine = oneLine.filter((s) => s.start.line === i + 1);
    if (onThisLine.length === 0) return;
    let notes = ' '.repeat(numberWidth === 0 ? 4 : 2 + numberWidth);
    let pos = 0;
    for (const s of onThisLine) {
      for (; pos < s.start.column - 1; pos++) notes += ' ';
      const carets = Math.max(1, s.end.column - s.start.column);
      notes += '^'.repeat(carets);
      pos += carets;
    }
    notated += `${notes}\n`;
  });
  if (!text.includes('\n')) return `regex parse error:\n${notated}error: ${error.description}`;
  const ranges = multiLine.map(
    (s) =>
      `on line ${s.start.line} (column ${s.start.column}) through line ${s.end.line} (column ${s.end.column - 1})\n`,
  );
  return `regex parse error:\n${DIVIDER}\n${notated}${DIVIDER}\n${ranges.join('')}error: ${error.description}`;
}

/** Rust's `str::lines`: split at `\n`, drop a `\r` before it, no empty last line after a final `\n`. */
function rustLines(text: string): string[] {
  if (text === '') return [];
  const parts = text.split('\n');
  const last = parts.pop() ?? '';
  const lines = parts.map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
  if (last !== '') lines.push(last);
  return lines;
}
