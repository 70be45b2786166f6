/**
 * Aho–Corasick over binary strings: every literal of every rule that tests one field, found in one pass
 * over the field's value, whatever the number of literals. Reports, for each occurrence, the literal and
 * where it ends, so that the caller can tell `contains` from `starts_with` and `ends_with`.
 *
 * `build` turns the trie into a complete automaton: every state has a next state for every byte, so a
 * step is one array read, whatever the text (request bodies reach hundreds of kilobytes). Bytes that no
 * literal tells apart share a class, so the table has one column per class — a few dozen, not 256.
 * With `ignoreCase`, ASCII letters of the text fall in the class of their lower-case letter: literals
 * given in lower case are then found in any case, without lower-casing the text first.
 */
export class TextScanner {
  /** Trie edges while literals are added: state → byte → state. */
  private next: Map<number, number>[] | undefined = [new Map()];
  /** Literal ids ending at each state, its fail chain's included. */
  private readonly outputs: number[][] = [[]];
  readonly literals: string[] = [];
  /** After build(): byte → class, and state × class → state. */
  private classOf = new Uint8Array(256);
  private classes = 1;
  private table = new Int32Array(0);
  /** After build(): 1 for states where some literal ends (most states have none: one load to skip them). */
  private ends = new Uint8Array(0);

  constructor(private readonly ignoreCase = false) {}

  /** Adds a literal; returns its id. Call build() after the last. */
  add(literal: string): number {
    if (!this.next) throw new Error('TextScanner: add() after build()');
    let state = 0;
    for (let i = 0; i < literal.length; i++) {
      const code = literal.charCodeAt(i);
      let target = (this.next[state] as Map<number, number>).get(code);
      if (target === undefined) {
        target = this.next.length;
        this.next.push(new Map());
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

  /** Computes the failure links, breadth first, and the complete table of transitions. */
  build(): void {
    const next = this.next;
    if (!next) return;
    this.next = undefined;
    // Byte classes: one per byte some literal uses, class 0 for all the others.
    const used = new Set<number>();
    for (const edges of next) for (const code of edges.keys()) used.add(code);
    let classes = 1;
    for (const code of [...used].sort((a, b) => a - b)) this.classOf[code] = classes++;
    if (this.ignoreCase)
      for (let upper = 0x41; upper <= 0x5a; upper++)
        this.classOf[upper] = this.classOf[upper | 0x20] as number;
    this.classes = classes;
    const table = new Int32Array(next.length * classes);
    const fail = new Int32Array(next.length);
    // The root: its edges, and itself for every other class.
    const queue: number[] = [];
    for (const [code, child] of next[0] as Map<number, number>) {
      table[this.classOf[code] as number] = child;
      queue.push(child);
    }
    for (let head = 0; head < queue.length; head++) {
      const state = queue[head] as number;
      const failState = fail[state] as number;
      // Every class goes where the fail state would go, unless the trie has an edge of its own.
      table.copyWithin(state * classes, failState * classes, failState * classes + classes);
      for (const [code, child] of next[state] as Map<number, number>) {
        const cls = this.classOf[code] as number;
        const target = table[failState * classes + cls] as number;
        fail[child] = target !== child ? target : 0;
        table[state * classes + cls] = child;
        (this.outputs[child] as number[]).push(...(this.outputs[fail[child] as number] as number[]));
        queue.push(child);
      }
    }
    this.table = table;
    this.ends = Uint8Array.from(this.outputs, (output) => (output.length > 0 ? 1 : 0));
  }

  /** Calls `found(literalId, end)` for each occurrence (`end` is the index after its last character). */
  scan(text: string, found: (literal: number, end: number) => void): void {
    const { table, classes, classOf, outputs, ends } = this;
    let state = 0;
    for (let i = 0; i < text.length; i++) {
      state = table[state * classes + (classOf[text.charCodeAt(i) & 0xff] as number)] as number;
      if (ends[state] === 0) continue;
      const output = outputs[state] as number[];
      for (let k = 0; k < output.length; k++) found(output[k] as number, i + 1);
    }
  }

  /** Whether any literal occurs in the text; stops at the first. */
  findsAny(text: string): boolean {
    const { table, classes, classOf, ends } = this;
    let state = 0;
    for (let i = 0; i < text.length; i++) {
      state = table[state * classes + (classOf[text.charCodeAt(i) & 0xff] as number)] as number;
      if (ends[state] === 1) return true;
    }
    return false;
  }
}
