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
  /** The literals, by id; the automaton is built from them all at once (build()). */
  readonly literals: string[] = [];
  private built = false;
  /** After build(): byte → class. */
  private classOf = new Uint8Array(256);
  private classes = 1;
  /**
   * After build(): state × class → state, -1 where not worked out yet. The trie's edges and the root's row
   * are there from the start; any other transition is the fail state's, worked out the first time a scan
   * takes it (resolve()) and kept. A zone's index holds some 18,000 states and 80 classes, and a process
   * that loads the managed rulesets builds it before its first answer: completing every row at once cost
   * most of that time, and a request's texts visit a small part of the table.
   */
  private table: Uint16Array | Int32Array = new Uint16Array(0);
  /** The table's "not worked out yet": the largest value of its element type, or -1. */
  private unknown = 0xffff;
  private fail = new Int32Array(0);
  /** After build(): the literal ids ending at each state, its fail chain's included (most have none). */
  private outputs: (readonly number[])[] = [];
  /** After build(): 1 for states where some literal ends (most states have none: one load to skip them). */
  private ends = new Uint8Array(0);

  constructor(private readonly ignoreCase = false) {}

  /** Adds a literal; returns its id. Call build() after the last. */
  add(literal: string): number {
    if (this.built) throw new Error('TextScanner: add() after build()');
    return this.literals.push(literal) - 1;
  }

  /** Builds the trie, then the failure links and outputs, breadth first. */
  build(): void {
    if (this.built) return;
    this.built = true;
    const { literals, classOf, ignoreCase } = this;
    const fold = (code: number): number =>
      ignoreCase && code >= 0x41 && code <= 0x5a ? code | 0x20 : code & 0xff;
    // Byte classes: one per byte some literal uses, class 0 for all the others.
    const used = new Uint8Array(256);
    for (const literal of literals) {
      for (let i = 0; i < literal.length; i++) used[fold(literal.charCodeAt(i))] = 1;
    }
    let classes = 1;
    for (let code = 0; code < 256; code++) if (used[code]) classOf[code] = classes++;
    if (ignoreCase)
      for (let upper = 0x41; upper <= 0x5a; upper++) classOf[upper] = classOf[upper | 0x20] as number;
    this.classes = classes;
    // The trie, its edges keyed by state × class, with each state's children as a list (first child, next
    // sibling) for the walk below; the table is written once the number of states is known.
    const edges = new Map<number, number>();
    const firstChild = [-1];
    const nextSibling = [-1];
    const classOfEdge = [0];
    // The literals ending at each state: few states have any.
    const own = new Map<number, number[]>();
    literals.forEach((literal, id) => {
      let state = 0;
      for (let i = 0; i < literal.length; i++) {
        const cls = classOf[fold(literal.charCodeAt(i))] as number;
        const at = state * classes + cls;
        let target = edges.get(at);
        if (target === undefined) {
          target = firstChild.length;
          edges.set(at, target);
          firstChild.push(-1);
          classOfEdge.push(cls);
          nextSibling.push(firstChild[state] as number);
          firstChild[state] = target;
        }
        state = target;
      }
      const ending = own.get(state);
      if (ending) ending.push(id);
      else own.set(state, [id]);
    });
    const states = firstChild.length;
    // Two bytes a transition while the states fit (they do for the managed rulesets' index): half the
    // memory to fill, and to read.
    const small = states < 0xffff;
    const unknown = small ? 0xffff : -1;
    const table = small ? new Uint16Array(states * classes) : new Int32Array(states * classes);
    table.fill(unknown);
    for (const [at, target] of edges) table[at] = target;
    // The root stays where it is on any byte that begins no literal.
    for (let cls = 0; cls < classes; cls++) if (table[cls] === unknown) table[cls] = 0;
    this.table = table;
    this.unknown = unknown;
    const NONE: readonly number[] = [];
    const outputs: (readonly number[])[] = new Array(states);
    const ends = new Uint8Array(states);
    const fail = new Int32Array(states);
    this.fail = fail;
    outputs[0] = own.get(0) ?? NONE;
    ends[0] = outputs[0].length > 0 ? 1 : 0;
    const queue = new Int32Array(states);
    let tail = 0;
    for (let child = firstChild[0] as number; child >= 0; child = nextSibling[child] as number)
      queue[tail++] = child;
    for (let head = 0; head < tail; head++) {
      const state = queue[head] as number;
      const failState = fail[state] as number;
      const inherited = outputs[failState] as readonly number[];
      const mine = own.get(state) ?? NONE;
      outputs[state] =
        mine.length === 0 ? inherited : inherited.length === 0 ? mine : [...mine, ...inherited];
      ends[state] = (outputs[state] as readonly number[]).length > 0 ? 1 : 0;
      for (let child = firstChild[state] as number; child >= 0; child = nextSibling[child] as number) {
        // A child of the root fails to the root; any other to where its parent's fail state goes on its byte.
        if (state !== 0) fail[child] = this.resolve(failState, classOfEdge[child] as number);
        queue[tail++] = child;
      }
    }
    this.outputs = outputs;
    this.ends = ends;
  }

  /**
   * The state after `state` on a byte of class `cls`, where the table has none yet: the fail state's, along
   * the fail chain to the first state that knows it (the root knows every class); kept for every state
   * passed on the way.
   */
  private resolve(state: number, cls: number): number {
    const { table, classes, fail, unknown } = this;
    let known = state;
    while (table[known * classes + cls] === unknown) known = fail[known] as number;
    const target = table[known * classes + cls] as number;
    for (let at = state; at !== known; at = fail[at] as number) table[at * classes + cls] = target;
    return target;
  }

  /** Calls `found(literalId, end)` for each occurrence (`end` is the index after its last character). */
  scan(text: string, found: (literal: number, end: number) => void): void {
    const { table, classes, classOf, outputs, ends, unknown } = this;
    let state = 0;
    for (let i = 0; i < text.length; i++) {
      const cls = classOf[text.charCodeAt(i) & 0xff] as number;
      const next = table[state * classes + cls] as number;
      state = next !== unknown ? next : this.resolve(state, cls);
      if (ends[state] === 0) continue;
      const output = outputs[state] as number[];
      for (let k = 0; k < output.length; k++) found(output[k] as number, i + 1);
    }
  }

  /** Whether any literal occurs in the text; stops at the first. */
  findsAny(text: string): boolean {
    const { table, classes, classOf, ends, unknown } = this;
    let state = 0;
    for (let i = 0; i < text.length; i++) {
      const cls = classOf[text.charCodeAt(i) & 0xff] as number;
      const next = table[state * classes + cls] as number;
      state = next !== unknown ? next : this.resolve(state, cls);
      if (ends[state] === 1) return true;
    }
    return false;
  }
}
