import { walkTyped } from '../check/walk.js';
import type { Filter } from '../eval/compile.js';

/**
 * Why a rule's expression costs what it does, read from its typed tree: what `cfrules bench` prints beside
 * each rule's time so that users know what to change.
 */
export function costReasons(filter: Filter): string[] {
  const reasons = new Set<string>();
  const functions = new Set<string>();
  walkTyped(filter.ast, (node) => {
    if (node.kind === 'comparison') {
      if (node.op === 'matches') reasons.add('regex');
      if (node.op === 'wildcard' || node.op === 'strict wildcard') reasons.add('wildcard');
      const { rhs } = node;
      const size =
        rhs.kind === 'bytes-set' || rhs.kind === 'int-set' || rhs.kind === 'ip-set' ? rhs.items.length : 0;
      if (size >= 100) reasons.add(`a set of ${size} items`);
      if (rhs.kind === 'list') reasons.add(`the list $${rhs.name}`);
    }
    if (node.kind === 'field' && node.name.startsWith('http.request.body')) reasons.add('reads the body');
    if (node.kind === 'index' && node.index.kind === 'map-each')
      reasons.add('goes through every element ([*])');
    if (node.kind === 'call') functions.add(node.name);
  });
  if (functions.size > 0) reasons.add(`functions: ${[...functions].join(', ')}`);
  return [...reasons];
}
