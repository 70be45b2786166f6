import type { Document, LineCounter } from 'yaml';
import { spanOf, utf8Length } from '../lang/position.js';
import { requirePeer } from '../peers.js';
import { UsageError } from './command.js';
import { parseJsonInput } from './files.js';
import { jsonPointerKeyOffset, jsonPointerOffset } from './json-pointer.js';

/**
 * A zone, request or test file the user wrote, in JSON or YAML (by its extension), with the line each JSON
 * pointer leads to: problems are reported by pointer, and a user fixing them wants the line.
 */
export interface StructuredFile {
  name: string;
  value: unknown;
  /** The line (1-based) of the value at `pointer`, or of the nearest enclosing one. */
  lineOf(pointer: string): number;
  /**
   * Where to point at a problem with the value at `pointer`: its key when it is a member (`action:` of
   * `action: blok`), the element itself in a list; when it is missing, the key (or element) of the nearest
   * enclosing value. The column counts UTF-8 bytes, as the positions of expressions do.
   */
  positionOf(pointer: string): FilePosition;
}

/** A 1-based line and column. */
export interface FilePosition {
  line: number;
  column: number;
}

export const isYamlPath = (path: string): boolean => /\.ya?ml$/i.test(path);

/** Parses `text`, the content of `name`, as YAML when the name says so, as JSON otherwise. */
export function parseStructured(name: string, text: string): StructuredFile {
  return isYamlPath(name) ? parseYaml(name, text) : parseJson(name, text);
}

/** The file `name` is, when it is one (`-` is standard input). */
const fileOf = (name: string): string | undefined => (name === '-' ? undefined : name);

function parseJson(name: string, text: string): StructuredFile {
  const value = parseJsonInput(name, text, fileOf(name));
  const at = (offset: number): FilePosition => {
    const { line, column } = spanOf(text, offset, offset);
    return { line, column };
  };
  return {
    name,
    value,
    lineOf: (pointer) => at(jsonPointerOffset(text, pointer)).line,
    positionOf: (pointer) => at(jsonPointerKeyOffset(text, pointer)),
  };
}

/** Where a YAML node starts, when it is one (a node's range is [start, value end, node end]). */
const startOf = (node: unknown): number | undefined =>
  (node as { range?: [number, number, number] } | null)?.range?.[0];

function parseYaml(name: string, text: string): StructuredFile {
  const yaml = requirePeer<typeof import('yaml')>('yaml');
  const lines: LineCounter = new yaml.LineCounter();
  const document: Document = yaml.parseDocument(text, { lineCounter: lines, prettyErrors: false });
  const error = document.errors[0];
  if (error) {
    const line = lines.linePos(error.pos[0]).line;
    const file = fileOf(name);
    throw new UsageError(
      `${name} is not valid YAML (line ${line}): ${error.message.split('\n')[0]}`,
      file === undefined ? undefined : { file, line },
    );
  }
  const at = (offset: number): FilePosition => {
    const { line } = lines.linePos(offset);
    return { line, column: utf8Length(text, lines.lineStarts[line - 1] ?? 0, offset) + 1 };
  };
  return {
    name,
    value: document.toJS({ maxAliasCount: 100 }),
    lineOf: (pointer) => {
      const segments = segmentsOf(pointer);
      // The deepest node on the way that exists: a missing member is reported where it should be.
      for (let depth = segments.length; depth >= 0; depth--) {
        const start = startOf(document.getIn(segments.slice(0, depth).map(keyOf), true));
        if (start !== undefined) return at(start).line;
      }
      return 1;
    },
    positionOf: (pointer) => {
      // Walked node by node, for the key of each member on the way (getIn gives values only).
      let node: unknown = document.contents;
      let offset = startOf(node) ?? 0;
      for (const segment of segmentsOf(pointer)) {
        const entry = yamlEntry(yaml, node, segment);
        if (entry === undefined) break;
        offset = entry.at ?? offset;
        node = entry.node;
      }
      return at(offset);
    },
  };
}

/** The member `segment` of a YAML map, or element of a YAML list: where it starts (its key), its value. */
function yamlEntry(
  yaml: typeof import('yaml'),
  node: unknown,
  segment: string,
): { at: number | undefined; node: unknown } | undefined {
  if (yaml.isMap(node)) {
    const pair = node.items.find((item) => yaml.isScalar(item.key) && String(item.key.value) === segment);
    return pair && { at: startOf(pair.key), node: pair.value };
  }
  if (yaml.isSeq(node) && /^(0|[1-9]\d*)$/.test(segment)) {
    const item = node.items[Number(segment)];
    return item === undefined ? undefined : { at: startOf(item), node: item };
  }
  return undefined;
}

const segmentsOf = (pointer: string): string[] =>
  pointer === '' ? [] : pointer.slice(1).split('/').map(unescapeSegment);
const unescapeSegment = (segment: string) => segment.replaceAll('~1', '/').replaceAll('~0', '~');
/** YAML sequences are indexed by number. */
const keyOf = (segment: string): string | number =>
  /^(0|[1-9]\d*)$/.test(segment) ? Number(segment) : segment;
