/**
 * The rules that need a literal anywhere in a piece, grouped by literal, then by piece: what the indexed
 * program looks up at each occurrence of a literal in a request's text (./index.ts). Uses are recorded
 * one by one while the zone's rules are read, then sorted once into flat arrays (a counting sort by piece,
 * then by literal, keeping the rules' order): a literal's groups are a range of `groupPiece`, a group's
 * rules a range of `rules`. (As an object per group and an array per rule list, the managed rulesets'
 * 20,000 uses were a tenth of all a process allocated to compile them.)
 */
export class LiteralUses {
  private literalOf: Int32Array = new Int32Array(1024);
  private pieceOf: Int32Array = new Int32Array(1024);
  private ruleOf: Int32Array = new Int32Array(1024);
  private count = 0;

  /** Records that `rule` needs literal `literal` anywhere in an element of piece `piece`. */
  add(literal: number, piece: number, rule: number): void {
    if (this.count === this.literalOf.length) {
      this.literalOf = grown(this.literalOf);
      this.pieceOf = grown(this.pieceOf);
      this.ruleOf = grown(this.ruleOf);
    }
    this.literalOf[this.count] = literal;
    this.pieceOf[this.count] = piece;
    this.ruleOf[this.count] = rule;
    this.count++;
  }

  /** The uses of `literals` literals over `pieces` pieces, sorted and grouped. */
  groups(literals: number, pieces: number): LiteralGroups {
    const byPiece = countingSort(this.pieceOf, identity(this.count), pieces);
    const order = countingSort(this.literalOf, byPiece, literals);
    const groupStart = new Int32Array(literals + 1);
    // As long as the uses: there are no more groups, nor rules, than uses.
    const groupPiece = new Int32Array(this.count);
    const ruleStart = new Int32Array(this.count + 1);
    const rules = new Int32Array(this.count);
    let groups = 0;
    let ruleCount = 0;
    let lastLiteral = -1;
    let lastPiece = -1;
    for (let k = 0; k < order.length; k++) {
      const use = order[k] as number;
      const literal = this.literalOf[use] as number;
      const piece = this.pieceOf[use] as number;
      const rule = this.ruleOf[use] as number;
      if (literal !== lastLiteral || piece !== lastPiece) {
        // Literals without uses up to this one start (and end) at this group.
        for (let l = lastLiteral + 1; l <= literal; l++) groupStart[l] = groups;
        groupPiece[groups] = piece;
        ruleStart[groups++] = ruleCount;
        lastLiteral = literal;
        lastPiece = piece;
      } else if (rules[ruleCount - 1] === rule) continue; // a rule's atoms may repeat a literal and piece
      rules[ruleCount++] = rule;
    }
    for (let l = lastLiteral + 1; l <= literals; l++) groupStart[l] = groups;
    ruleStart[groups] = ruleCount;
    return {
      groupStart,
      groupPiece: groupPiece.subarray(0, groups),
      ruleStart: ruleStart.subarray(0, groups + 1),
      rules: rules.subarray(0, ruleCount),
    };
  }
}

/**
 * Literal `l`'s groups are `groupStart[l]` to `groupStart[l + 1]` (excluded); group `g` is the rules
 * `rules[ruleStart[g]]` to `rules[ruleStart[g + 1]]` (excluded), which need the literal in piece
 * `groupPiece[g]`.
 */
export interface LiteralGroups {
  readonly groupStart: Int32Array;
  readonly groupPiece: Int32Array;
  readonly ruleStart: Int32Array;
  readonly rules: Int32Array;
}

/** `items` reordered by `keyOf[item]` (0 to `keys` − 1), keeping the order of items with equal keys. */
function countingSort(keyOf: Int32Array, items: Int32Array, keys: number): Int32Array {
  const start = new Int32Array(keys + 1);
  for (let i = 0; i < items.length; i++) start[(keyOf[items[i] as number] as number) + 1]++;
  for (let key = 0; key < keys; key++) start[key + 1] += start[key] as number;
  const sorted = new Int32Array(items.length);
  for (let i = 0; i < items.length; i++) {
    const item = items[i] as number;
    sorted[start[keyOf[item] as number] as number] = item;
    start[keyOf[item] as number]++;
  }
  return sorted;
}

function identity(length: number): Int32Array {
  const items = new Int32Array(length);
  for (let i = 0; i < length; i++) items[i] = i;
  return items;
}

export function grown(array: Int32Array): Int32Array {
  const bigger = new Int32Array(array.length * 2);
  bigger.set(array);
  return bigger;
}
