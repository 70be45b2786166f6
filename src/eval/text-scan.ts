/**
 * Aho–Corasick over binary strings: every literal of every rule that tests one field, found in one pass
 * over the field's value, whatever the number of literals. Reports, for each occurrence, the literal and
 * where it ends, so that the caller can tell `contains` from `starts_with` and `ends_with`.
 */
export class TextScanner {
  private readonly next: Map<number, number>[] = [new Map()];
  private readonly fail: number[] = [0];
  /** Literal ids ending at each state, its fail chain's included. */
  private readonly outputs: number[][] = [[]];
  readonly literals: string[] = [];

  /** Adds a literal; returns its id. Call build() after the last. */
  add(literal: string): number {
    let state = 0;
    for (let i = 0; i < literal.length; i++) {
      const code = literal.charCodeAt(i);
      let target = (this.next[state] as Map<number, number>).get(code);
      if (target === undefined) {
        target = this.next.length;
        this.next.push(new Map());
        this.fail.push(0);
        this.outputs.push([]);
        (this.next[state] as Map<number, number>).set(code, target);
      }
      state = target;
    }
    this.literals.push(literal);
    const id = this.literals.length - 1;
    (this.outputs[state] as number[]).push(id);
    return id;
  }

  /** Computes the failure links, breadth first. */
  build(): void {
    const queue: number[] = [];
    for (const child of (this.next[0] as Map<number, number>).values()) queue.push(child);
    for (let head = 0; head < queue.length; head++) {
      const state = queue[head] as number;
      for (const [code, child] of this.next[state] as Map<number, number>) {
        let fallback = this.fail[state] as number;
        while (fallback !== 0 && !(this.next[fallback] as Map<number, number>).has(code))
          fallback = this.fail[fallback] as number;
        const target = (this.next[fallback] as Map<number, number>).get(code);
        this.fail[child] = target !== undefined && target !== child ? target : 0;
        (this.outputs[child] as number[]).push(...(this.outputs[this.fail[child] as number] as number[]));
        queue.push(child);
      }
    }
  }

  /** Calls `found(literalId, end)` for each occurrence (`end` is the index after its last character). */
  scan(text: string, found: (literal: number, end: number) => void): void {
    let state = 0;
    for (let i = 0; i < text.length; i++) {
      state = this.step(state, text.charCodeAt(i));
      const outputs = this.outputs[state] as number[];
      for (let k = 0; k < outputs.length; k++) found(outputs[k] as number, i + 1);
    }
  }

  /** Whether any literal occurs in the text; stops at the first. */
  findsAny(text: string): boolean {
    let state = 0;
    for (let i = 0; i < text.length; i++) {
      state = this.step(state, text.charCodeAt(i));
      if ((this.outputs[state] as number[]).length > 0) return true;
    }
    return false;
  }

  /** The state after reading one character. */
  private step(from: number, code: number): number {
    let state = from;
    let target = (this.next[state] as Map<number, number>).get(code);
    while (target === undefined && state !== 0) {
      state = this.fail[state] as number;
      target = (this.next[state] as Map<number, number>).get(code);
    }
    return target ?? 0;
  }
}
