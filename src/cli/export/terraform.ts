import type { RuleJson, RulesetJson } from '../../service/rulesets/model.js';
import { type HclBlock, type HclItem, isNfc, writeHcl } from './hcl.js';

/**
 * A zone's entry-point rulesets as `cloudflare_ruleset` resources of the Cloudflare Terraform provider 4.x
 * (nested blocks: `rules { … }`, `action_parameters { … }`; provider 5 turned them into attributes), and the
 * `terraform import` commands that adopt them into a state, so that the first plan shows no changes.
 */

export const RESOURCE_TYPE = 'cloudflare_ruleset';

export interface ImportCommand {
  /** The resource's address in the configuration: `cloudflare_ruleset.<name>`. */
  address: string;
  /** What the provider imports it from: `zone/<zone_id>/<ruleset_id>`. */
  id: string;
}

/** A zone has one entry point per phase, so the phase names its resource. */
export const resourceName = (ruleset: RulesetJson): string => ruleset.phase.replace(/[^A-Za-z0-9_-]/g, '_');

export function importCommand(zoneId: string, ruleset: RulesetJson): ImportCommand {
  return { address: `${RESOURCE_TYPE}.${resourceName(ruleset)}`, id: `zone/${zoneId}/${ruleset.id}` };
}

export const importLine = ({ address, id }: ImportCommand): string => `terraform import ${address} ${id}`;

/** The configuration file: one resource per entry point, each under the command that imports it. */
export function terraformConfiguration(zoneId: string, rulesets: readonly RulesetJson[]): string {
  return writeHcl(rulesets.map((ruleset) => rulesetResource(zoneId, ruleset)));
}

function rulesetResource(zoneId: string, ruleset: RulesetJson): HclBlock {
  return {
    type: 'resource',
    labels: [RESOURCE_TYPE, resourceName(ruleset)],
    comments: [importLine(importCommand(zoneId, ruleset))],
    body: [
      { name: 'zone_id', value: zoneId },
      { name: 'name', value: ruleset.name },
      { name: 'description', value: ruleset.description },
      { name: 'kind', value: ruleset.kind },
      { name: 'phase', value: ruleset.phase },
      ...(ruleset.rules ?? []).map(ruleBlock),
    ],
  };
}

function ruleBlock(rule: RuleJson): HclBlock {
  const body: HclItem[] = [
    { name: 'action', value: rule.action },
    { name: 'expression', value: rule.expression },
    { name: 'description', value: rule.description },
    { name: 'enabled', value: rule.enabled },
    // The provider matches the rules of the configuration with the API's by ref: keep the stored one.
    { name: 'ref', value: rule.ref },
  ];
  if (rule.action_parameters !== undefined && Object.keys(rule.action_parameters).length > 0)
    body.push(objectBlock('action_parameters', rule.action_parameters, actionParameterValue));
  if (rule.ratelimit !== undefined) body.push(objectBlock('ratelimit', rule.ratelimit));
  if (rule.logging !== undefined) body.push(objectBlock('logging', rule.logging));
  return { type: 'rules', body };
}

type Json = Record<string, unknown>;

/** Lets a block say how one of its members is written when the general rule does not fit. */
type Special = (name: string, value: unknown) => HclItem | undefined;

/**
 * The API's JSON as provider 4.x nests it: an object is a block, a list of objects one block per item
 * (`categories { … }`, `rules { … }`), scalars and lists of strings are attributes.
 */
function objectBlock(type: string, object: Json, special?: Special): HclBlock {
  const attributes: HclItem[] = [];
  const blocks: HclItem[] = [];
  for (const [name, value] of Object.entries(object)) {
    if (value === undefined || value === null) continue;
    const item = special?.(name, value);
    if (item !== undefined) attributes.push(item);
    else if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
      attributes.push({ name, value });
    else if (Array.isArray(value) && value.every((element) => typeof element === 'string'))
      attributes.push({ name, value: value as string[] });
    else if (Array.isArray(value))
      for (const element of value) blocks.push(objectBlock(name, element as Json));
    else blocks.push(objectBlock(name, value as Json));
  }
  return { type, body: [...attributes, ...blocks] };
}

/**
 * Skip's `rules` (`{"<ruleset id>": ["<rule id>", …]}`) is, in provider 4.x, a map from the ruleset's id to
 * its rule ids joined by commas.
 */
const actionParameterValue: Special = (name, value) => {
  if (name !== 'rules' || Array.isArray(value) || typeof value !== 'object' || value === null)
    return undefined;
  const map = Object.fromEntries(
    Object.entries(value as Record<string, string[]>).map(([ruleset, rules]) => [ruleset, rules.join(',')]),
  );
  return { name, value: map };
};

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
