import type { Position, SignatureHelp } from 'vscode-languageserver';
import { functionInfo, signatureParts } from '../../editor/names.js';
import { tokenize } from '../../lang/lexer.js';
import { cloudflareScheme } from '../../scheme/scheme.js';
import type { DocumentAnalysis } from '../analysis.js';
import { lsp, type TextDocument } from '../protocol.js';
import { regionAt } from '../regions/region.js';
import { nameDocumentation } from './completion.js';

// Signature help inside a call: the innermost call open at the cursor, read with the project's lexer from
// the text before the cursor (so that parentheses and commas inside strings and regexes do not count), and
// which of its arguments the cursor is in.

interface OpenCall {
  /** The function's name, or undefined for a group or a quantifier's parentheses. */
  name?: string;
  argument: number;
}

/** The innermost call open at the end of `text`, and the index of the argument being written. */
export function openCall(text: string): { name: string; argument: number } | undefined {
  const { tokens } = tokenize(text);
  const stack: OpenCall[] = [];
  let braces = 0;
  tokens.forEach((token, i) => {
    const name = token.tokenType.name;
    if (name === 'LParen') {
      const previous = tokens[i - 1];
      const called = previous?.tokenType.name === 'Identifier' ? previous.image : undefined;
      stack.push({ name: called, argument: 0 });
    } else if (name === 'RParen') stack.pop();
    else if (name === 'LBrace') braces++;
    else if (name === 'RBrace') braces = Math.max(0, braces - 1);
    else if (name === 'Comma' && braces === 0 && stack.length > 0)
      (stack[stack.length - 1] as OpenCall).argument++;
  });
  for (let i = stack.length - 1; i >= 0; i--) {
    const call = stack[i] as OpenCall;
    if (call.name !== undefined) return { name: call.name, argument: call.argument };
  }
  return undefined;
}

export function signatureHelp(
  document: TextDocument,
  analysis: DocumentAnalysis,
  position: Position,
): SignatureHelp | null {
  const offset = document.offsetAt(position);
  const region = regionAt(analysis.regions, offset);
  if (!region) return null;
  const call = openCall(region.text.slice(0, region.fromDocument(offset)));
  const fn = call && cloudflareScheme.functions.get(call.name);
  if (!call || !fn || fn.managedOnly) return null;
  const { label, parameters } = signatureParts(fn);
  const documentation = nameDocumentation(functionInfo(fn, analysis.profileOf(region)));
  return {
    signatures: [
      {
        label,
        documentation: documentation ? { kind: lsp.MarkupKind.Markdown, value: documentation } : undefined,
        parameters: parameters.map((range) => ({ label: range })),
      },
    ],
    activeSignature: 0,
    // Past the last parameter (a variadic one) the cursor is still in the last.
    activeParameter: Math.min(call.argument, Math.max(parameters.length - 1, 0)),
  };
}
