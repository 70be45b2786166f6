// Reads Terraform configuration back with HashiCorp's own HCL parser (@cdktf/hcl2json: hcl/v2 compiled to
// WebAssembly), and turns the cloudflare_ruleset resources into the Rulesets API's JSON, so that tests can
// compare what was exported with what the service stored.
import { parse } from '@cdktf/hcl2json';

// biome-ignore lint/suspicious/noExplicitAny: parsed HCL, checked by the assertions
type Json = any;

/**
 * hcl2json gives string values in Terraform's JSON syntax, where `${` and `%{` would be templates again:
 * it writes them `$${` and `%%{`. Undo that (left to right, as HCL's scanner reads it) to get the values.
 */
function values(json: Json): Json {
  if (typeof json === 'string') return json.replace(/([$%])\1\{/g, '$1{');
  if (Array.isArray(json)) return json.map(values);
  if (typeof json === 'object' && json !== null)
    return Object.fromEntries(Object.entries(json).map(([key, value]) => [key, values(value)]));
  return json;
}

/** The document's values; a syntax error rejects. */
export async function readHcl(text: string): Promise<Json> {
  return values(await parse('export.tf', text));
}

/** A block written once: hcl2json lists every block. */
function single(blocks: Json, name: string): Json {
  if (!Array.isArray(blocks) || blocks.length !== 1) throw new Error(`expected one ${name} block`);
  return blocks[0];
}

/**
 * Blocks (provider 4) and lists of objects (provider 5) that stand for the API's lists of objects; every
 * other nested block is one object.
 */
const LIST_BLOCKS = new Set([
  'categories',
  'rules',
  'algorithms',
  'status_code_ttl',
  'request_fields',
  'transformed_request_fields',
  'response_fields',
  'raw_response_fields',
  'cookie_fields',
]);

/** Provider 4's log fields: sets of names, where the API has lists of `{ name }`. */
const FIELD_SETS = new Set(['request_fields', 'response_fields', 'cookie_fields']);

function nested(object: Json, path: string): Json {
  const out: Json = {};
  for (const [key, value] of Object.entries(object)) {
    if (key === 'headers' && Array.isArray(value))
      // Provider 4: one block per header, its name in it; the API's map by name.
      out[key] = Object.fromEntries(
        value.map(({ name, ...operation }, i) => [name, nested(operation, `${path}.headers[${i}]`)]),
      );
    else if (FIELD_SETS.has(key) && Array.isArray(value) && value.every((item) => typeof item === 'string'))
      out[key] = value.map((name) => ({ name }));
    else if (Array.isArray(value) && value.every((item) => typeof item === 'object')) {
      const items = value.map((item, i) => nested(item, `${path}.${key}[${i}]`));
      out[key] = LIST_BLOCKS.has(key) ? items : single(items, `${path}.${key}`);
    } else out[key] = value;
    // Provider 4: a query string's parameters as a set of names, ["*"] for all.
    if (key === 'query_string')
      for (const which of ['include', 'exclude'])
        if (Array.isArray(out[key][which]))
          out[key][which] =
            out[key][which].length === 1 && out[key][which][0] === '*'
              ? { all: true }
              : { list: out[key][which] };
  }
  return out;
}

/**
 * A resource's rules as the API returns them, less what the API adds (id, version, last_updated): provider
 * 4's blocks (which hcl2json lists) and provider 5's list of objects alike, provider 4's sets of names and
 * headers by name turned back into the API's shapes.
 */
export function rulesOf(resource: Json): Json[] {
  return (resource.rules ?? []).map((rule: Json, i: number) => {
    const out = nested(rule, `rules[${i}]`);
    const skipped = out.action_parameters?.rules;
    // Provider 4 writes skip's rules as a map of comma-joined ids (provider 5 as lists).
    if (skipped && !Array.isArray(skipped) && Object.values(skipped).every((ids) => typeof ids === 'string'))
      out.action_parameters.rules = Object.fromEntries(
        Object.entries(skipped).map(([ruleset, ids]) => [ruleset, (ids as string).split(',')]),
      );
    return out;
  });
}

/** The API's rules, less the members that are the API's and not the configuration's. */
export function configurable(rules: Json[]): Json[] {
  return rules.map(({ id: _id, version: _version, last_updated: _updated, ...rule }) => {
    // Providers from 4.48 on have no action_parameters.version: the exporter leaves it out.
    if (rule.action_parameters?.version === undefined) return rule;
    const { version: _ruleset, ...parameters } = rule.action_parameters;
    return { ...rule, action_parameters: parameters };
  });
}

/** `resource "cloudflare_ruleset" "NAME"` of a parsed document. */
export function resource(document: Json, name: string): Json {
  return single(document.resource?.cloudflare_ruleset?.[name], `cloudflare_ruleset.${name}`);
}
