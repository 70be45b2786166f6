// The editor's name knowledge is shared with the language server: it lives in src/editor/.
export * from '../../../src/editor/names.js';
