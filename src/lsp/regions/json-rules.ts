import { UsageError } from '../../cli/command.js';
import { readRuleFile } from '../../cli/rule-files.js';
import { offsetOfUtf8Position } from '../positions.js';
import { escapeJsonString, JsonStringMap } from './json-string.js';
import type { DocumentProblem, Region, RegionFinder } from './region.js';

// An API JSON rules file — filters, firewall rules, a ruleset, or an API response holding one — read by the
// CLI's reader (src/cli/rule-files.ts), so that the server finds the same expressions `cfrules validate`
// does, each `expression` and `filter.expression` (and the rewrite expressions of a ruleset's rules) a region
// whose offsets are mapped through the string's escapes.

export const jsonRulesFinder: RegionFinder = {
  name: 'JSON rules',
  accepts: ({ uri, languageId }) => languageId === 'json' || /\.json$/i.test(uri),
  find(text, uri) {
    try {
      const regions = readRuleFile(uri, uri, text).flatMap((entry): Region[] => {
        const written = entry.written;
        if (!written?.json) return [];
        return [jsonRegion(text, written.start + 1, written.end - 1, entry.kind, entry.phase)];
      });
      return { regions, problems: [] };
    } catch (error) {
      return { regions: [], problems: problemsOf(text, uri, error) };
    }
  },
};

/** The region of the JSON string literal whose raw content is `text[start, end)`. */
export function jsonRegion(
  text: string,
  start: number,
  end: number,
  kind: Region['kind'],
  phase?: string,
): Region {
  const raw = text.slice(start, end);
  const map = new JsonStringMap(raw);
  return {
    text: JSON.parse(`"${raw}"`) as string,
    start,
    end,
    kind,
    phase,
    toDocument: (offset) => start + map.toRaw(offset),
    fromDocument: (offset) => map.toValue(offset - start),
    encode: escapeJsonString,
  };
}

/**
 * What to say about a JSON document the reader refused. An editor opens many JSON files that are not rules
 * files (package.json, settings): JSON of another shape says nothing, and malformed JSON is reported (where
 * the parser stopped) only when it has an `"expression"` member, the mark of a rules file being edited. A
 * rules file with a broken rule (no expression string) is reported at its start.
 */
function problemsOf(text: string, uri: string, error: unknown): DocumentProblem[] {
  if (!(error instanceof UsageError)) throw error;
  // The reader names the file first (`NAME: what`, `NAME is not valid JSON: …`): the editor shows where.
  let message = error.message;
  if (message.startsWith(`${uri}: `)) message = message.slice(uri.length + 2);
  else if (message.startsWith(`${uri} `)) message = `this file ${message.slice(uri.length + 1)}`;
  if (/^unrecognised JSON|has neither "expression" nor "filter"|is not an object;/.test(message)) return [];
  if (/is not valid JSON/.test(message) && !/"expression"\s*:/.test(text)) return [];
  const location = error.location;
  let at = text.search(/\S|$/);
  if (location?.line !== undefined) at = offsetOfUtf8Position(text, location.line, location.column ?? 1);
  else if (/end of JSON input/.test(message)) at = text.length;
  return [{ start: at, end: Math.min(at + 1, text.length), message }];
}
