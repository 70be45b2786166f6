import type { Hover, Position } from 'vscode-languageserver';
import { describeName } from '../../editor/names.js';
import type { DocumentAnalysis } from '../analysis.js';
import { lsp, type TextDocument } from '../protocol.js';
import { regionAt } from '../regions/region.js';
import { nameDocumentation } from './completion.js';

// Documentation on hover, as the playground shows it: a field's type, description, availability and
// deprecation; a function's signature; an operator's meaning. The word under the cursor is a name (letters,
// digits, `_` and `.`), read in the region's decoded text.

const NAME_CHARACTER = /[\w.]/;

export function hover(document: TextDocument, analysis: DocumentAnalysis, position: Position): Hover | null {
  const offset = document.offsetAt(position);
  const region = regionAt(analysis.regions, offset);
  if (!region) return null;
  const text = region.text;
  const at = region.fromDocument(offset);
  let from = at;
  let to = at;
  while (from > 0 && NAME_CHARACTER.test(text[from - 1] as string)) from--;
  while (to < text.length && NAME_CHARACTER.test(text[to] as string)) to++;
  if (from === to) return null;
  const info = describeName(text.slice(from, to), analysis.profileOf(region));
  if (!info) return null;
  const documentation = nameDocumentation(info);
  const title = `\`${info.name}\` — \`${info.detail}\``;
  return {
    contents: {
      kind: lsp.MarkupKind.Markdown,
      value: documentation ? `${title}\n\n${documentation}` : title,
    },
    range: {
      start: document.positionAt(region.toDocument(from)),
      end: document.positionAt(region.toDocument(to)),
    },
  };
}
