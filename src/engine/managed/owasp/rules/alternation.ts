/**
 * A list of words as one regex alternation, factored as a trie: `base64_decode|base64_encode|bzopen`
 * becomes `b(?:ase64_(?:decode|encode)|zopen)`. Same matches, but a regex engine that simulates the
 * automaton (V8's linear engine, which cfrules runs patterns on) then follows a handful of branches at
 * each position instead of one per word: on a list of 200 function names, about 150 ns a value instead
 * of 90 µs. Words are literal text; regex metacharacters in them are escaped.
 */
export function wordAlternation(words: readonly string[]): string {
  interface Node {
    readonly next: Map<string, Node>;
    end: boolean;
  }
  const root: Node = { next: new Map(), end: false };
  for (const word of words) {
    let node = root;
    for (const char of word) {
      let child = node.next.get(char);
      if (!child) {
        child = { next: new Map(), end: false };
        node.next.set(char, child);
      }
      node = child;
    }
    node.end = true;
  }
  const escaped = (char: string) => (/[.\\+*?()|[\]{}^$]/.test(char) ? `\\${char}` : char);
  const emit = (node: Node): string => {
    const branches = [...node.next.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([char, child]) => escaped(char) + emit(child));
    if (branches.length === 0) return '';
    const group = branches.length === 1 ? (branches[0] as string) : `(?:${branches.join('|')})`;
    if (!node.end) return group;
    // A word ends here and longer ones go on: what follows is optional.
    return branches.length === 1 && group.length > 1 ? `(?:${group})?` : `${group}?`;
  };
  return emit(root);
}
