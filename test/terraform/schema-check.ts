// Checks Terraform configuration against a description of the provider's cloudflare_ruleset schema
// (src/terraform/ruleset-schema.ts), reading it with the HCL parser that `cfrules validate` reads .tf files with.
import type { HclParser, Node } from '../../src/terraform/parser.js';
import { children, namedChildren } from '../../src/terraform/parser.js';
import type { ResourceSchema, SchemaNode, ValueType } from '../../src/terraform/ruleset-schema.js';

/** What is wrong with the configuration, one line each: empty when it matches the schema. */
export function schemaProblems(parser: HclParser, text: string, schema: ResourceSchema): string[] {
  const tree = parser.parse(text);
  const problems: string[] = [];
  try {
    if (tree.rootNode.hasError) return ['the configuration is not valid HCL'];
    const body = namedChildren(tree.rootNode).find((node) => node.type === 'body');
    const resources = new Set<string>();
    const imports: { to: string; id: string }[] = [];
    for (const block of body ? namedChildren(body) : []) {
      if (block.type === 'comment') continue;
      if (block.type !== 'block') {
        problems.push(`top level: unexpected ${block.type}`);
        continue;
      }
      const [type, ...labels] = namedChildren(block);
      const name = type?.text;
      const labelText = labels
        .filter((label) => label.type === 'string_lit')
        .map((label) => label.text.slice(1, -1));
      if (name === 'resource' && labelText[0] === 'cloudflare_ruleset') {
        resources.add(`cloudflare_ruleset.${labelText[1]}`);
        checkBody(bodyOf(block), schema.members, `cloudflare_ruleset.${labelText[1]}`, problems);
      } else if (name === 'import') {
        const attributes = attributesOf(bodyOf(block));
        imports.push({
          to: attributes.get('to')?.text ?? '',
          id: attributes.get('id')?.text.slice(1, -1) ?? '',
        });
      } else if (name !== 'terraform') problems.push(`top level: unexpected block ${name}`);
    }
    const idPatterns = Object.values(schema.importIds).map(
      (form) => new RegExp(`^${form.replace('{id}', '[0-9a-f]{32}').replace('{ruleset}', '[0-9a-f]{32}')}$`),
    );
    for (const { to, id } of imports) {
      if (!resources.has(to)) problems.push(`import: ${to} is not a resource of the configuration`);
      if (!idPatterns.some((pattern) => pattern.test(id)))
        problems.push(`import: id ${id} is none of ${Object.values(schema.importIds).join(', ')}`);
    }
    for (const resource of resources)
      if (!imports.some((entry) => entry.to === resource)) problems.push(`${resource}: no import block`);
  } finally {
    tree.delete();
  }
  return problems;
}

const bodyOf = (block: Node): Node | undefined => namedChildren(block).find((node) => node.type === 'body');

function attributesOf(body: Node | undefined): Map<string, Node> {
  const out = new Map<string, Node>();
  for (const item of body ? namedChildren(body) : []) {
    if (item.type !== 'attribute') continue;
    const [name, value] = namedChildren(item);
    if (name && value) out.set(name.text, value);
  }
  return out;
}

/** A block's body: its attributes and nested blocks against the members the schema gives it. */
function checkBody(
  body: Node | undefined,
  members: Record<string, SchemaNode>,
  path: string,
  problems: string[],
): void {
  const seen = new Map<string, number>();
  for (const item of body ? namedChildren(body) : []) {
    if (item.type === 'attribute') {
      const [name, value] = namedChildren(item);
      const key = name?.text ?? '';
      seen.set(key, (seen.get(key) ?? 0) + 1);
      const node = members[key];
      if (!node) problems.push(`${path}.${key}: not in the schema`);
      else if (node.kind === 'block') problems.push(`${path}.${key}: a block, written as an attribute`);
      else if (value) checkValue(value, node, `${path}.${key}`, problems);
    } else if (item.type === 'block') {
      const [type] = namedChildren(item);
      const key = type?.text ?? '';
      const count = (seen.get(key) ?? 0) + 1;
      seen.set(key, count);
      const node = members[key];
      if (!node) problems.push(`${path}.${key}: not in the schema`);
      else if (node.kind !== 'block') problems.push(`${path}.${key}: an attribute, written as a block`);
      else {
        if (node.nesting === 'single' && count > 1) problems.push(`${path}.${key}: more than one block`);
        checkBody(bodyOf(item), node.members, `${path}.${key}`, problems);
      }
    }
  }
  required(members, seen, path, problems);
}

function required(
  members: Record<string, SchemaNode>,
  seen: Map<string, number>,
  path: string,
  problems: string[],
) {
  for (const [name, node] of Object.entries(members))
    if (node.required && !seen.has(name)) problems.push(`${path}.${name}: required, missing`);
}

/** The value of an `expression` node: the construct under it. */
const inner = (node: Node): Node | undefined => {
  const first = namedChildren(node)[0];
  if (!first) return undefined;
  if (first.type === 'literal_value' || first.type === 'collection_value') return namedChildren(first)[0];
  if (first.type === 'template_expr') return first;
  return first;
};

function checkValue(expression: Node, node: SchemaNode, path: string, problems: string[]): void {
  const value = inner(expression);
  if (!value) return void problems.push(`${path}: no value`);
  if (node.kind === 'object') {
    let objects: (Node | undefined)[] = [value];
    if (node.nesting === 'map') {
      // `{ "key" = { … }, … }`: each member's value is one object of the schema.
      if (value.type === 'object')
        objects = namedChildren(value)
          .filter((element) => element.type === 'object_elem')
          .map((element) => {
            const member = namedChildren(element)[1];
            return member && inner(member);
          });
      else {
        problems.push(`${path}: a map of objects expected, found ${value.type}`);
        objects = [];
      }
    } else if (node.nesting === 'list') {
      if (value.type === 'tuple')
        objects = namedChildren(value)
          .filter((item) => item.type === 'expression')
          .map(inner);
      else {
        problems.push(`${path}: a list of objects expected, found ${value.type}`);
        objects = [];
      }
    }
    for (const [i, object] of objects.entries()) {
      const where = node.nesting === 'single' ? path : `${path}[${i}]`;
      if (object?.type !== 'object') {
        problems.push(`${where}: an object expected`);
        continue;
      }
      const seen = new Map<string, number>();
      for (const element of namedChildren(object).filter((child) => child.type === 'object_elem')) {
        const [key, member] = namedChildren(element);
        const name = key?.text ?? '';
        seen.set(name, (seen.get(name) ?? 0) + 1);
        const schema = node.members[name];
        if (!schema) problems.push(`${where}.${name}: not in the schema`);
        else if (schema.kind === 'block') problems.push(`${where}.${name}: a block, written as an attribute`);
        else if (member) checkValue(member, schema, `${where}.${name}`, problems);
      }
      required(node.members, seen, where, problems);
    }
    return;
  }
  if (node.kind !== 'value') return;
  // A ruleset's id taken from another resource of the configuration (an account's root executing its custom ruleset).
  if (node.type === 'string' && /^cloudflare_ruleset\.[A-Za-z_][\w-]*\.id$/.test(expression.text)) return;
  if (!matches(value, node.type))
    problems.push(`${path}: ${node.type} expected, found ${value.text.slice(0, 40)}`);
}

const isString = (node: Node | undefined): boolean =>
  node?.type === 'string_lit' ||
  (node?.type === 'template_expr' && children(node)[0]?.type === 'heredoc_template');

/** A number: a numeric literal, or a negative one (`-1`, which HCL reads as the operation `-` on `1`). */
const isNumber = (node: Node | undefined): boolean => {
  if (node?.type === 'numeric_lit') return true;
  const unary = node?.type === 'operation' ? namedChildren(node)[0] : undefined;
  const operand = unary?.type === 'unary_operation' ? namedChildren(unary)[0] : undefined;
  return (
    unary?.text.startsWith('-') === true &&
    operand?.type === 'literal_value' &&
    namedChildren(operand)[0]?.type === 'numeric_lit'
  );
};

function matches(value: Node, type: ValueType): boolean {
  switch (type) {
    case 'string':
      return isString(value);
    case 'number':
      return isNumber(value);
    case 'bool':
      return value.type === 'bool_lit';
    case 'list(number)':
    case 'set(number)':
      return (
        value.type === 'tuple' &&
        namedChildren(value)
          .filter((item) => item.type === 'expression')
          .every((item) => isNumber(inner(item)))
      );
    case 'list(string)':
    case 'set(string)':
      return (
        value.type === 'tuple' &&
        namedChildren(value)
          .filter((item) => item.type === 'expression')
          .every((item) => isString(inner(item)))
      );
    case 'map(string)':
    case 'map(list(string))':
    case 'map(set(string))':
      return (
        value.type === 'object' &&
        namedChildren(value)
          .filter((element) => element.type === 'object_elem')
          .every((element) => {
            const member = namedChildren(element)[1];
            return (
              member !== undefined &&
              matches(inner(member) as Node, type === 'map(string)' ? 'string' : 'list(string)')
            );
          })
      );
  }
}
