import type { ExpressionKind } from '../../check/validate.js';

// The document model of the language server. A document (a .cfrules file, an API JSON rules file, a
// Terraform file) is text in which some ranges are expressions of the Rules language: regions. Every
// feature works on a region's decoded text with the library, then maps offsets back into the document. A
// kind of file is added by writing a RegionFinder for it (./finders.ts lists them); nothing else changes.

/** One expression written in a document. */
export interface Region {
  /** The expression as the library reads it: for a JSON string, its value, escapes decoded. */
  text: string;
  /** Where the expression is written in the document, `[start, end)` (offsets in UTF-16 code units). */
  start: number;
  end: number;
  /** A rule's filter (Bool) or a rewrite value. */
  kind: ExpressionKind;
  /** The phase the document states for this expression (a ruleset's `phase`), as written. */
  phase?: string;
  /** The document offset of an offset into `text` (0 … text.length). */
  toDocument(offset: number): number;
  /**
   * The offset into `text` of a document offset inside `[start, end]`; an offset inside an escape sequence
   * maps to the character it writes.
   */
  fromDocument(offset: number): number;
  /** How a piece of expression text is written in this region (a JSON string's escapes), for edits. */
  encode(text: string): string;
}

/**
 * Something about the document itself (not one of its expressions): malformed JSON, say (an error), or an
 * expression that cannot be checked (a warning).
 */
export interface DocumentProblem {
  start: number;
  end: number;
  message: string;
  /** `error` unless said. */
  severity?: 'error' | 'warning';
  /** The diagnostic's code: `document` unless said. */
  code?: string;
}

export interface RegionScan {
  regions: Region[];
  problems: DocumentProblem[];
}

/** What the server knows of a document when it picks a finder for it. */
export interface DocumentKind {
  uri: string;
  languageId: string;
}

/**
 * Finds the regions of one kind of document. `find` never throws: what it cannot read becomes a problem
 * (or, for a document that is simply not of its kind, no regions at all).
 */
export interface RegionFinder {
  /** Named in logs. */
  name: string;
  accepts(document: DocumentKind): boolean;
  find(text: string, uri: string): RegionScan;
}

/** A region written as it is read (a line of a .cfrules file): offsets map one to one. */
export function plainRegion(text: string, start: number, kind: ExpressionKind, phase?: string): Region {
  return {
    text,
    start,
    end: start + text.length,
    kind,
    phase,
    toDocument: (offset) => start + offset,
    fromDocument: (offset) => Math.min(Math.max(offset - start, 0), text.length),
    encode: (piece) => piece,
  };
}

/** The region holding document offset `offset` (its end included: the cursor after the last character). */
export function regionAt(regions: readonly Region[], offset: number): Region | undefined {
  let low = 0;
  let high = regions.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const region = regions[middle] as Region;
    if (offset < region.start) high = middle - 1;
    else if (offset > region.end) low = middle + 1;
    else return region;
  }
  return undefined;
}
