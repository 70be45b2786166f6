// Offsets in a JSON string literal's raw text (`a\"b\u00e9`) and in its value (`a"bé`), both ways. An
// escape writes exactly one UTF-16 code unit (`\uD83D\uDE00` is two escapes for the two halves of a pair),
// so each code unit of the value has one raw start.

export class JsonStringMap {
  /** `rawAt[i]`: where the code unit `i` of the value is written in the raw text; `rawAt[length]`: its end. */
  private readonly rawAt: Uint32Array;

  /** `raw`: the text between the quotes of a valid JSON string literal. */
  constructor(raw: string) {
    const starts: number[] = [];
    let i = 0;
    while (i < raw.length) {
      starts.push(i);
      if (raw.charCodeAt(i) !== 92) i += 1;
      else i += raw[i + 1] === 'u' ? 6 : 2;
    }
    starts.push(Math.min(i, raw.length));
    this.rawAt = Uint32Array.from(starts);
  }

  /** The length of the value, in UTF-16 code units. */
  get length(): number {
    return this.rawAt.length - 1;
  }

  /** The raw offset where the value's offset `offset` is written (clamped to the value). */
  toRaw(offset: number): number {
    const at = Math.min(Math.max(Math.trunc(offset), 0), this.length);
    return this.rawAt[at] as number;
  }

  /** The value's offset at raw offset `raw`: inside an escape, the code unit it writes. */
  toValue(raw: number): number {
    const starts = this.rawAt;
    let low = 0;
    let high = starts.length - 1;
    if (raw <= 0) return 0;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if ((starts[middle] as number) <= raw) low = middle;
      else high = middle - 1;
    }
    return low;
  }
}

/** The raw text of a JSON string holding `text`, without its quotes. */
export const escapeJsonString = (text: string): string => JSON.stringify(text).slice(1, -1);
