import { createRequire } from 'node:module';
import type * as LanguageServer from 'vscode-languageserver/node';
import type * as TextDocuments from 'vscode-languageserver-textdocument';

// vscode-languageserver is a CommonJS package whose modules require Node's own (`net`, `util`): the bundle
// keeps it external (scripts/bundle-options.mjs), and it is required here, when the language server starts,
// so that the ES-module build of the CLI loads it as well as the CommonJS one and no other command pays for
// it. Its types are imported as types only.

const require = createRequire(import.meta.url);

export const lsp = require('vscode-languageserver/node') as typeof LanguageServer;
export const { TextDocument } = require('vscode-languageserver-textdocument') as typeof TextDocuments;
export type TextDocument = TextDocuments.TextDocument;
