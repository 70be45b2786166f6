import type { RuleJson, RulesetJson } from '../../service/rulesets/model.js';
import {
  type ProviderMajor,
  type ResourceSchema,
  RULESET_SCHEMAS,
  type SchemaNode,
} from '../../terraform/ruleset-schema.js';
import {
  type HclAttribute,
  type HclBlock,
  type HclItem,
  type HclObject,
  type HclValue,
  isNfc,
  writeHcl,
} from './hcl.js';
import type { ExportOwner } from './source.js';

/**
 * A zone's entry-point rulesets, or an account's root entry points and custom rulesets, as `cloudflare_ruleset` resources of the Cloudflare Terraform provider, 5
 * (nested attributes: `rules = [{ … }]`, `action_parameters = { … }`) or 4 (nested blocks: `rules { … }`),
 * written by the description of that provider's schema (src/terraform/ruleset-schema.ts); with the
 * `import` blocks (Terraform 1.5 and later) and the `terraform import` commands that adopt them into a
 * state, so that the first plan shows no changes.
 */

export const RESOURCE_TYPE = 'cloudflare_ruleset';

export type Provider = ProviderMajor;
export const PROVIDERS: readonly Provider[] = ['5', '4'];
export const DEFAULT_PROVIDER: Provider = '5';

export interface ImportCommand {
  /** The resource's address in the configuration: `cloudflare_ruleset.<name>`. */
  address: string;
  /** What the provider imports it from: `zones/<zone_id>/<ruleset_id>` (provider 4: `zone/…`; accounts alike). */
  id: string;
}

/** A ruleset and the name of its resource in the configuration. */
export interface NamedRuleset {
  ruleset: RulesetJson;
  name: string;
}

/**
 * The resource names of the rulesets, unique in the configuration: an entry point is named by its phase (an
 * owner has one per phase), a custom ruleset by its name, made an identifier (`_2`, `_3`… when two would
 * be the same). Entry points come first, so that their names never change with the custom rulesets.
 */
export function namedRulesets(rulesets: readonly RulesetJson[]): NamedRuleset[] {
  const ordered = [...rulesets].sort((a, b) => Number(a.kind === 'custom') - Number(b.kind === 'custom'));
  const taken = new Set<string>();
  return ordered.map((ruleset) => {
    const base = ruleset.kind === 'custom' ? identifier(ruleset.name, ruleset.id) : identifier(ruleset.phase);
    let name = base;
    for (let n = 2; taken.has(name); n++) name = `${base}_${n}`;
    taken.add(name);
    return { ruleset, name };
  });
}

/** A Terraform identifier for a text: lower case, words joined by `_`, never starting with a digit. */
function identifier(text: string, fallback = 'ruleset'): string {
  const words = text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '') // accents, once NFKD has split them from their letters
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  const name = words || fallback;
  return /^[0-9]/.test(name) ? `ruleset_${name}` : name;
}

export function importCommand(
  owner: ExportOwner,
  { ruleset, name }: NamedRuleset,
  provider = DEFAULT_PROVIDER,
): ImportCommand {
  const id = RULESET_SCHEMAS[provider].importIds[owner.scope]
    .replace('{id}', owner.id)
    .replace('{ruleset}', ruleset.id);
  return { address: `${RESOURCE_TYPE}.${name}`, id };
}

export const importLine = ({ address, id }: ImportCommand): string => `terraform import ${address} ${id}`;

/** The configuration and what could not be written in it (one line each, for standard error). */
export interface TerraformExport {
  text: string;
  leftOut: string[];
}

/**
 * The configuration file: the `terraform` block that names the provider's versions, then for each ruleset
 * an `import` block and the resource, under the command that imports it. A rule that executes a custom
 * ruleset of the configuration refers to its resource (`cloudflare_ruleset.<name>.id`), so that Terraform
 * creates the custom ruleset first.
 */
export function terraformConfiguration(
  owner: ExportOwner,
  rulesets: readonly NamedRuleset[],
  provider: Provider = DEFAULT_PROVIDER,
): TerraformExport {
  const schema = RULESET_SCHEMAS[provider];
  const leftOut: string[] = [];
  const blocks: HclBlock[] = [settingsBlock(schema)];
  const resourceIds = new Map(
    rulesets
      .filter(({ ruleset }) => ruleset.kind === 'custom')
      .map(({ ruleset, name }) => [ruleset.id, `${RESOURCE_TYPE}.${name}.id`]),
  );
  for (const named of rulesets) {
    const imported = importCommand(owner, named, provider);
    blocks.push({
      type: 'import',
      body: [
        { name: 'to', value: { kind: 'reference', text: imported.address } },
        { name: 'id', value: imported.id },
      ],
    });
    blocks.push(rulesetResource(owner, named, { schema, provider, resourceIds }, leftOut));
  }
  return { text: writeHcl(blocks), leftOut };
}

/** `terraform { required_version, required_providers }`: import blocks need Terraform 1.5. */
function settingsBlock(schema: ResourceSchema): HclBlock {
  return {
    type: 'terraform',
    body: [
      { name: 'required_version', value: '>= 1.5.0' },
      {
        type: 'required_providers',
        body: [
          {
            name: 'cloudflare',
            value: {
              kind: 'object',
              attributes: [
                { name: 'source', value: schema.provider },
                { name: 'version', value: schema.versions },
              ],
            },
          },
        ],
      },
    ],
  };
}

type Json = Record<string, unknown>;

interface WriteContext {
  schema: ResourceSchema;
  provider: Provider;
  /** The custom rulesets of the configuration: their ids, and the references to their resources' ids. */
  resourceIds: ReadonlyMap<string, string>;
}

function rulesetResource(
  owner: ExportOwner,
  named: NamedRuleset,
  { schema, provider, resourceIds }: WriteContext,
  leftOut: string[],
): HclBlock {
  const { ruleset, name } = named;
  const address = `${RESOURCE_TYPE}.${name}`;
  const resource: Json = {
    [owner.scope === 'zone' ? 'zone_id' : 'account_id']: owner.id,
    name: ruleset.name,
    description: ruleset.description,
    kind: ruleset.kind,
    phase: ruleset.phase,
    rules: (ruleset.rules ?? []).map((rule) => ruleJson(rule, resourceIds)),
  };
  if ((ruleset.rules ?? []).length === 0) delete resource.rules;
  const writer = new SchemaWriter((path) =>
    leftOut.push(`${address}: ${path} is not in the schema of provider ${provider}; left out`),
  );
  return {
    type: 'resource',
    labels: [RESOURCE_TYPE, name],
    comments: [importLine(importCommand(owner, named, provider))],
    body: writer.body(resource, schema.members, ''),
  };
}

/** The members of a rule the configuration holds, in the order people read them. */
function ruleJson(rule: RuleJson, resourceIds: ReadonlyMap<string, string>): Json {
  const parameters = rule.action_parameters ? { ...rule.action_parameters } : undefined;
  // Providers from 4.48 on have no action_parameters.version: a managed ruleset runs its latest version.
  if (parameters) delete parameters.version;
  const executed = rule.action === 'execute' ? resourceIds.get(String(parameters?.id)) : undefined;
  if (parameters && executed !== undefined)
    parameters.id = { kind: 'reference', text: executed } satisfies HclValue;
  return {
    action: rule.action,
    expression: rule.expression,
    description: rule.description,
    enabled: rule.enabled,
    // The provider matches the rules of the configuration with the API's by ref: keep the stored one.
    ref: rule.ref,
    ...(parameters && Object.keys(parameters).length > 0 ? { action_parameters: parameters } : {}),
    ...(rule.ratelimit === undefined ? {} : { ratelimit: rule.ratelimit }),
    ...(rule.logging === undefined ? {} : { logging: rule.logging }),
  };
}

/** Writes the API's JSON as the schema says: blocks (provider 4), nested attributes (provider 5), values. */
class SchemaWriter {
  constructor(private readonly leftOut: (path: string) => void) {}

  /** The items of a block's body: its attributes first, then its nested blocks. */
  body(object: Json, members: Record<string, SchemaNode>, path: string): HclItem[] {
    const attributes: HclItem[] = [];
    const blocks: HclItem[] = [];
    for (const [name, given] of Object.entries(object)) {
      if (given === undefined || given === null) continue;
      const at = path ? `${path}.${name}` : name;
      const node = members[name];
      if (node === undefined) {
        this.leftOut(at);
        continue;
      }
      const value = this.shaped(given, node, at);
      if (node.kind === 'block') {
        const items = node.nesting === 'list' && Array.isArray(value) ? value : [value];
        items.forEach((item, i) => {
          const where = node.nesting === 'list' ? `${at}[${i}]` : at;
          blocks.push({ type: name, body: this.body(item as Json, node.members, where) });
        });
      } else attributes.push({ name, value: this.value(value, node, at) });
    }
    return [...attributes, ...blocks];
  }

  /**
   * The API's value in the shape the schema holds it, where the two differ (provider 4's headers, log
   * fields and cache key query string parameters: ruleset-schema.ts). What the shape has no place for is
   * left out, and named.
   */
  private shaped(value: unknown, node: SchemaNode, path: string): unknown {
    if (node.kind !== 'value') {
      if (node.keyMember === undefined || Array.isArray(value)) return value;
      const byKey = value as Record<string, Json>;
      const key = node.keyMember;
      return Object.keys(byKey)
        .sort()
        .map((name) => ({ [key]: name, ...byKey[name] }));
    }
    const { itemMember, allAs } = node;
    if (itemMember !== undefined && Array.isArray(value))
      return value.map((item: Json, i) => {
        for (const other of Object.keys(item))
          if (other !== itemMember) this.leftOut(`${path}[${i}].${other}`);
        return item[itemMember];
      });
    if (allAs !== undefined && typeof value === 'object' && value !== null && !Array.isArray(value)) {
      const { all, list } = value as { all?: boolean; list?: string[] };
      return all === true ? [allAs] : (list ?? []);
    }
    return value;
  }

  private value(value: unknown, node: SchemaNode, path: string): HclValue {
    if (node.kind !== 'value') {
      if (node.kind === 'block') throw new Error(`${path}: a block is not a value`);
      const object = (item: unknown, where: string): HclValue => ({
        kind: 'object',
        attributes: this.body(item as Json, node.members, where) as HclAttribute[],
      });
      if (node.nesting === 'list' && Array.isArray(value))
        return { kind: 'tuple', items: value.map((item, i) => object(item, `${path}[${i}]`)) };
      if (node.nesting === 'map')
        return {
          kind: 'map',
          entries: Object.fromEntries(
            Object.entries(value as Json).map(([key, item]) => [
              key,
              object(item, `${path}[${JSON.stringify(key)}]`) as HclObject,
            ]),
          ),
        };
      return object(value, path);
    }
    switch (node.type) {
      case 'list(number)':
      case 'set(number)':
        return { kind: 'tuple', items: value as number[] };
      case 'map(string)':
        // Provider 4 writes skip's rules as comma-joined ids.
        return {
          kind: 'map',
          entries: Object.fromEntries(
            Object.entries(value as Record<string, string[]>).map(([key, ids]) => [key, ids.join(',')]),
          ),
        };
      case 'map(list(string))':
      case 'map(set(string))':
        return { kind: 'map', entries: value as Record<string, string[]> };
      default:
        return value as HclValue;
    }
  }
}

/** Where a text of the rulesets is not in NFC, which Terraform would store changed: one line each. */
export function nonNfcTexts(rulesets: readonly NamedRuleset[]): string[] {
  const found: string[] = [];
  const check = (where: string, text: string | undefined) => {
    if (text !== undefined && !isNfc(text)) found.push(where);
  };
  for (const { ruleset, name: resource } of rulesets) {
    const name = `${RESOURCE_TYPE}.${resource}`;
    check(`${name}: name`, ruleset.name);
    check(`${name}: description`, ruleset.description);
    for (const rule of ruleset.rules ?? []) {
      const where = `${name}: rule ${rule.id}`;
      check(`${where}: expression`, rule.expression);
      check(`${where}: description`, rule.description);
      for (const [path, text] of nestedStrings(rule.action_parameters, 'action_parameters'))
        check(`${where}: ${path}`, text);
      for (const [path, text] of nestedStrings(rule.ratelimit, 'ratelimit')) check(`${where}: ${path}`, text);
    }
  }
  return found;
}

function* nestedStrings(value: unknown, path: string): Generator<[string, string]> {
  if (typeof value === 'string') yield [path, value];
  else if (Array.isArray(value))
    for (const [i, item] of value.entries()) yield* nestedStrings(item, `${path}[${i}]`);
  else if (typeof value === 'object' && value !== null)
    for (const [key, item] of Object.entries(value)) yield* nestedStrings(item, `${path}.${key}`);
}
