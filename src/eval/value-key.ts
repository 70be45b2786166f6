import type { TypedArgument, TypedValue } from '../check/typed-ast.js';

/**
 * A name for what a value computes, the same for the same computation wherever it is written: a field
 * (`http.user_agent`), a constant index into one (`http.request.headers["x-api-key"][0]`), or a call whose
 * arguments are such values or literals (`lower(http.host)`, `waf_transform("lowercase", waf.args.values)`).
 * Undefined for values that depend on more than the request (mapped `[*]` values, arguments that are
 * expressions). A request computes a keyed call once however many rules ask for it (compile.ts), and the
 * zone program indexes what it tests by key (src/engine/program).
 */
export function valueKey(node: TypedValue): string | undefined {
  if (node.mapped) return undefined;
  if (node.kind === 'field') return node.name;
  if (node.kind === 'index') {
    if (node.index.kind === 'map-each') return undefined;
    const target = valueKey(node.target);
    return target === undefined
      ? undefined
      : `${target}[${JSON.stringify(node.index.kind === 'map-key' ? node.index.key : node.index.index)}]`;
  }
  const args: string[] = [];
  for (const arg of node.args) {
    const key = argumentKey(arg);
    if (key === undefined) return undefined;
    args.push(key);
  }
  return `${node.name}(${args.join(', ')})`;
}

function argumentKey(arg: TypedArgument): string | undefined {
  if (arg.kind === 'literal')
    return typeof arg.value === 'bigint' ? `${arg.value}` : JSON.stringify(arg.value);
  if (arg.kind === 'field' || arg.kind === 'index' || arg.kind === 'call') return valueKey(arg);
  return undefined;
}
