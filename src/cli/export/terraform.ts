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

/**
 * A zone's entry-point rulesets as `cloudflare_ruleset` resources of the Cloudflare Terraform provider, 5
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
  /** What the provider imports it from: `zones/<zone_id>/<ruleset_id>` (provider 4: `zone/…`). */
  id: string;
}

/** A zone has one entry point per phase, so the phase names its resource. */
export const resourceName = (ruleset: RulesetJson): string => ruleset.phase.replace(/[^A-Za-z0-9_-]/g, '_');

export function importCommand(
  zoneId: string,
  ruleset: RulesetJson,
  provider = DEFAULT_PROVIDER,
): ImportCommand {
  const id = RULESET_SCHEMAS[provider].importId.replace('{zone}', zoneId).replace('{ruleset}', ruleset.id);
  return { address: `${RESOURCE_TYPE}.${resourceName(ruleset)}`, id };
}

export const importLine = ({ address, id }: ImportCommand): string => `terraform import ${address} ${id}`;

/** The configuration and what could not be written in it (one line each, for standard error). */
export interface TerraformExport {
  text: string;
  leftOut: string[];
}

/**
 * The configuration file: the `terraform` block that names the provider's versions, then for each entry
 * point an `import` block and the resource, under the command that imports it.
 */
export function terraformConfiguration(
  zoneId: string,
  rulesets: readonly RulesetJson[],
  provider: Provider = DEFAULT_PROVIDER,
): TerraformExport {
  const schema = RULESET_SCHEMAS[provider];
  const leftOut: string[] = [];
  const blocks: HclBlock[] = [settingsBlock(schema)];
  for (const ruleset of rulesets) {
    const imported = importCommand(zoneId, ruleset, provider);
    blocks.push({
      type: 'import',
      body: [
        { name: 'to', value: { kind: 'reference', text: imported.address } },
        { name: 'id', value: imported.id },
      ],
    });
    blocks.push(rulesetResource(zoneId, ruleset, schema, provider, leftOut));
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

function rulesetResource(
  zoneId: string,
  ruleset: RulesetJson,
  schema: ResourceSchema,
  provider: Provider,
  leftOut: string[],
): HclBlock {
  const address = `${RESOURCE_TYPE}.${resourceName(ruleset)}`;
  const resource: Json = {
    zone_id: zoneId,
    name: ruleset.name,
    description: ruleset.description,
    kind: ruleset.kind,
    phase: ruleset.phase,
    rules: (ruleset.rules ?? []).map(ruleJson),
  };
  if ((ruleset.rules ?? []).length === 0) delete resource.rules;
  const writer = new SchemaWriter((path) =>
    leftOut.push(`${address}: ${path} is not in the schema of provider ${provider}; left out`),
  );
  return {
    type: 'resource',
    labels: [RESOURCE_TYPE, resourceName(ruleset)],
    comments: [importLine(importCommand(zoneId, ruleset, provider))],
    body: writer.body(resource, schema.members, ''),
  };
}

/** The members of a rule the configuration holds, in the order people read them. */
function ruleJson(rule: RuleJson): Json {
  const parameters = rule.action_parameters ? { ...rule.action_parameters } : undefined;
  // Providers from 4.48 on have no action_parameters.version: a managed ruleset runs its latest version.
  if (parameters) delete parameters.version;
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
export function nonNfcTexts(rulesets: readonly RulesetJson[]): string[] {
  const found: string[] = [];
  const check = (where: string, text: string | undefined) => {
    if (text !== undefined && !isNfc(text)) found.push(where);
  };
  for (const ruleset of rulesets) {
    const name = `${RESOURCE_TYPE}.${resourceName(ruleset)}`;
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
