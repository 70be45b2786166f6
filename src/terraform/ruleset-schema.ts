/**
 * What the Cloudflare Terraform provider accepts in a `cloudflare_ruleset` resource, as data: the part of
 * its schema that a zone's entry-point rulesets use (the rules of custom rules, managed rules and rate
 * limits, with their action parameters), for provider 4 (4.48 and later) and provider 5. Written in
 * cfrules' own terms from the provider's published schemas (see `source` in each); `cfrules export
 * terraform` writes by it, and the tests check what it writes against it.
 *
 * - `block`: provider 4's nested blocks (`rules { … }`), one per item (`list`) or at most one (`single`);
 * - `object`: provider 5's nested attributes, `name = { … }` (`single`) or `name = [{ … }, …]` (`list`);
 * - `value`: an attribute holding a value of `type`.
 */

export type ValueType =
  | 'string'
  | 'number'
  | 'bool'
  | 'list(string)'
  | 'set(string)'
  | 'map(string)'
  | 'map(list(string))';

export type SchemaNode =
  | { kind: 'value'; type: ValueType; required?: boolean }
  | {
      kind: 'block' | 'object';
      nesting: 'single' | 'list';
      required?: boolean;
      members: Record<string, SchemaNode>;
    };

export interface ResourceSchema {
  provider: 'cloudflare/cloudflare';
  /** The provider versions the description holds for, as a Terraform version constraint. */
  versions: string;
  /** Where it was read from. */
  source: string[];
  resource: 'cloudflare_ruleset';
  /** How `terraform import` names a zone's ruleset: `{zone}` and `{ruleset}` are replaced. */
  importId: string;
  members: Record<string, SchemaNode>;
}

const value = (type: ValueType, required = false): SchemaNode => ({
  kind: 'value',
  type,
  ...(required ? { required } : {}),
});

/** The members both providers share, with the types and nesting of each. */
function rulesetMembers(
  nested: 'block' | 'object',
  types: { stringSet: ValueType; skipRules: ValueType },
  required: (path: string) => boolean,
): Record<string, SchemaNode> {
  const node = (
    path: string,
    nesting: 'single' | 'list',
    members: Record<string, SchemaNode>,
  ): SchemaNode => ({
    kind: nested,
    nesting,
    ...(required(path) ? { required: true } : {}),
    members,
  });
  const text = (path: string) => value('string', required(path));
  return {
    account_id: value('string'),
    zone_id: value('string'),
    name: value('string', true),
    description: value('string'),
    kind: value('string', true),
    phase: value('string', true),
    rules: node('rules', 'list', {
      action: text('rules.action'),
      expression: value('string', required('rules.expression')),
      description: value('string'),
      enabled: value('bool'),
      ref: value('string'),
      action_parameters: node('rules.action_parameters', 'single', {
        // execute
        id: value('string'),
        matched_data: node('rules.action_parameters.matched_data', 'single', {
          public_key: text('rules.action_parameters.matched_data.public_key'),
        }),
        overrides: node('rules.action_parameters.overrides', 'single', {
          action: value('string'),
          enabled: value('bool'),
          sensitivity_level: value('string'),
          categories: node('rules.action_parameters.overrides.categories', 'list', {
            category: text('rules.action_parameters.overrides.categories.category'),
            action: value('string'),
            enabled: value('bool'),
            ...(nested === 'object' ? { sensitivity_level: value('string') } : {}),
          }),
          rules: node('rules.action_parameters.overrides.rules', 'list', {
            id: text('rules.action_parameters.overrides.rules.id'),
            action: value('string'),
            enabled: value('bool'),
            score_threshold: value('number'),
            sensitivity_level: value('string'),
          }),
        }),
        // skip
        ruleset: value('string'),
        rulesets: value(types.stringSet),
        rules: value(types.skipRules),
        phases: value(types.stringSet),
        products: value(types.stringSet),
        // block
        response: node('rules.action_parameters.response', 'single', {
          status_code: value('number', required('rules.action_parameters.response.status_code')),
          content: text('rules.action_parameters.response.content'),
          content_type: text('rules.action_parameters.response.content_type'),
        }),
      }),
      ratelimit: node('rules.ratelimit', 'single', {
        characteristics: value(types.stringSet, required('rules.ratelimit.characteristics')),
        period: value('number', required('rules.ratelimit.period')),
        requests_per_period: value('number'),
        mitigation_timeout: value('number'),
        counting_expression: value('string'),
        requests_to_origin: value('bool'),
        score_per_period: value('number'),
        score_response_header_name: value('string'),
      }),
      logging: node('rules.logging', 'single', {
        enabled: value('bool', required('rules.logging.enabled')),
      }),
    }),
  };
}

/**
 * Provider 4: `rules` and everything under them are nested blocks; lists of strings are sets; skip's
 * `rules` is a map from a ruleset's id to its rule ids joined by commas. `action_parameters.version`, in the
 * schema until 4.47, was removed in 4.48.0 (a configuration that sets it fails to plan with "An argument
 * named "version" is not expected here"), so it is not described: the exporter never writes it. A
 * category override has no `sensitivity_level` in provider 4.
 */
export const RULESET_SCHEMA_V4: ResourceSchema = {
  provider: 'cloudflare/cloudflare',
  versions: '>= 4.48, < 5.0.0',
  source: [
    "the provider's registry documentation of cloudflare_ruleset for 4.x (docs/resources/ruleset.md of " +
      'github.com/cloudflare/terraform-provider-cloudflare on its 4.x line: the "Schema" section and its ' +
      '"Nested Schema for rules…" sections)',
    'the 4.48.0 change that removed rules.action_parameters.version',
  ],
  resource: 'cloudflare_ruleset',
  importId: 'zone/{zone}/{ruleset}',
  members: rulesetMembers('block', { stringSet: 'set(string)', skipRules: 'map(string)' }, (path) =>
    ['name', 'kind', 'phase', 'rules.expression'].includes(path),
  ),
};

/**
 * Provider 5: nested attributes instead of blocks (`rules = [{ … }]`, `action_parameters = { … }`); lists
 * of strings are lists; skip's `rules` is a map from a ruleset's id to a list of rule ids; the objects of a
 * block response, matched data, overrides, logging and rate limits have required members. There is no
 * `action_parameters.version`.
 */
export const RULESET_SCHEMA_V5: ResourceSchema = {
  provider: 'cloudflare/cloudflare',
  versions: '~> 5.0',
  source: [
    "the provider's resource schema for cloudflare_ruleset in 5.x (internal/services/ruleset/schema.go of " +
      'github.com/cloudflare/terraform-provider-cloudflare, generated from the API description), and its ' +
      'import example (examples/resources/cloudflare_ruleset/import.sh: <accounts|zones>/<id>/<ruleset_id>)',
  ],
  resource: 'cloudflare_ruleset',
  importId: 'zones/{zone}/{ruleset}',
  members: rulesetMembers('object', { stringSet: 'list(string)', skipRules: 'map(list(string))' }, (path) =>
    [
      'name',
      'kind',
      'phase',
      'rules.action_parameters.matched_data.public_key',
      'rules.action_parameters.overrides.categories.category',
      'rules.action_parameters.overrides.rules.id',
      'rules.action_parameters.response.status_code',
      'rules.action_parameters.response.content',
      'rules.action_parameters.response.content_type',
      'rules.ratelimit.characteristics',
      'rules.ratelimit.period',
      'rules.logging.enabled',
    ].includes(path),
  ),
};

export const RULESET_SCHEMAS = { '4': RULESET_SCHEMA_V4, '5': RULESET_SCHEMA_V5 } as const;
export type ProviderMajor = keyof typeof RULESET_SCHEMAS;
