import type { TypedArgument, TypedExpression, TypedValue } from './typed-ast.js';

export type TypedNode = TypedExpression | TypedArgument;

/**
 * Visits every node of a typed tree in the order of the text (left side before right side, arguments in
 * order), so that the first finding reported is the first in the text.
 */
export function walkTyped(node: TypedNode, visit: (node: TypedNode) => void): void {
  visit(node);
  switch (node.kind) {
    case 'logical':
      for (const operand of node.operands) walkTyped(operand, visit);
      break;
    case 'not':
    case 'quantifier':
      walkTyped(node.operand, visit);
      break;
    case 'comparison':
      walkTyped(node.lhs, visit);
      break;
    case 'predicate':
      walkTyped(node.value, visit);
      break;
    case 'call':
      for (const arg of node.args) walkTyped(arg, visit);
      break;
    case 'index':
      walkTyped(node.target, visit);
      break;
    default:
      break;
  }
}

/** The value at the bottom of an index chain: the field or call being indexed. */
export function baseOf(value: TypedValue): TypedValue {
  let current = value;
  while (current.kind === 'index') current = current.target;
  return current;
}
