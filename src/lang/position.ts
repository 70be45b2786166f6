import type { Span } from './ast.js';

/** UTF-8 length of the UTF-16 code unit at `index` (a surrogate pair counts 2 + 2; a lone surrogate 3). */
export function utf8Width(text: string, index: number): number {
  const unit = text.charCodeAt(index);
  if (unit < 0x80) return 1;
  if (unit < 0x800) return 2;
  if (unit >= 0xd800 && unit <= 0xdbff) {
    const next = text.charCodeAt(index + 1);
    return next >= 0xdc00 && next <= 0xdfff ? 2 : 3;
  }
  if (unit >= 0xdc00 && unit <= 0xdfff) {
    const prev = text.charCodeAt(index - 1);
    return prev >= 0xd800 && prev <= 0xdbff ? 2 : 3;
  }
  return 3;
}

/** Number of UTF-8 bytes that `text.slice(from, to)` encodes to. */
export function utf8Length(text: string, from = 0, to = text.length): number {
  let bytes = 0;
  for (let i = from; i < to; i++) bytes += utf8Width(text, i);
  return bytes;
}

/**
 * Turns offsets into 1-based line and UTF-8 byte column. Offsets asked for in increasing order cost
 * amortised O(1) each (the lexer's case); going backwards restarts from the beginning of the text.
 */
export class PositionTracker {
  private offset = 0;
  /** UTF-8 bytes between the start of the line and offset. */
  private bytesIntoLine = 0;

  constructor(private readonly text: string) {}

  /** 1-based line at the last offset moved to. */
  line = 1;
  /** 1-based UTF-8 byte column at the last offset moved to. */
  get column(): number {
    return this.bytesIntoLine + 1;
  }

  span(start: number, end: number): Span {
    this.moveTo(start);
    return { start, end, line: this.line, column: this.column };
  }

  moveTo(target: number): void {
    if (target < this.offset) {
      this.offset = 0;
      this.line = 1;
      this.bytesIntoLine = 0;
    }
    const text = this.text;
    for (let i = this.offset; i < target; i++) {
      const unit = text.charCodeAt(i);
      if (unit === 10) {
        this.line++;
        this.bytesIntoLine = 0;
      } else {
        this.bytesIntoLine += unit < 0x80 ? 1 : utf8Width(text, i);
      }
    }
    this.offset = target;
  }
}

/** The span of `text.slice(start, end)`, computed from scratch (for one-off use such as diagnostics). */
export function spanOf(text: string, start: number, end: number): Span {
  return new PositionTracker(text).span(start, end);
}
