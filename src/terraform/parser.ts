import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Node, Parser, Tree } from 'web-tree-sitter';

/**
 * Terraform's native syntax (HCL) read by tree-sitter: web-tree-sitter (the tree-sitter runtime compiled to
 * WebAssembly) with the Terraform dialect of the tree-sitter-hcl grammar, whose .wasm file ships in its
 * npm package. Nothing is downloaded or compiled at run time; both load on first use (a few milliseconds),
 * so that a command that reads no `.tf` file does not pay for them.
 */

export type { Node, Tree } from 'web-tree-sitter';

/**
 * A loaded parser: `parse` reads one file's text into a syntax tree; given the tree of the text before an
 * edit (already told of the edit, `Tree.edit`), it reuses what the edit left alone.
 */
export interface HclParser {
  parse(text: string, previous?: Tree): Tree;
}

let loading: Promise<HclParser> | undefined;

/** The parser, loaded once per process. */
export function loadHclParser(): Promise<HclParser> {
  loading ??= load();
  return loading;
}

async function load(): Promise<HclParser> {
  const require = createRequire(import.meta.url);
  // Required, not imported: the CLI's CommonJS script (dist/cli.cjs, run by vm.Script) cannot import().
  const treeSitter = require('web-tree-sitter') as typeof import('web-tree-sitter');
  await treeSitter.Parser.init();
  const grammar = readFileSync(
    require.resolve('@tree-sitter-grammars/tree-sitter-hcl/tree-sitter-terraform.wasm'),
  );
  const language = await treeSitter.Language.load(new Uint8Array(grammar));
  const parser: Parser = new treeSitter.Parser();
  parser.setLanguage(language);
  return {
    parse(text, previous) {
      const tree = parser.parse(text, previous);
      if (tree === null) throw new Error('tree-sitter returned no tree');
      return tree;
    },
  };
}

/** The named children of a node, without the nulls web-tree-sitter's types allow. */
export const namedChildren = (node: Node): Node[] => node.namedChildren.filter((child) => child !== null);

/** All children of a node, anonymous tokens (`=`, `{`) included. */
export const children = (node: Node): Node[] => node.children.filter((child) => child !== null);
