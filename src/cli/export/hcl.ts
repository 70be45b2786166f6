import { hclString, quoted } from '../../terraform/strings.js';

/**
 * Writing HCL (Terraform's native syntax) for `cfrules export terraform`. Strings are written by
 * src/terraform/strings.ts, which `cfrules validate` and `fmt` read `.tf` files with, so that every string
 * reads back exactly as it was.
 */

export { hclString, isNfc, quoted } from '../../terraform/strings.js';

/**
 * Values an attribute may hold: a string, number or boolean; a list of strings (on one line); a map with
 * quoted keys (`{ "key" = value }`, values strings or lists of strings); an object with names as keys, or a
 * tuple of values (provider 5's nested attributes); a reference written as it is (`cloudflare_ruleset.x`).
 */
export type HclValue =
  | string
  | number
  | boolean
  | readonly string[]
  | HclMap
  | HclObject
  | HclTuple
  | HclReference;

export interface HclMap {
  kind: 'map';
  /** By key (written quoted): strings, lists of strings, or objects (provider 5's maps of objects). */
  entries: Readonly<Record<string, string | readonly string[] | HclObject>>;
}

export interface HclObject {
  kind: 'object';
  attributes: readonly HclAttribute[];
}

export interface HclTuple {
  kind: 'tuple';
  items: readonly HclValue[];
}

export interface HclReference {
  kind: 'reference';
  text: string;
}

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

const stringList = (items: readonly string[]): string => `[${items.map((item) => quoted(item)).join(', ')}]`;

function valueText(value: HclValue, indent: string): string {
  if (typeof value === 'string') return hclString(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return stringList(value);
  const compound = value as HclMap | HclObject | HclTuple | HclReference;
  const inner = `${indent}  `;
  switch (compound.kind) {
    case 'reference':
      return compound.text;
    case 'map': {
      const entries = Object.entries(compound.entries);
      if (entries.length === 0) return '{}';
      const width = Math.max(...entries.map(([key]) => quoted(key).length));
      const entryText = (item: string | readonly string[] | HclObject): string =>
        typeof item === 'string'
          ? quoted(item)
          : Array.isArray(item)
            ? stringList(item)
            : valueText(item, inner);
      const lines = entries.map(([key, item]) => `${inner}${quoted(key).padEnd(width)} = ${entryText(item)}`);
      return `{\n${lines.join('\n')}\n${indent}}`;
    }
    case 'object': {
      if (compound.attributes.length === 0) return '{}';
      return `{\n${attributeLines(compound.attributes, inner).join('\n')}\n${indent}}`;
    }
    case 'tuple': {
      if (compound.items.length === 0) return '[]';
      const items = compound.items.map((item) => `${inner}${valueText(item, inner)},`);
      return `[\n${items.join('\n')}\n${indent}]`;
    }
  }
}

/**
 * Attributes one per line, `=` aligned in runs as `terraform fmt` aligns them: a value that spans lines
 * ends a run, and so does a blank line (none are written).
 */
function attributeLines(attributes: readonly HclAttribute[], indent: string): string[] {
  const lines: string[] = [];
  let run: { name: string; text: string }[] = [];
  const flush = () => {
    const width = Math.max(0, ...run.map((attribute) => attribute.name.length));
    for (const { name, text } of run) lines.push(`${indent}${name.padEnd(width)} = ${text}`);
    run = [];
  };
  for (const { name, value } of attributes) {
    const text = valueText(value, indent);
    run.push({ name, text });
    if (text.includes('\n')) flush();
  }
  flush();
  return lines;
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
    lines.push(...attributeLines(run, inner));
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
