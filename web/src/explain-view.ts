import type { Explanation } from '../../src/index.js';
import { h } from './dom.js';

// The explain tree of src/eval/explain.ts as nested lists: each sub-expression as written, its result
// (true, false, missing, or skipped where short-circuiting never ran it), and the field values it read.

function resultText(explanation: Explanation): string {
  if (explanation.value !== undefined) return explanation.value;
  return Array.isArray(explanation.result)
    ? `[${explanation.result.join(', ')}]`
    : String(explanation.result);
}

function resultClass(result: Explanation['result']): string {
  if (result === true) return 'is-true';
  if (result === false) return 'is-false';
  if (Array.isArray(result)) return result.includes(true) ? 'is-true' : 'is-false';
  return 'is-muted';
}

function node(explanation: Explanation): HTMLLIElement {
  return h(
    'li',
    { class: `explain-node ${resultClass(explanation.result)}` },
    h(
      'div',
      { class: 'explain-line' },
      h('span', { class: 'explain-result' }, resultText(explanation)),
      h('code', { class: 'explain-text' }, explanation.text.replace(/\s+/g, ' ')),
    ),
    explanation.fields.length > 0 &&
      h(
        'ul',
        { class: 'explain-fields' },
        ...explanation.fields.map((field) =>
          h('li', {}, h('code', {}, field.name), ' = ', h('code', { class: 'field-value' }, field.value)),
        ),
      ),
    explanation.children.length > 0 &&
      h('ul', { class: 'explain-children' }, ...explanation.children.map(node)),
  );
}

export function explainTree(explanation: Explanation): HTMLElement {
  return h('ul', { class: 'explain-tree', 'aria-label': 'Explanation' }, node(explanation));
}
