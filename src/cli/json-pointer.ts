/**
 * Where a JSON pointer (RFC 6901) leads in a JSON text: the API reports problems by pointer, and reports
 * about files must give a line and column. The text is valid JSON (it has been parsed already).
 */

/**
 * The offset in `text` of the value at `pointer`, or, when a member or element on the way is not there
 * (a required member left out), of the deepest object or array that is.
 */
export function jsonPointerOffset(text: string, pointer: string): number {
  return locate(text, pointer).value;
}

/**
 * Where a problem about the value at `pointer` is best shown: the member's key when the pointer ends at a
 * member (`"action": "blok"` is pointed at from `"action"`), else the value; when something on the way is
 * missing, the key (or element) of the deepest value that is there, as for `jsonPointerOffset`.
 */
export function jsonPointerKeyOffset(text: string, pointer: string): number {
  const found = locate(text, pointer);
  return found.key ?? found.value;
}

function locate(text: string, pointer: string): { value: number; key?: number } {
  const segments = pointer === '' ? [] : pointer.slice(1).split('/');
  let at: { value: number; key?: number } = { value: skipSpace(text, 0) };
  for (const raw of segments) {
    const segment = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (text[at.value] === '{') {
      const found = member(text, at.value, segment);
      if (found === undefined) return at;
      at = found;
    } else {
      const found = element(text, at.value, segment);
      if (found === undefined) return at;
      at = { value: found };
    }
  }
  return at;
}

/** The offsets of the key and the value of member `key` of the object at `at`. */
function member(text: string, at: number, key: string): { value: number; key: number } | undefined {
  let i = skipSpace(text, at + 1);
  while (text[i] === '"') {
    const keyEnd = stringEnd(text, i);
    const name = JSON.parse(text.slice(i, keyEnd)) as string;
    const value = skipSpace(text, skipSpace(text, keyEnd) + 1); // past the colon
    if (name === key) return { value, key: i };
    i = skipSpace(text, valueEnd(text, value));
    if (text[i] === ',') i = skipSpace(text, i + 1);
  }
  return undefined;
}

/** The offset of element `index` of the array at `at` (undefined for anything else). */
function element(text: string, at: number, index: string): number | undefined {
  if (text[at] !== '[' || !/^(?:0|[1-9]\d*)$/.test(index)) return undefined;
  let i = skipSpace(text, at + 1);
  for (let n = 0; i < text.length && text[i] !== ']'; n++) {
    if (n === Number(index)) return i;
    i = skipSpace(text, valueEnd(text, i));
    if (text[i] === ',') i = skipSpace(text, i + 1);
  }
  return undefined;
}

function skipSpace(text: string, at: number): number {
  let i = at;
  while (i < text.length && ' \t\r\n'.includes(text[i])) i++;
  return i;
}

/** The offset just past the string literal opening at `at`. */
function stringEnd(text: string, at: number): number {
  let i = at + 1;
  while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
  return i + 1;
}

/** The offset just past the value starting at `at`. */
function valueEnd(text: string, at: number): number {
  if (text[at] === '"') return stringEnd(text, at);
  if (text[at] !== '{' && text[at] !== '[') {
    let i = at;
    while (i < text.length && !',}] \t\r\n'.includes(text[i])) i++;
    return i;
  }
  let depth = 0;
  let i = at;
  while (i < text.length) {
    const c = text[i];
    if (c === '"') {
      i = stringEnd(text, i);
      continue;
    }
    if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') depth--;
    i++;
    if (depth === 0) return i;
  }
  return i;
}
