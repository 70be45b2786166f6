import { isUnsafe } from '../../lang/escape.js';

/**
 * Writing HCL (Terraform's native syntax) so that every string reads back exactly as it was. HCL strings
 * are templates: `${` starts an interpolation and `%{` a directive, in quoted strings and heredocs alike,
 * so both are doubled (`$${`, `%%{`); a `$` or `%` not followed by `{` is literal, even at the end.
 * Quoted strings also take backslash escapes (`\\`, `\"`, `\n`, `\r`, `\t`, `\uNNNN`); heredocs take none.
 */

/** The text of an HCL string literal whose value is `value`: quoted, or a heredoc where that is exact. */
export function hclString(value: string): string {
  return heredocFits(value) ? heredoc(value) : quoted(value);
}

/** `"…"`, escaped: controls and the characters terminals act on as `\uNNNN`, so the file shows them. */
export function quoted(value: string): string {
  let out = '"';
  for (let i = 0; i < value.length; i++) {
    const char = value[i] as string;
    const code = value.charCodeAt(i);
    const next = value[i + 1];
    if (char === '\\') out += '\\\\';
    else if (char === '"') out += '\\"';
    else if (char === '\n') out += '\\n';
    else if (char === '\r') out += '\\r';
    else if (char === '\t') out += '\\t';
    else if (isUnsafe(code)) out += `\\u${code.toString(16).padStart(4, '0')}`;
    else if ((char === '$' || char === '%') && next === '{') out += char + char;
    else out += char;
  }
  return `${out}"`;
}

/**
 * A heredoc's value is its lines, each with its line break, so it can only hold text that ends with a line
 * break (wrapping it in `chomp(…)` would make it an expression, not a literal). It cannot escape anything
 * but the template sequences, so text with a carriage return or another control character is quoted.
 */
function heredocFits(value: string): boolean {
  if (!value.endsWith('\n')) return false;
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code !== 0x0a && code !== 0x09 && (code === 0x0d || isUnsafe(code))) return false;
  }
  return true;
}

function heredoc(value: string): string {
  // The closing marker is a line holding only the marker: pick one the text never contains.
  let marker = 'EOT';
  for (let n = 1; value.includes(marker); n++) marker = `EOT${n}`;
  return `<<${marker}\n${value.replace(/([$%])(?=\{)/g, '$1$1')}${marker}`;
}

/**
 * Unicode text is read back in Normalization Form C: HCL normalizes every string literal (escapes
 * included), and Terraform every string value. Text that is not in NFC cannot round-trip.
 */
export const isNfc = (value: string): boolean => value === value.normalize('NFC');

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
