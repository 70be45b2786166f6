// The flags in force at each point of a pattern, resolved here rather than handed to RE2

import type { Ast, FlagItem } from './syntax-tree.js';

export interface Flags {
  /** `i`: ASCII case folding in byte mode, Unicode simple case folding with `u`. */
  caseInsensitive: boolean;
  /** `m`: `^` and `$` also match at line breaks (`\n`). */
  multiLine: boolean;
  /** `s`: `.` also matches `\n`. */
  dotAll: boolean;
  /** `U`: greedy and lazy repetitions swap. */
  swapGreed: boolean;
  /** `u`: Unicode mode; off by default in the reference engine (byte mode). */
  unicode: boolean;
}

export const DEFAULT_FLAGS: Flags = {
  caseInsensitive: false,
  multiLine: false,
  dotAll: false,
  swapGreed: false,
  unicode: false,
};

/** Thrown for a construct the checker reports as unsupported; compileRegex only gets checked patterns. */
export class UnsupportedRegexError extends Error {}

const FLAG_NAMES: Record<string, keyof Flags> = {
  i: 'caseInsensitive',
  m: 'multiLine',
  s: 'dotAll',
  U: 'swapGreed',
  u: 'unicode',
};

/** `x` (verbose) was resolved by the parser; `R` (CRLF mode) has no RE2 equivalent. */
export function applyFlags(flags: Flags, items: FlagItem[]): Flags {
  const next = { ...flags };
  let enable = true;
  for (const { flag } of items) {
    if (flag === '-') enable = false;
    else if (flag === 'R') throw new UnsupportedRegexError('CRLF mode (?R)');
    else if (flag in FLAG_NAMES) next[FLAG_NAMES[flag]] = enable;
  }
  return next;
}

/**
 * Visits every node in pattern order with the flags in force there. A flag directive such as `(?i)` lasts
 * to the end of its group, across `|`, as in regex-syntax.
 */
export function visitWithFlags(ast: Ast, visit: (node: Ast, flags: Flags) => void): void {
  let flags = DEFAULT_FLAGS;
  const walk = (node: Ast): void => {
    if (node.type === 'flags') flags = applyFlags(flags, node.items);
    visit(node, flags);
    switch (node.type) {
      case 'group': {
        const outer = flags;
        if (node.flags) flags = applyFlags(flags, node.flags);
        walk(node.sub);
        flags = outer;
        return;
      }
      case 'repetition':
        walk(node.sub);
        return;
      case 'alternation':
      case 'concat':
        for (const sub of node.subs) walk(sub);
        return;
      default:
        return;
    }
  };
  walk(ast);
}

/** Number of capturing groups, `(…)` and named ones. */
export function countCaptures(ast: Ast): number {
  let count = 0;
  visitWithFlags(ast, (node) => {
    if (node.type === 'group' && node.capturing) count++;
  });
  return count;
}
