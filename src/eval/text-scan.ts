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
/** The automaton's first state (0 in its table means a transition not worked out yet). */
const ROOT = 1;

const NONE: readonly number[] = [];

export class TextScanner {
  /** The literals, by id; the automaton is built from them all at once (build()). */
  readonly literals: string[] = [];
  private built = false;
  /** After build(): byte → class. */
  private classOf = new Uint8Array(256);
  private classes = 1;
  /**
   * After build(): state × class → state, 0 where not worked out yet. States are numbered from 1 (the
   * root), so that a new table needs no filling: its zeros are the unknowns. The trie's edges and the
   * root's row are there from the start; any other transition is the fail state's, worked out the first
   * time a scan takes it (resolve()) and kept. Fail states and outputs are likewise worked out for a state
   * the first time a scan reaches it. A zone's index holds some 17,000 states and 85 classes, and a process
   * that loads the managed rulesets builds it before its first answer: completing the automaton at once
   * cost most of that time (the breadth-first walk alone some 6 ms), and a request's texts visit a small
   * part of it.
   */
  private table: Uint16Array | Int32Array = new Uint16Array(0);
  /** After build(): each state's fail state, 0 where not worked out yet. */
  private fail = new Int32Array(0);
  /** After build(): each state's parent in the trie, and the class of the edge from it. */
  private parent = new Int32Array(0);
  private classOfEdge = new Uint8Array(0);
  /** After build(): the literals ending exactly at each state (sparse: few states have any). */
  private own: number[][] = [];
  /** The literal ids ending at each state, its fail chain's included (most have none). */
  private outputs: (readonly number[])[] = [];
  /**
   * Per state: 0 if no literal ends there, 1 if some does, 2 while not worked out yet (outputsOf()): the
   * scan's one load to skip the states where nothing ends.
   */
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
    // The trie, each state's children as a list (first child, next sibling, the class of the edge into
    // it), in arrays as long as the literals' characters (the most states there can be); the root's
    // children by class too, since most literals begin there. The table is written once the number of
    // states is known. (A map of edges by state × class cost more than the rest of the build.)
    let most = ROOT + 1;
    for (const literal of literals) most += literal.length;
    const firstChild = new Int32Array(most);
    const nextSibling = new Int32Array(most);
    const classOfEdge = new Uint8Array(most);
    const parent = new Int32Array(most);
    const rootChild = new Int32Array(classes);
    let states = ROOT + 1;
    // The literals ending at each state: few states have any.
    const own: number[][] = [];
    literals.forEach((literal, id) => {
      let state = ROOT;
      for (let i = 0; i < literal.length; i++) {
        const cls = classOf[fold(literal.charCodeAt(i))] as number;
        let target = state === ROOT ? (rootChild[cls] as number) : (firstChild[state] as number);
        if (state !== ROOT)
          while (target !== 0 && classOfEdge[target] !== cls) target = nextSibling[target] as number;
        if (target === 0) {
          target = states++;
          classOfEdge[target] = cls;
          parent[target] = state;
          nextSibling[target] = firstChild[state] as number;
          firstChild[state] = target;
          if (state === ROOT) rootChild[cls] = target;
        }
        state = target;
      }
      const ending = own[state];
      if (ending) ending.push(id);
      else own[state] = [id];
    });
    // Two bytes a transition while the states fit (they do for the managed rulesets' index): half the
    // memory to read.
    const table = states <= 0xffff ? new Uint16Array(states * classes) : new Int32Array(states * classes);
    for (let state = ROOT; state < states; state++)
      for (let child = firstChild[state] as number; child !== 0; child = nextSibling[child] as number)
        table[state * classes + (classOfEdge[child] as number)] = child;
    // The root stays where it is on any byte that begins no literal.
    for (let cls = 0; cls < classes; cls++)
      if (table[ROOT * classes + cls] === 0) table[ROOT * classes + cls] = ROOT;
    this.table = table;
    this.fail = new Int32Array(states);
    // The root's fail state is itself: never used, but not 0, which would mean "not worked out yet".
    this.fail[ROOT] = ROOT;
    this.parent = parent;
    this.classOfEdge = classOfEdge;
    this.own = own;
    this.outputs = new Array(states).fill(NONE);
    this.outputs[ROOT] = own[ROOT] ?? NONE;
    this.ends = new Uint8Array(states).fill(2);
    this.ends[ROOT] = (this.outputs[ROOT] as readonly number[]).length > 0 ? 1 : 0;
  }

  /**
   * A state's fail state: the longest proper suffix of its path that is also a path of the trie. A child
   * of the root fails to the root; any other state to where its parent's fail state goes on its byte. The
   * ancestors not worked out yet are worked out first, from the top down, in a loop rather than by
   * recursion (a literal may be thousands of bytes long).
   */
  private failOf(state: number): number {
    const { fail, parent } = this;
    if (fail[state] === 0) {
      const pending: number[] = [];
      for (let at = state; fail[at] === 0; at = parent[at] as number) pending.push(at);
      for (let k = pending.length - 1; k >= 0; k--) {
        const at = pending[k] as number;
        const up = parent[at] as number;
        fail[at] = up === ROOT ? ROOT : this.resolve(fail[up] as number, this.classOfEdge[at] as number);
      }
    }
    return fail[state] as number;
  }

  /**
   * The literals ending at a state, worked out (and kept) the first time: its own, then its fail state's,
   * along the fail chain to the first state already worked out (the root is).
   */
  private outputsOf(state: number): readonly number[] {
    const { ends, outputs, own } = this;
    const pending: number[] = [];
    for (let at = state; ends[at] === 2; at = this.failOf(at)) pending.push(at);
    for (let k = pending.length - 1; k >= 0; k--) {
      const at = pending[k] as number;
      const inherited = outputs[this.failOf(at)] as readonly number[];
      const mine = own[at] ?? NONE;
      const merged = mine.length === 0 ? inherited : inherited.length === 0 ? mine : [...mine, ...inherited];
      outputs[at] = merged;
      ends[at] = merged.length > 0 ? 1 : 0;
    }
    return outputs[state] as readonly number[];
  }

  /**
   * The state after `state` on a byte of class `cls`, where the table has none yet: the fail state's, along
   * the fail chain to the first state that knows it (the root knows every class); kept for every state
   * passed on the way.
   */
  private resolve(state: number, cls: number): number {
    const { table, classes } = this;
    let known = state;
    while (table[known * classes + cls] === 0) known = this.failOf(known);
    const target = table[known * classes + cls] as number;
    for (let at = state; at !== known; at = this.failOf(at)) table[at * classes + cls] = target;
    return target;
  }

  /** Calls `found(literalId, end)` for each occurrence (`end` is the index after its last character). */
  scan(text: string, found: (literal: number, end: number) => void): void {
    const { table, classes, classOf, outputs, ends } = this;
    let state = ROOT;
    for (let i = 0; i < text.length; i++) {
      const cls = classOf[text.charCodeAt(i) & 0xff] as number;
      const next = table[state * classes + cls] as number;
      state = next !== 0 ? next : this.resolve(state, cls);
      const end = ends[state];
      if (end === 0) continue;
      const output = (end === 1 ? outputs[state] : this.outputsOf(state)) as readonly number[];
      for (let k = 0; k < output.length; k++) found(output[k] as number, i + 1);
    }
  }

  /** Whether any literal occurs in the text; stops at the first. */
  findsAny(text: string): boolean {
    const { table, classes, classOf, ends } = this;
    let state = ROOT;
    for (let i = 0; i < text.length; i++) {
      const cls = classOf[text.charCodeAt(i) & 0xff] as number;
      const next = table[state * classes + cls] as number;
      state = next !== 0 ? next : this.resolve(state, cls);
      const end = ends[state];
      if (end === 1 || (end === 2 && this.outputsOf(state).length > 0)) return true;
    }
    return false;
  }
}
