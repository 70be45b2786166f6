/**
 * The value types of the Rules language, written as the reference engine prints them: `Bytes`, `Int`,
 * `Bool`, `Ip`, `Array<T>`, `Map<T>` (maps have string keys).
 */
export type PrimitiveType = 'Bytes' | 'Int' | 'Bool' | 'Ip';

export type Type = PrimitiveType | { array: Type } | { map: Type };

export const arrayOf = (element: Type): Type => ({ array: element });
export const mapOf = (element: Type): Type => ({ map: element });

export const isPrimitive = (type: Type): type is PrimitiveType => typeof type === 'string';

/** The element type of an Array or a Map, or undefined for a primitive. */
export function elementType(type: Type): Type | undefined {
  if (typeof type === 'string') return undefined;
  return 'array' in type ? type.array : type.map;
}

export function sameType(a: Type, b: Type): boolean {
  if (typeof a === 'string' || typeof b === 'string') return a === b;
  if ('array' in a) return 'array' in b && sameType(a.array, b.array);
  return 'map' in b && sameType(a.map, (b as { map: Type }).map);
}

/** `Array<Bytes>`: the reference engine's Display form, used in type-mismatch messages. */
export function typeName(type: Type): string {
  if (typeof type === 'string') return type;
  return 'array' in type ? `Array<${typeName(type.array)}>` : `Map<${typeName(type.map)}>`;
}

/**
 * The reference engine's Debug form, which leaks into "cannot perform this operation" and index messages:
 * primitives print as themselves, compound types as `Array(CompoundType { … })`. The inner layout is the
 * engine's packed representation; only the primitive at the bottom is known to users, so we print it in
 * the same shape.
 */
export function typeDebugName(type: Type): string {
  if (typeof type === 'string') return type;
  let layers = 0;
  let inner = elementType(type) as Type;
  while (typeof inner !== 'string') {
    layers++;
    inner = elementType(inner) as Type;
  }
  const kind = 'array' in type ? 'Array' : 'Map';
  return `${kind}(CompoundType { layers: ${layers}, len: 0, primitive: ${inner} })`;
}

const primitives = new Set<string>(['Bytes', 'Int', 'Bool', 'Ip']);

/** Reads a type written as the engine prints it (`Map<Array<Bytes>>`); undefined when malformed. */
export function parseType(text: string): Type | undefined {
  const trimmed = text.trim();
  if (primitives.has(trimmed)) return trimmed as PrimitiveType;
  const match = /^(Array|Map)\s*<(.*)>$/.exec(trimmed);
  if (!match) return undefined;
  const inner = parseType(match[2] as string);
  if (inner === undefined) return undefined;
  return match[1] === 'Array' ? arrayOf(inner) : mapOf(inner);
}
