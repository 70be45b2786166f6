import { hclString, quoted } from '../../terraform/strings.js';

/**
 * Writing HCL (Terraform's native syntax) for `cfrules export terraform`. Strings are written by
 * src/terraform/strings.ts, which `cfrules validate` and `fmt` read `.tf` files with, so that every string
 * reads back exactly as it was.
 */

export { hclString, isNfc, quoted } from '../../terraform/strings.js';

/** Values an attribute may hold; a map becomes `{ "key" = value }`. */
export type HclValue = string | number | boolean | readonly string[] | { readonly [key: string]: string };

export interface HclAttribute {
  name: string;
  value: HclValue;
}

export interface HclBlock {
  type: string;
  labels?: string[];
  /** Comment lines written above the block. */
  comments?: string[];
  body: HclItem[];
}

export type HclItem = HclAttribute | HclBlock;

const isBlock = (item: HclItem): item is HclBlock => 'body' in item;

function valueText(value: HclValue, indent: string): string {
  if (typeof value === 'string') return hclString(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `[${value.map((item) => quoted(item)).join(', ')}]`;
  const entries = Object.entries(value);
  if (entries.length === 0) return '{}';
  const width = Math.max(...entries.map(([key]) => quoted(key).length));
  const lines = entries.map(([key, item]) => `${indent}  ${quoted(key).padEnd(width)} = ${quoted(item)}`);
  return `{\n${lines.join('\n')}\n${indent}}`;
}

/** Writes blocks as `terraform fmt` lays them out: two-space indents, `=` aligned in runs of attributes. */
export function writeHcl(blocks: readonly HclBlock[]): string {
  return blocks.map((block) => writeBlock(block, '')).join('\n');
}

function writeBlock(block: HclBlock, indent: string): string {
  const comments = (block.comments ?? []).map((line) => `${indent}# ${line}\n`).join('');
  const labels = (block.labels ?? []).map((label) => ` ${quoted(label)}`).join('');
  const inner = `${indent}  `;
  const lines: string[] = [];
  let run: HclAttribute[] = [];
  const flush = () => {
    const width = Math.max(0, ...run.map((attribute) => attribute.name.length));
    for (const { name, value } of run)
      lines.push(`${inner}${name.padEnd(width)} = ${valueText(value, inner)}`);
    run = [];
  };
  for (const item of block.body) {
    if (!isBlock(item)) {
      run.push(item);
      continue;
    }
    flush();
    // terraform fmt separates a nested block from what precedes it by a blank line.
    if (lines.length > 0) lines.push('');
    lines.push(writeBlock(item, inner).replace(/\n$/, ''));
  }
  flush();
  const body = lines.length === 0 ? '' : `${lines.join('\n')}\n`;
  return `${comments}${indent}${block.type}${labels} {\n${body}${indent}}\n`;
}
