/**
 * What the Cloudflare Terraform provider accepts in a `cloudflare_ruleset` resource, as data: the part of
 * its schema that a zone's entry-point rulesets use (the rules of the WAF's phases and of the Rules
 * products' phases, with their action parameters), for provider 4 (4.48 and later) and provider 5. Written
 * in cfrules' own terms from the provider's published schemas (see `source` in each); `cfrules export
 * terraform` writes by it, and the tests check what it writes against it.
 *
 * - `block`: provider 4's nested blocks (`rules { … }`), one per item (`list`) or at most one (`single`);
 * - `object`: provider 5's nested attributes, `name = { … }` (`single`), `name = [{ … }, …]` (`list`) or
 *   `name = { "key" = { … }, … }` (`map`: a header's operation by its name);
 * - `value`: an attribute holding a value of `type`.
 *
 * Where provider 4 holds a value in another shape than the API's JSON, the node says how it is written:
 * `keyMember` (a map of the API written as a list of blocks, each holding its key: `headers { name = … }`),
 * `itemMember` (a list of objects of the API written as the list of one member of each: `request_fields =
 * ["x-id"]` for `[{ "name": "x-id" }]`) and `allAs` (`{ "all": true }` written `["*"]`, `{ "list": […] }`
 * as the list).
 */

export type ValueType =
  | 'string'
  | 'number'
  | 'bool'
  | 'list(string)'
  | 'list(number)'
  | 'set(string)'
  | 'set(number)'
  | 'map(string)'
  | 'map(list(string))'
  | 'map(set(string))';

export interface ValueNode {
  kind: 'value';
  type: ValueType;
  required?: boolean;
  /** The API holds a list of objects: the value is the list of this member of each. */
  itemMember?: string;
  /** The API holds `{ all: true }` or `{ list: […] }`: the value is `[allAs]`, or the list. */
  allAs?: string;
}

export interface NestedNode {
  kind: 'block' | 'object';
  nesting: 'single' | 'list' | 'map';
  required?: boolean;
  /**
   * A `list` of what the API holds as a map (by name): each item holds its key in this member, the items in
   * the order of their keys.
   */
  keyMember?: string;
  members: Record<string, SchemaNode>;
}

export type SchemaNode = ValueNode | NestedNode;

export interface ResourceSchema {
  provider: 'cloudflare/cloudflare';
  /** The provider versions the description holds for, as a Terraform version constraint. */
  versions: string;
  /** Where it was read from. */
  source: string[];
  resource: 'cloudflare_ruleset';
  /** How `terraform import` names a zone's and an account's ruleset: `{id}` and `{ruleset}` are replaced. */
  importIds: Record<'zone' | 'account', string>;
  members: Record<string, SchemaNode>;
}

const value = (type: ValueType, required = false): ValueNode => ({
  kind: 'value',
  type,
  ...(required ? { required } : {}),
});

/** The types of the values the two providers write differently: provider 4 has sets where 5 has lists. */
interface ProviderTypes {
  stringSet: ValueType;
  numberSet: ValueType;
  stringSetMap: ValueType;
  skipRules: ValueType;
}

/** The members both providers share, with the types and nesting of each. */
function rulesetMembers(
  nested: 'block' | 'object',
  types: ProviderTypes,
  required: (path: string) => boolean,
): Record<string, SchemaNode> {
  const node = (
    path: string,
    nesting: 'single' | 'list' | 'map',
    members: Record<string, SchemaNode>,
  ): NestedNode => ({
    kind: nested,
    nesting,
    ...(required(path) ? { required: true } : {}),
    members,
  });
  /** A value (a string unless said), required where the provider requires it. */
  const text = (path: string, type: ValueType = 'string') => value(type, required(path));
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
        ...rulesProductsParameters(nested, node, text, types),
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

type NodeMaker = (
  path: string,
  nesting: 'single' | 'list' | 'map',
  members: Record<string, SchemaNode>,
) => NestedNode;

/**
 * The action parameters of the Rules products' actions (rewrite, redirect, route, set_config,
 * set_cache_settings, serve_error, compress_response, log_custom_field). Provider 5 follows the API's JSON:
 * nested attributes for objects, a map of objects for headers. Provider 4 has nested blocks for objects
 * (one at most where the API has one object), and writes three members in another shape: headers as one
 * `headers { name = … }` block each, in the order of their names (4.x reads the API's back sorted, and a
 * configuration in another order never matches: the provider's issue #2343); the log fields as sets of
 * names; a cache key's query string parameters as a set of names, `["*"]` for all. Some of the API's
 * members are in provider 5 only.
 */
function rulesProductsParameters(
  nested: 'block' | 'object',
  node: NodeMaker,
  text: (path: string, type?: ValueType) => SchemaNode,
  types: ProviderTypes,
): Record<string, SchemaNode> {
  const v4 = nested === 'block';
  const only5 = (members: Record<string, SchemaNode>) => (v4 ? {} : members);
  const at = (name: string) => `rules.action_parameters.${name}`;
  const valueOrExpression = (path: string) =>
    node(path, 'single', { value: value('string'), expression: value('string') });
  const flags = (path: string, names: string[]) =>
    node(path, 'single', Object.fromEntries(names.map((name) => [name, value('bool')])));
  const ttl = (path: string) =>
    node(path, 'single', { mode: text(`${path}.mode`), default: value('number') });
  const parameters = (path: string): SchemaNode =>
    v4
      ? { ...value(types.stringSet), allAs: '*' }
      : node(path, 'single', { all: value('bool'), list: value('list(string)') });
  const fields = (path: string): SchemaNode =>
    v4
      ? { ...value(types.stringSet), itemMember: 'name' }
      : node(path, 'list', { name: text(`${path}.name`) });
  const booleans = (names: string[]) => Object.fromEntries(names.map((name) => [name, value('bool')]));
  const header = {
    operation: text(at('headers.operation')),
    value: value('string'),
    expression: value('string'),
  };
  const names = { include: value(types.stringSet), check_presence: value(types.stringSet) };
  return {
    // rewrite (provider 4's uri.origin is the API's too)
    uri: node(at('uri'), 'single', {
      path: valueOrExpression(at('uri.path')),
      query: valueOrExpression(at('uri.query')),
      ...(v4 ? { origin: value('bool') } : {}),
    }),
    headers: v4
      ? { ...node(at('headers'), 'list', { name: value('string'), ...header }), keyMember: 'name' }
      : node(at('headers'), 'map', header),
    // redirect
    from_value: node(at('from_value'), 'single', {
      status_code: value('number'),
      target_url: valueOrExpression(at('from_value.target_url')),
      preserve_query_string: value('bool'),
    }),
    from_list: node(at('from_list'), 'single', { name: value('string'), key: value('string') }),
    // route
    host_header: value('string'),
    origin: node(at('origin'), 'single', { host: value('string'), port: value('number') }),
    sni: node(at('sni'), 'single', { value: text(at('sni.value')) }),
    // serve_error (block's response is above)
    content: value('string'),
    content_type: value('string'),
    status_code: value('number'),
    ...only5({ asset_name: value('string') }),
    // set_config
    autominify: flags(at('autominify'), ['css', 'html', 'js']),
    polish: value('string'),
    security_level: value('string'),
    ssl: value('string'),
    ...booleans([
      'automatic_https_rewrites',
      'bic',
      'disable_apps',
      'disable_rum',
      'disable_zaraz',
      'email_obfuscation',
      'fonts',
      'hotlink_protection',
      'mirage',
      'opportunistic_encryption',
      'rocket_loader',
      'server_side_excludes',
      'sxg',
    ]),
    // set_cache_settings
    cache: value('bool'),
    edge_ttl: node(at('edge_ttl'), 'single', {
      mode: text(at('edge_ttl.mode')),
      default: value('number'),
      status_code_ttl: node(at('edge_ttl.status_code_ttl'), 'list', {
        status_code: value('number'),
        status_code_range: node(at('edge_ttl.status_code_ttl.status_code_range'), 'single', {
          from: value('number'),
          to: value('number'),
        }),
        value: value('number'),
      }),
    }),
    browser_ttl: ttl(at('browser_ttl')),
    serve_stale: flags(at('serve_stale'), ['disable_stale_while_updating']),
    cache_key: node(at('cache_key'), 'single', {
      ...booleans(['cache_by_device_type', 'cache_deception_armor', 'ignore_query_strings_order']),
      custom_key: node(at('cache_key.custom_key'), 'single', {
        cookie: node(at('cache_key.custom_key.cookie'), 'single', names),
        header: node(at('cache_key.custom_key.header'), 'single', {
          ...names,
          exclude_origin: value('bool'),
          contains: value(types.stringSetMap),
        }),
        host: flags(at('cache_key.custom_key.host'), ['resolved']),
        query_string: node(at('cache_key.custom_key.query_string'), 'single', {
          include: parameters(at('cache_key.custom_key.query_string.include')),
          exclude: parameters(at('cache_key.custom_key.query_string.exclude')),
        }),
        user: flags(at('cache_key.custom_key.user'), ['device_type', 'geo', 'lang']),
      }),
    }),
    cache_reserve: node(at('cache_reserve'), 'single', {
      eligible: text(at('cache_reserve.eligible'), 'bool'),
      minimum_file_size: value('number'),
    }),
    read_timeout: value('number'),
    additional_cacheable_ports: value(types.numberSet),
    ...booleans(['respect_strong_etags', 'origin_cache_control', 'origin_error_page_passthru']),
    ...only5(booleans(['strip_etags', 'strip_last_modified', 'strip_set_cookie'])),
    // compress_response
    algorithms: node(at('algorithms'), 'list', { name: text(at('algorithms.name')) }),
    // log_custom_field
    request_fields: fields(at('request_fields')),
    response_fields: fields(at('response_fields')),
    cookie_fields: fields(at('cookie_fields')),
    ...only5({
      transformed_request_fields: fields(at('transformed_request_fields')),
      raw_response_fields: fields(at('raw_response_fields')),
    }),
  };
}

/**
 * Provider 4: `rules` and everything under them are nested blocks; lists of strings and of numbers are
 * sets; skip's `rules` is a map from a ruleset's id to its rule ids joined by commas.
 * `action_parameters.version`, in the schema until 4.47, was removed in 4.48.0 (a configuration that sets
 * it fails to plan with "An argument named "version" is not expected here"), so it is not described: the
 * exporter never writes it. A category override has no `sensitivity_level` in provider 4; the Rules
 * products' parameters differ from provider 5's as rulesProductsParameters says.
 */
export const RULESET_SCHEMA_V4: ResourceSchema = {
  provider: 'cloudflare/cloudflare',
  versions: '>= 4.48, < 5.0.0',
  source: [
    "the provider's registry documentation of cloudflare_ruleset for 4.x (docs/resources/ruleset.md of " +
      'github.com/cloudflare/terraform-provider-cloudflare on its 4.x line: the "Schema" section and its ' +
      '"Nested Schema for rules…" sections), and its schema (internal/framework/service/rulesets/schema.go)',
    'the 4.48.0 change that removed rules.action_parameters.version',
    "provider 5's description of the state 4.x wrote, which 5 upgrades from " +
      '(internal/services/ruleset/migration/v500/schema.go, SourceV4RulesetSchema, with transform.go: ' +
      'headers by name, the log fields as sets of names, a query string\'s ["*"] for all)',
  ],
  resource: 'cloudflare_ruleset',
  importIds: { zone: 'zone/{id}/{ruleset}', account: 'account/{id}/{ruleset}' },
  members: rulesetMembers(
    'block',
    {
      stringSet: 'set(string)',
      numberSet: 'set(number)',
      stringSetMap: 'map(set(string))',
      skipRules: 'map(string)',
    },
    (path) =>
      [
        'name',
        'kind',
        'phase',
        'rules.expression',
        // The Rules products' parameters (rulesProductsParameters).
        'rules.action_parameters.edge_ttl.mode',
        'rules.action_parameters.browser_ttl.mode',
        'rules.action_parameters.cache_reserve.eligible',
        'rules.action_parameters.algorithms.name',
      ].includes(path),
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
  importIds: { zone: 'zones/{id}/{ruleset}', account: 'accounts/{id}/{ruleset}' },
  members: rulesetMembers(
    'object',
    {
      stringSet: 'list(string)',
      numberSet: 'list(number)',
      stringSetMap: 'map(list(string))',
      skipRules: 'map(list(string))',
    },
    (path) =>
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
        // The Rules products' parameters (rulesProductsParameters).
        'rules.action_parameters.headers.operation',
        'rules.action_parameters.sni.value',
        'rules.action_parameters.edge_ttl.mode',
        'rules.action_parameters.browser_ttl.mode',
      ].includes(path),
  ),
};

export const RULESET_SCHEMAS = { '4': RULESET_SCHEMA_V4, '5': RULESET_SCHEMA_V5 } as const;
export type ProviderMajor = keyof typeof RULESET_SCHEMAS;
