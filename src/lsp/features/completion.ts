import type { CompletionItem, CompletionList, Position, Range } from 'vscode-languageserver';
import { completionPlace } from '../../editor/completion-context.js';
import { knownValues } from '../../editor/known-values.js';
import {
  customerFields,
  customerFunctions,
  fieldInfo,
  functionInfo,
  type NameInfo,
  operatorInfos,
  type Profile,
} from '../../editor/names.js';
import type { DocumentAnalysis } from '../analysis.js';
import { lsp, type TextDocument } from '../protocol.js';
import { regionAt } from '../regions/region.js';

// Completion, with the playground's rules of what completes where (src/editor/completion-context.ts):
// fields and functions where an operand starts, operators after one, known values (countries, methods, a
// field's documented values) inside the quotes after a comparison. Each item shows its type or signature,
// its plan and phase availability and its deprecation; what the region's plan and phase do not allow is
// sorted last.

/** How much of the text before the cursor decides what completes (as in the playground). */
const LOOK_BEHIND = 300;

const KIND = {
  field: lsp.CompletionItemKind.Field,
  function: lsp.CompletionItemKind.Function,
  operator: lsp.CompletionItemKind.Operator,
  list: lsp.CompletionItemKind.Constant,
} as const;

/** The markdown documentation of a name: its description, availability and deprecation. */
export function nameDocumentation(info: NameInfo): string {
  return [
    info.description,
    info.availability && `*Available:* ${info.availability}`,
    info.deprecated && `**${info.deprecated}**`,
    info.allowed ? undefined : '⚠ Not available with the configured plan and phase.',
  ]
    .filter(Boolean)
    .join('\n\n');
}

function itemOf(info: NameInfo, range: Range): CompletionItem {
  const documentation = nameDocumentation(info);
  // Allowed names first, deprecated ones after them, names the profile does not allow last.
  const rank = info.allowed ? (info.deprecated ? 1 : 0) : 2;
  const insert = info.kind === 'function' ? `${info.name}(` : info.name;
  return {
    label: info.name,
    kind: KIND[info.kind],
    detail: info.detail,
    documentation: documentation ? { kind: lsp.MarkupKind.Markdown, value: documentation } : undefined,
    tags: info.deprecated ? [lsp.CompletionItemTag.Deprecated] : undefined,
    sortText: `${rank}${info.name}`,
    filterText: info.name,
    textEdit: { range, newText: insert },
    command:
      info.kind === 'function'
        ? { title: 'Signature help', command: 'editor.action.triggerParameterHints' }
        : undefined,
  };
}

export function completion(
  document: TextDocument,
  analysis: DocumentAnalysis,
  position: Position,
): CompletionList | null {
  const offset = document.offsetAt(position);
  const region = regionAt(analysis.regions, offset);
  if (!region) return null;
  const at = region.fromDocument(offset);
  const before = region.text.slice(Math.max(0, at - LOOK_BEHIND), at);
  const place = completionPlace(before);
  const range: Range = {
    start: document.positionAt(region.toDocument(at - place.typed.length)),
    end: position,
  };
  const profile: Profile = analysis.profileOf(region);
  if (place.kind === 'value') {
    const known = knownValues(place.field);
    if (!known) return null;
    return {
      isIncomplete: false,
      items: known.values.map((value, i) => ({
        label: value,
        kind: lsp.CompletionItemKind.EnumMember,
        detail: known.what,
        sortText: String(i).padStart(4, '0'),
        textEdit: { range, newText: region.encode(value) },
      })),
    };
  }
  const infos =
    place.kind === 'operator'
      ? operatorInfos(profile)
      : [
          ...customerFields().map((field) => fieldInfo(field, profile)),
          ...customerFunctions().map((fn) => functionInfo(fn, profile)),
        ];
  return { isIncomplete: false, items: infos.map((info) => itemOf(info, range)) };
}
