import type { Edit } from 'web-tree-sitter';
import { utf8Length } from '../lang/position.js';
import { children, type HclParser, type Node, namedChildren, type Tree } from './parser.js';
import {
  type DecodedString,
  decodeHeredoc,
  decodeQuoted,
  escapeTemplates,
  HclStringError,
  heredocBody,
  quotedBody,
} from './strings.js';

/**
 * The rule expressions of a Terraform file: the `expression` of every rule of a `cloudflare_ruleset`
 * (provider 4's `rules { … }` blocks, `dynamic "rules"` blocks, and provider 5's `rules = [{ … }]` list),
 * and of every `cloudflare_filter`. Each is either a literal string, decoded, with the map of its offsets
 * to the file's, or an expression Terraform computes (an interpolation, a reference, a function call),
 * which cannot be checked before Terraform runs.
 */

/** A 1-based line, and a 1-based column in UTF-8 bytes (as cfrules counts them everywhere). */
export interface FilePosition {
  line: number;
  column: number;
}

export type ResourceType = 'cloudflare_ruleset' | 'cloudflare_filter';

export const RESOURCE_TYPES: readonly ResourceType[] = ['cloudflare_ruleset', 'cloudflare_filter'];

/** One `expression` attribute found in a file. */
export interface TerraformExpression {
  /** The resource: `cloudflare_ruleset.custom`. */
  address: string;
  resourceType: ResourceType;
  /** The rule in the ruleset, as Terraform names it (`rules[0]`); not set for filters. */
  rule?: string;
  /** A rewrite expression (a value, not a condition), and where it is in the rule; not set for filters. */
  kind?: 'rewrite';
  field?: string;
  /** The rule's `ref` and `description` (the filter's `description`), when they are literal strings. */
  ref?: string;
  description?: string;
  /**
   * The phase the expression runs in: the ruleset's `phase` when it is a literal string, `firewall_rules`
   * for a filter (filters are read by firewall rules); not set when Terraform computes it.
   */
  phase?: string;
  /** Where the attribute's value is written in the file, `[start, end)` (UTF-16 offsets). */
  start: number;
  end: number;
  /** The value's text as written. */
  source: string;
  /** The literal, decoded; not set when Terraform computes the value. */
  literal?: TerraformLiteral;
}

export interface TerraformLiteral {
  form: 'quoted' | 'heredoc';
  /**
   * The expression: the string's value, less the line break a heredoc's last line always ends with (it is
   * not part of what is written between the markers, and formatting it away would change nothing).
   */
  expression: string;
  /** The file's offset of an offset into `expression`. */
  toFile(offset: number): number;
  /** The offset into `expression` of a file's offset (in the literal, else clamped to it). */
  fromFile(offset: number): number;
  /** The text that replaces `[start, end)` of the file so that the literal holds `expression` instead. */
  rewrite(expression: string): { start: number; end: number; text: string };
  /**
   * How a piece of the expression is written inside the literal, where it replaces part of it (an editor's
   * completion or fix, or the whole expression formatted): escaped for a quoted string; for a heredoc, its
   * template sequences escaped and each new line indented as the heredoc's lines are.
   */
  encode(piece: string): string;
}

/** A problem with the file itself: HCL that does not parse, a literal HCL refuses. */
export interface TerraformProblem {
  code: 'hcl-syntax';
  message: string;
  offset: number;
  position: FilePosition;
}

export interface TerraformFile {
  expressions: TerraformExpression[];
  /** The first problem, if any; the expressions are then those found before it. */
  problem?: TerraformProblem;
  /** The position in the file of an offset (UTF-16) into its text. */
  position(offset: number): FilePosition;
}

/** Reads the rule expressions of the Terraform file whose text is `text`. */
export function readTerraform(parser: HclParser, text: string): TerraformFile {
  const tree = parser.parse(parsedText(text));
  try {
    return readTree(tree, text);
  } finally {
    tree.delete();
  }
}

/**
 * A Terraform file being edited, read again at each version: each version is parsed from the tree of the
 * one before, told what changed (the text between the versions' common start and common end), so that
 * tree-sitter parses again only around the edit — on a 2,000-line file, a keystroke then costs a fraction
 * of a whole parse. `dispose` frees the tree.
 */
export class TerraformDocument {
  private text: string | undefined;
  private tree: Tree | undefined;

  constructor(private readonly parser: HclParser) {}

  read(text: string): TerraformFile {
    const parsed = parsedText(text);
    if (this.tree && this.text !== undefined) this.tree.edit(editBetween(this.text, parsed));
    const tree = this.parser.parse(parsed, this.tree);
    this.tree?.delete();
    this.tree = tree;
    this.text = parsed;
    return readTree(tree, text);
  }

  dispose(): void {
    this.tree?.delete();
    this.tree = undefined;
    this.text = undefined;
  }
}

/**
 * The text as the parser gets it: a byte order mark is not part of the first line (positions are counted
 * after it, as for other files), and a space in its place keeps every offset.
 */
const parsedText = (text: string): string => (text.startsWith('\uFEFF') ? ` ${text.slice(1)}` : text);

/** The edit that turns `before` into `after`: what lies between their common start and common end. */
function editBetween(before: string, after: string): Edit {
  const shorter = Math.min(before.length, after.length);
  let start = 0;
  while (start < shorter && before.charCodeAt(start) === after.charCodeAt(start)) start++;
  let common = 0;
  while (
    common < shorter - start &&
    before.charCodeAt(before.length - 1 - common) === after.charCodeAt(after.length - 1 - common)
  )
    common++;
  const oldEnd = before.length - common;
  const newEnd = after.length - common;
  return {
    startIndex: start,
    oldEndIndex: oldEnd,
    newEndIndex: newEnd,
    startPosition: pointAt(before, start),
    oldEndPosition: pointAt(before, oldEnd),
    newEndPosition: pointAt(after, newEnd),
  };
}

/** Tree-sitter's row and column of an offset (UTF-16 code units, as web-tree-sitter counts them). */
function pointAt(text: string, offset: number): { row: number; column: number } {
  let row = 0;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    row++;
    lineStart = i + 1;
  }
  return { row, column: offset - lineStart };
}

/** The rule expressions of a file from its syntax tree. */
function readTree(tree: Tree, text: string): TerraformFile {
  const position = positions(text, text.startsWith('\uFEFF') ? 1 : 0);
  const expressions: TerraformExpression[] = [];
  const root = tree.rootNode;
  const problem = syntaxProblem(root, text);
  if (problem) return { expressions, position, problem: { ...problem, position: position(problem.offset) } };
  try {
    for (const block of blocksOf(root)) readResource(block, text, expressions);
  } catch (error) {
    if (!(error instanceof HclStringError)) throw error;
    const offset = error.offset;
    return {
      expressions,
      position,
      problem: { code: 'hcl-syntax', message: error.message, offset, position: position(offset) },
    };
  }
  return { expressions, position };
}

/** Line and column of an offset, from a table of line starts. */
function positions(text: string, first: number): (offset: number) => FilePosition {
  const starts = [first];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return (offset) => {
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if ((starts[middle] as number) <= offset) low = middle;
      else high = middle - 1;
    }
    const start = starts[low] as number;
    return { line: low + 1, column: utf8Length(text, start, Math.max(start, offset)) + 1 };
  };
}

/** The first place where the tree-sitter grammar could not read the file, in words. */
function syntaxProblem(
  root: Node,
  text: string,
): { code: 'hcl-syntax'; message: string; offset: number } | undefined {
  if (!root.hasError) return undefined;
  const found = firstError(root);
  if (!found) return { code: 'hcl-syntax', message: 'the file is not valid HCL', offset: 0 };
  // An unclosed construct is reported where it opens: the end tree-sitter says is missing is far away.
  if (found.isMissing) {
    let construct: Node | null = found.parent;
    while (construct && UNCLOSED[construct.type] === undefined) construct = construct.parent;
    if (construct)
      return {
        code: 'hcl-syntax',
        message: UNCLOSED[construct.type] as string,
        offset: construct.startIndex,
      };
    return { code: 'hcl-syntax', message: missingMessage(found.type), offset: found.startIndex };
  }
  const badEscape = invalidEscape(text, found.startIndex);
  if (badEscape) return { code: 'hcl-syntax', ...badEscape };
  const shown = found.text.split('\n')[0] ?? '';
  return {
    code: 'hcl-syntax',
    message:
      shown.trim() === ''
        ? 'unexpected text'
        : `unexpected ${JSON.stringify(shown.length > 40 ? `${shown.slice(0, 40)}…` : shown)}`,
    offset: found.startIndex,
  };
}

/** The innermost error: tree-sitter wraps what it skipped in ERROR nodes, the first inner one is closest. */
function firstError(node: Node): Node | undefined {
  if (!node.hasError && !node.isMissing) return undefined;
  for (const child of children(node)) {
    const found = firstError(child);
    if (found) return found;
  }
  return node.isError || node.isMissing ? node : undefined;
}

/**
 * The grammar does not say why a string stopped reading; the usual reason is a backslash escape HCL does
 * not have (`"\d+"` instead of `"\\d+"`): look for one in a string on the line of the error.
 */
function invalidEscape(text: string, offset: number): { message: string; offset: number } | undefined {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const lineEnd = text.indexOf('\n', offset);
  const line = text.slice(lineStart, lineEnd < 0 ? text.length : lineEnd);
  const quote = line.indexOf('"');
  if (quote < 0) return undefined;
  let end = quote + 1;
  while (end < line.length && line[end] !== '"') end += line[end] === '\\' ? 2 : 1;
  try {
    decodeQuoted(text, lineStart + quote + 1, lineStart + Math.min(end, line.length));
  } catch (error) {
    if (error instanceof HclStringError && error.message.includes('escape'))
      return { message: error.message, offset: error.offset };
  }
  return undefined;
}

/** What is not closed when tree-sitter finds the end of a construct missing, by the construct's node type. */
const UNCLOSED: Record<string, string | undefined> = {
  string_lit: 'a quoted string is not closed: it needs a " before the end of its line',
  quoted_template: 'a quoted string is not closed: it needs a " before the end of its line',
  block: 'a block is not closed: } is missing',
  object: 'an object is not closed: } is missing',
  tuple: 'a list is not closed: ] is missing',
  heredoc_template: 'a heredoc is not closed: its marker is missing on a line of its own',
  template_interpolation: 'an interpolation is not closed: } is missing',
  function_call: 'a function call is not closed: ) is missing',
};

const missingMessage = (type: string): string =>
  `${/^[a-z_]+$/.test(type) ? type.replaceAll('_', ' ') : JSON.stringify(type)} is missing`;

/** The blocks of a file's (or a block's) body. */
function blocksOf(node: Node): Node[] {
  const body = node.type === 'body' ? node : namedChildren(node).find((child) => child.type === 'body');
  return body ? namedChildren(body).filter((child) => child.type === 'block') : [];
}

/** The attributes of a block's body: name → value (an `expression` node). */
function attributesOf(block: Node): Map<string, Node> {
  const attributes = new Map<string, Node>();
  const body = namedChildren(block).find((child) => child.type === 'body');
  if (!body) return attributes;
  for (const attribute of namedChildren(body)) {
    if (attribute.type !== 'attribute') continue;
    const [name, value] = namedChildren(attribute);
    if (name && value) attributes.set(name.text, value);
  }
  return attributes;
}

/** A block's type (`resource`) and labels (`cloudflare_ruleset`, `custom`). */
function header(block: Node, text: string): { type: string; labels: string[] } {
  const [type, ...rest] = namedChildren(block);
  const labels: string[] = [];
  for (const label of rest) {
    if (label.type === 'identifier') labels.push(label.text);
    else if (label.type === 'string_lit') labels.push(quotedLiteral(label, text)?.value ?? label.text);
    else break;
  }
  return { type: type?.text ?? '', labels };
}

function readResource(block: Node, text: string, out: TerraformExpression[]): void {
  const { type, labels } = header(block, text);
  const [resourceType, name] = labels;
  if (type !== 'resource' || !RESOURCE_TYPES.includes(resourceType as ResourceType) || name === undefined)
    return;
  const address = `${resourceType}.${name}`;
  const attributes = attributesOf(block);
  if (resourceType === 'cloudflare_filter') {
    const expression = attributes.get('expression');
    if (expression)
      out.push(
        found(expression, text, {
          address,
          resourceType,
          description: literalText(attributes.get('description'), text),
          phase: 'firewall_rules',
        }),
      );
    return;
  }
  const phase = literalText(attributes.get('phase'), text);
  const base = { address, resourceType: 'cloudflare_ruleset' as const, phase };
  let index = 0;
  const rule = (container: Container | undefined, at: Node) => {
    const name = `rules[${index++}]`;
    const expression = container?.attribute('expression');
    const about = {
      ...base,
      rule: name,
      ref: literalText(container?.attribute('ref'), text),
      description: literalText(container?.attribute('description'), text),
    };
    // A rule without an expression is Terraform's to refuse (the attribute is required); it is reported
    // there, not here.
    if (expression) out.push(found(expression, text, about));
    else if (at.type === 'expression') out.push(found(at, text, about, true));
    if (container)
      for (const { field, node } of rewriteExpressions(container, text))
        out.push(found(node, text, { ...about, kind: 'rewrite', field }));
  };
  // Provider 4: `rules { … }` blocks, and `dynamic "rules" { content { … } }`.
  for (const inner of blocksOf(block)) {
    const { type: innerType, labels: innerLabels } = header(inner, text);
    if (innerType === 'rules') rule(blockContainer(inner, text), inner);
    else if (innerType === 'dynamic' && innerLabels[0] === 'rules') {
      const content = blocksOf(inner).find((candidate) => header(candidate, text).type === 'content');
      if (content) rule(blockContainer(content, text), content);
    }
  }
  // Provider 5: `rules = [{ … }, …]`. A list Terraform computes (a variable, a `for` expression) is reported
  // as one expression that cannot be checked.
  const list = attributes.get('rules');
  if (list) {
    const tuple = unwrap(list, ['collection_value', 'tuple']);
    if (!tuple) {
      out.push(found(list, text, { ...base, rule: 'rules' }));
      return;
    }
    for (const item of namedChildren(tuple)) {
      if (item.type !== 'expression') continue;
      const object = unwrap(item, ['collection_value', 'object']);
      // An item Terraform computes (`var.rule`) is one expression that cannot be checked.
      rule(object ? objectContainer(object, text) : undefined, object ?? item);
    }
  }
}

/**
 * What a rule's parts hold, whether provider 4 writes them as blocks (`action_parameters { uri { … } }`) or
 * provider 5 as objects (`action_parameters = { uri = { … } }`): an attribute's value, and the parts of a
 * part. A part that is a map of objects (provider 5's `headers = { "name" = { … } }`) gives each object with
 * its key; provider 4 writes one block per header, with its `name`.
 */
interface Container {
  attribute(name: string): Node | undefined;
  parts(name: string, map?: boolean): { key?: string; part: Container }[];
}

function blockContainer(block: Node, text: string): Container {
  const attributes = attributesOf(block);
  return {
    attribute: (name) => attributes.get(name),
    parts: (name, map) => [
      ...blocksOf(block)
        .filter((inner) => header(inner, text).type === name)
        .map((inner) => ({ part: blockContainer(inner, text) })),
      ...valueParts(attributes.get(name), text, map),
    ],
  };
}

function objectContainer(object: Node, text: string): Container {
  const members = objectMembers(object, text);
  return {
    attribute: (name) => members.get(name),
    parts: (name, map) => valueParts(members.get(name), text, map),
  };
}

function valueParts(value: Node | undefined, text: string, map = false): { key?: string; part: Container }[] {
  const object = value && unwrap(value, ['collection_value', 'object']);
  if (!object) return [];
  if (!map) return [{ part: objectContainer(object, text) }];
  return [...objectMembers(object, text)].flatMap(([key, member]) => {
    const inner = unwrap(member, ['collection_value', 'object']);
    return inner ? [{ key, part: objectContainer(inner, text) }] : [];
  });
}

/**
 * The rewrite expressions of a rule (values Cloudflare computes, not conditions), where the API has them:
 * URL rewrites (`uri.path`, `uri.query`), header modifications and dynamic redirects' target URL.
 */
function rewriteExpressions(rule: Container, text: string): { field: string; node: Node }[] {
  const out: { field: string; node: Node }[] = [];
  const add = (part: Container, field: string) => {
    const node = part.attribute('expression');
    if (node) out.push({ field, node });
  };
  for (const { part: parameters } of rule.parts('action_parameters')) {
    for (const { part: uri } of parameters.parts('uri'))
      for (const component of ['path', 'query'])
        for (const { part } of uri.parts(component))
          add(part, `action_parameters.uri.${component}.expression`);
    for (const { key, part } of parameters.parts('headers', true)) {
      const name = key ?? literalText(part.attribute('name'), text) ?? '?';
      add(part, `action_parameters.headers.${name}.expression`);
    }
    for (const { part: from } of parameters.parts('from_value'))
      for (const { part } of from.parts('target_url'))
        add(part, 'action_parameters.from_value.target_url.expression');
  }
  return out;
}

/** The members of an object constructor `{ key = value, … }` whose keys are names or literal strings. */
function objectMembers(object: Node, text: string): Map<string, Node> {
  const members = new Map<string, Node>();
  for (const element of namedChildren(object)) {
    if (element.type !== 'object_elem') continue;
    const [key, value] = namedChildren(element);
    if (!key || !value) continue;
    const name = unwrap(key, ['variable_expr'])?.text ?? literalText(key, text);
    if (name !== undefined) members.set(name, value);
  }
  return members;
}

/** Follows a chain of single children of the given types from an `expression` node. */
function unwrap(node: Node, path: string[]): Node | undefined {
  let current: Node | undefined = node;
  for (const type of path) {
    const next: Node | undefined = current && namedChildren(current)[0];
    if (!next || next.type !== type) return undefined;
    current = next;
  }
  return current;
}

/** The value of an attribute when it is a literal string (quoted or heredoc), else undefined. */
function literalText(node: Node | undefined, text: string): string | undefined {
  if (!node) return undefined;
  try {
    return literalOf(node, text)?.expression;
  } catch {
    return undefined;
  }
}

function found(
  node: Node,
  text: string,
  about: Omit<TerraformExpression, 'start' | 'end' | 'source' | 'literal'>,
  computed = false,
): TerraformExpression {
  const literal = computed ? undefined : literalOf(node, text);
  return {
    ...about,
    start: node.startIndex,
    end: node.endIndex,
    source: text.slice(node.startIndex, node.endIndex),
    ...(literal ? { literal } : {}),
  };
}

/** The string literal an `expression` node is, when it is one: quoted (`"…"`) or a heredoc. */
function literalOf(node: Node, text: string): TerraformLiteral | undefined {
  const string = unwrap(node, ['literal_value', 'string_lit']);
  if (string) {
    const decoded = quotedLiteral(string, text);
    return decoded && quotedForm(decoded, string);
  }
  const template = unwrap(node, ['template_expr', 'heredoc_template']);
  if (template) return heredocLiteral(template, text);
  return undefined;
}

/** The content between a string_lit's quotes, decoded. */
function quotedLiteral(string: Node, text: string): DecodedString | undefined {
  const parts = children(string);
  const open = parts[0];
  const close = parts.at(-1);
  if (open?.type !== 'quoted_template_start' || close?.type !== 'quoted_template_end') return undefined;
  return decodeQuoted(text, open.endIndex, close.startIndex);
}

function quotedForm(decoded: DecodedString, string: Node): TerraformLiteral {
  const from = string.startIndex + 1;
  const to = string.endIndex - 1;
  return {
    form: 'quoted',
    expression: decoded.value,
    toFile: (offset) => decoded.map.toRaw(offset),
    fromFile: (offset) => decoded.map.toValue(offset),
    rewrite: (expression) => ({ start: from, end: to, text: quotedBody(expression) }),
    encode: quotedBody,
  };
}

/**
 * A heredoc without interpolations or directives. Its lines run from the line after `<<MARKER` to the line
 * of the closing marker; the marker's line, and the opening line, stay as they are when it is rewritten.
 */
function heredocLiteral(template: Node, text: string): TerraformLiteral | undefined {
  const parts = children(template);
  const start = parts[0];
  const opening = parts[1];
  const closing = parts.at(-1);
  if (start?.type !== 'heredoc_start' || opening?.type !== 'heredoc_identifier') return undefined;
  if (closing?.type !== 'heredoc_identifier' || closing === opening) return undefined;
  if (parts.slice(2, -1).some((part) => part.type !== 'template_literal')) return undefined;
  const indented = start.text === '<<-';
  const newline = text.indexOf('\n', opening.endIndex);
  const from = newline < 0 ? closing.startIndex : newline + 1;
  const to = text.lastIndexOf('\n', closing.startIndex - 1) + 1;
  const body = from <= to ? decodeHeredoc(text, from, to, indented) : undefined;
  if (!body) return undefined;
  const { value, map, indent } = body;
  const expression = value.endsWith('\n') ? value.slice(0, -1) : value;
  const crlf = text.slice(from, to).includes('\r\n');
  const marker = opening.text;
  return {
    form: 'heredoc',
    expression: expression.endsWith('\r') && crlf ? expression.slice(0, -1) : expression,
    toFile: (offset) => map.toRaw(offset),
    fromFile: (offset) => map.toValue(offset),
    rewrite: (next) => {
      const lines = next.split('\n');
      // A line that reads as the closing marker would end the heredoc there: write a quoted string.
      if (lines.some((line) => line.trim() === marker) || next.includes('\r'))
        return { start: template.startIndex, end: template.endIndex, text: `"${quotedBody(next)}"` };
      const written = heredocBody(`${next}\n`, indented ? indent : '');
      return { start: from, end: to, text: crlf ? written.replaceAll('\n', '\r\n') : written };
    },
    encode: (piece) =>
      escapeTemplates(piece).replaceAll('\n', `${crlf ? '\r\n' : '\n'}${indented ? indent : ''}`),
  };
}
