import type { Document, LineCounter } from 'yaml';
import { spanOf } from '../lang/position.js';
import { requirePeer } from '../peers.js';
import { UsageError } from './command.js';
import { parseJsonInput } from './files.js';
import { jsonPointerOffset } from './json-pointer.js';

/**
 * A zone, request or test file the user wrote, in JSON or YAML (by its extension), with the line each JSON
 * pointer leads to: problems are reported by pointer, and a user fixing them wants the line.
 */
export interface StructuredFile {
  name: string;
  value: unknown;
  /** The line (1-based) of the value at `pointer`, or of the nearest enclosing one. */
  lineOf(pointer: string): number;
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
  return {
    name,
    value,
    lineOf: (pointer) => {
      const offset = jsonPointerOffset(text, pointer);
      return spanOf(text, offset, offset).line;
    },
  };
}

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
  return {
    name,
    value: document.toJS({ maxAliasCount: 100 }),
    lineOf: (pointer) => {
      const segments = pointer === '' ? [] : pointer.slice(1).split('/').map(unescapeSegment);
      // The deepest node on the way that exists: a missing member is reported where it should be.
      for (let depth = segments.length; depth >= 0; depth--) {
        const node = document.getIn(segments.slice(0, depth).map(keyOf), true) as
          | { range?: [number, number, number] }
          | undefined;
        if (node?.range) return lines.linePos(node.range[0]).line;
      }
      return 1;
    },
  };
}

const unescapeSegment = (segment: string) => segment.replaceAll('~1', '/').replaceAll('~0', '~');
/** YAML sequences are indexed by number. */
const keyOf = (segment: string): string | number =>
  /^(0|[1-9]\d*)$/.test(segment) ? Number(segment) : segment;
