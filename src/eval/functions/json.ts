import { bytesArrayOf, type Value } from '../../scheme/values.js';
import { type FunctionRuntime, isBytes, isInt, utf8Bytes } from './runtime.js';

/**
 * `lookup_json_string` and `lookup_json_integer`: a path of object keys (Bytes) and array indexes (Int)
 * into a JSON document held in a Bytes value.
 *
 * We parse the document ourselves rather than with `JSON.parse`, for two reasons: the document is a binary
 * string (UTF-8 bytes) and keys and strings must come out as binary strings to compare with the literals,
 * and `lookup_json_integer` must see a number's text, since only plain integers count (`42.0` yields no
 * value, rules-language §7) and large integers must not be rounded to a double first.
 *
 * Decisions: the whole document must be valid JSON (RFC 8259, UTF-8, no lone surrogate escapes) or every
 * lookup is missing, as with a parser that reads the document before looking up; the last of duplicate keys wins, as in JavaScript and
 * serde_json; nesting deeper than 128 is treated as invalid (serde_json's default recursion limit), which
 * also keeps the parser from overflowing the stack.
 */

class JsonNumber {
  constructor(readonly text: string) {}
}

/** Strings and keys are binary strings (UTF-8 bytes). */
type JsonValue = string | JsonNumber | boolean | null | JsonValue[] | Map<string, JsonValue>;

const MAX_DEPTH = 128;

class InvalidJson extends Error {}

class JsonParser {
  private at = 0;

  constructor(private readonly text: string) {}

  parseDocument(): JsonValue {
    const value = this.value(0);
    this.skipSpace();
    if (this.at !== this.text.length) throw new InvalidJson();
    return value;
  }

  private skipSpace(): void {
    for (;;) {
      const code = this.text.charCodeAt(this.at);
      if (code !== 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) return;
      this.at++;
    }
  }

  private value(depth: number): JsonValue {
    if (depth > MAX_DEPTH) throw new InvalidJson();
    this.skipSpace();
    const ch = this.text[this.at];
    if (ch === '{') return this.object(depth);
    if (ch === '[') return this.array(depth);
    if (ch === '"') return this.string();
    if (ch === '-' || (ch !== undefined && ch >= '0' && ch <= '9')) return this.number();
    for (const [word, value] of [
      ['true', true],
      ['false', false],
      ['null', null],
    ] as const) {
      if (this.text.startsWith(word, this.at)) {
        this.at += word.length;
        return value;
      }
    }
    throw new InvalidJson();
  }

  private object(depth: number): Map<string, JsonValue> {
    const map = new Map<string, JsonValue>();
    this.at++;
    this.skipSpace();
    if (this.text[this.at] === '}') {
      this.at++;
      return map;
    }
    for (;;) {
      this.skipSpace();
      if (this.text[this.at] !== '"') throw new InvalidJson();
      const key = this.string();
      this.skipSpace();
      if (this.text[this.at] !== ':') throw new InvalidJson();
      this.at++;
      map.set(key, this.value(depth + 1));
      this.skipSpace();
      const next = this.text[this.at++];
      if (next === '}') return map;
      if (next !== ',') throw new InvalidJson();
    }
  }

  private array(depth: number): JsonValue[] {
    const items: JsonValue[] = [];
    this.at++;
    this.skipSpace();
    if (this.text[this.at] === ']') {
      this.at++;
      return items;
    }
    for (;;) {
      items.push(this.value(depth + 1));
      this.skipSpace();
      const next = this.text[this.at++];
      if (next === ']') return items;
      if (next !== ',') throw new InvalidJson();
    }
  }

  private number(): JsonNumber {
    const match = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
    match.lastIndex = this.at;
    const found = match.exec(this.text);
    if (!found || found[0] === '-') throw new InvalidJson();
    this.at += found[0].length;
    return new JsonNumber(found[0]);
  }

  /** A string token → its bytes; `\u` escapes become UTF-8, raw bytes are already UTF-8. */
  private string(): string {
    this.at++;
    let out = '';
    let runStart = this.at;
    for (;;) {
      const code = this.text.charCodeAt(this.at);
      if (Number.isNaN(code) || code < 0x20) throw new InvalidJson();
      if (code === 0x22 /* " */) {
        out += this.text.slice(runStart, this.at);
        this.at++;
        return out;
      }
      if (code === 0x5c /* \ */) {
        out += this.text.slice(runStart, this.at) + this.escape();
        runStart = this.at;
      } else {
        this.at++;
      }
    }
  }

  private escape(): string {
    const ch = this.text[this.at + 1];
    this.at += 2;
    const simple = ch === undefined ? undefined : SIMPLE_ESCAPES[ch];
    if (simple !== undefined) return simple;
    if (ch !== 'u') throw new InvalidJson();
    const unit = this.hex4();
    if (unit >= 0xd800 && unit <= 0xdbff && this.text.startsWith('\\u', this.at)) {
      this.at += 2;
      const low = this.hex4();
      if (low >= 0xdc00 && low <= 0xdfff)
        return utf8Bytes(0x10000 + ((unit - 0xd800) << 10) + (low - 0xdc00));
    }
    // A lone surrogate has no UTF-8 form, so the string has no bytes to give: the document is unusable,
    // as for a parser that reads JSON strings into UTF-8 text (serde_json rejects it).
    if (unit >= 0xd800 && unit <= 0xdfff) throw new InvalidJson();
    return utf8Bytes(unit);
  }

  private hex4(): number {
    const digits = this.text.slice(this.at, this.at + 4);
    if (!/^[0-9a-fA-F]{4}$/.test(digits)) throw new InvalidJson();
    this.at += 4;
    return Number.parseInt(digits, 16);
  }
}

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};

const utf8 = new TextDecoder('utf-8', { fatal: true });

function isUtf8(bytes: string): boolean {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: testing for plain ASCII
  if (/^[\x00-\x7f]*$/.test(bytes)) return true;
  try {
    utf8.decode(bytesArrayOf(bytes));
    return true;
  } catch {
    return false;
  }
}

let lastDocument: string | undefined;
let lastParsed: JsonValue | undefined;

/**
 * The document's value, or undefined when it is not valid JSON. The last document is remembered: rules
 * often look up several paths in the same body.
 */
function parseJson(document: string): JsonValue | undefined {
  if (document === lastDocument) return lastParsed;
  let parsed: JsonValue | undefined;
  if (isUtf8(document)) {
    try {
      parsed = new JsonParser(document).parseDocument();
    } catch (error) {
      if (!(error instanceof InvalidJson)) throw error;
    }
  }
  lastDocument = document;
  lastParsed = parsed;
  return parsed;
}

/** Follows keys through objects and indexes through arrays; a step that does not apply gives undefined. */
function lookup(document: string, path: readonly (Value | undefined)[]): JsonValue | undefined {
  let current = parseJson(document);
  for (const step of path) {
    if (current instanceof Map && isBytes(step)) current = current.get(step);
    else if (Array.isArray(current) && isInt(step)) current = current[step];
    else return undefined;
    if (current === undefined) return undefined;
  }
  return current;
}

const I64_MIN = -(2n ** 63n);
const I64_MAX = 2n ** 63n - 1n;

/**
 * A plain integer only (no fraction, no exponent), within the 64-bit range of the language's Int. Values
 * beyond ±2^53 lose precision in the JS number that represents Int at run time (src/scheme/values.ts).
 */
function integerOf(value: JsonValue): number | undefined {
  if (!(value instanceof JsonNumber) || !/^-?[0-9]+$/.test(value.text)) return undefined;
  const big = BigInt(value.text);
  return big >= I64_MIN && big <= I64_MAX ? Number(big) : undefined;
}

/** A runtime that finds the value at the path (literals, in practice) and converts it with `read`. */
function lookupRuntime(read: (found: JsonValue) => Value | undefined): FunctionRuntime {
  return {
    prepare(literals) {
      const literalPath = literals.slice(1);
      const fixedPath = literalPath.length > 0 && !literalPath.includes(undefined) ? literalPath : undefined;
      return (args) => {
        const document = args[0];
        if (!isBytes(document)) return undefined;
        const found = lookup(document, fixedPath ?? args.slice(1).map((arg, i) => literalPath[i] ?? arg));
        return found === undefined ? undefined : read(found);
      };
    },
  };
}

const lookupJsonString = lookupRuntime((found) => (typeof found === 'string' ? found : undefined));
const lookupJsonInteger = lookupRuntime(integerOf);

export const jsonRuntimes: ReadonlyMap<string, FunctionRuntime> = new Map([
  ['lookup_json_integer', lookupJsonInteger],
  ['lookup_json_string', lookupJsonString],
]);
