import { type Message, message } from '../lang/catalogue.js';
import { parseWildcard } from '../lang/wildcard.js';
import { checkRegex } from '../regex/index.js';
import type { FunctionDefinition, Parameter, ParameterType } from '../scheme/functions.js';
import { elementType, sameType, type Type, typeName } from '../scheme/types.js';
import type { TypedArgument } from './typed-ast.js';

/** What function arguments may be: the parameter for a position, accepted types and their wording. */

export function parameterAt(definition: FunctionDefinition, index: number): Parameter | undefined {
  const optional = definition.optional ?? [];
  if (index < definition.params.length) return definition.params[index];
  if (index < definition.params.length + optional.length) return optional[index - definition.params.length];
  return definition.variadic;
}

export function isMapped(arg: TypedArgument | undefined): boolean {
  return arg !== undefined && 'mapped' in arg && arg.mapped;
}

export function argumentType(arg: TypedArgument): Type {
  return arg.type;
}

export function accepts(accepted: ParameterType, type: Type, firstType: Type | undefined): boolean {
  if (accepted === 'Array<_>') return typeof type !== 'string' && 'array' in type;
  if (accepted === 'Map<_>') return typeof type !== 'string' && 'map' in type;
  if (accepted === 'same-as-first') return firstType !== undefined && sameType(type, firstType);
  if (accepted === 'element-of-first') {
    const element = firstType && elementType(firstType);
    if (!element) return false;
    // A map of arrays (headers) holds values of the arrays' element type too.
    return (
      sameType(type, element) ||
      (elementType(element) !== undefined && sameType(type, elementType(element) as Type))
    );
  }
  return sameType(accepted, type);
}

/** `Bytes`, `Bytes or Array<_>`, `{Int, Bool, Ip}`, as the reference engine lists expected types. */
export function describeTypes(types: readonly ParameterType[], firstType: Type | undefined): string {
  const names = types.map((t) => {
    if (t === 'same-as-first') return firstType ? typeName(firstType) : '_';
    if (t === 'element-of-first') {
      const element = firstType && elementType(firstType);
      return element ? typeName(element) : '_';
    }
    return typeof t === 'string' ? t : typeName(t);
  });
  if (names.length === 1) return names[0] as string;
  if (names.length === 2) return `${names[0]} or ${names[1]}`;
  return `{${names.join(', ')}}`;
}

/** Why a pattern argument (regex_replace, wildcard_replace) is invalid, if it is. */
export function patternError(kind: 'regex' | 'wildcard', pattern: string): Message | undefined {
  if (kind === 'wildcard') {
    const parsed = parseWildcard(pattern);
    return parsed.ok ? undefined : parsed.message;
  }
  const problem = checkRegex(pattern);
  return problem?.kind === 'invalid' ? message('patternError', { error: problem.message }) : undefined;
}
