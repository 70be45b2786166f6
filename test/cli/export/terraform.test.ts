// biome-ignore-all lint/suspicious/noTemplateCurlyInString: HCL template sequences in plain strings are what these tests are about
// The cloudflare_ruleset resources (provider 5, and 4) of a zone's entry points, read back with HashiCorp's
// HCL parser and checked against the description of each provider's schema.
import { describe, expect, it } from 'vitest';
import {
  importCommand,
  importLine,
  namedRulesets,
  nonNfcTexts,
  terraformConfiguration,
} from '../../../src/cli/export/terraform.js';
import type { RuleJson, RulesetJson } from '../../../src/service/rulesets/model.js';
import { loadHclParser } from '../../../src/terraform/parser.js';
import { RULESET_SCHEMAS } from '../../../src/terraform/ruleset-schema.js';
import { schemaProblems } from '../../terraform/schema-check.js';
import { nastyDescriptions, nastyExpressions, notNfc } from './nasty.js';
import { configurable, readHcl, resource, rulesOf } from './read-hcl.js';

const ZONE = '023e105f4ecef8ad9ca31a8372d0c353';
const OWNER = { scope: 'zone', id: ZONE } as const;
const CMR = 'efb7b8c949ac4650a09736fc376e9aee';
const OWASP = '4814384a9e5d4991b9815dcfc25d2f1f';

let next = 0;
function rule(members: Partial<RuleJson>): RuleJson {
  const id = (++next).toString(16).padStart(32, '0');
  return {
    id,
    version: '1',
    action: 'block',
    expression: 'ssl',
    description: '',
    enabled: true,
    ref: id,
    last_updated: '2026-11-24T10:00:00.000000Z',
    ...members,
  };
}

function ruleset(phase: string, rules: RuleJson[], id: string): RulesetJson {
  return {
    id,
    name: 'default',
    description: 'the ${phase} one',
    kind: 'zone',
    version: '3',
    last_updated: '',
    phase,
    rules,
  };
}

const custom = ruleset(
  'http_request_firewall_custom',
  [
    ...nastyExpressions.map((expression, i) =>
      rule({
        expression,
        description: nastyDescriptions[i % nastyDescriptions.length] as string,
        enabled: i % 3 !== 0,
      }),
    ),
    rule({
      action: 'block',
      action_parameters: {
        response: { status_code: 403, content: '<p>${no}</p>\n', content_type: 'text/html' },
      },
    }),
    rule({
      action: 'skip',
      ref: 'my-ref',
      action_parameters: {
        ruleset: 'current',
        phases: ['http_ratelimit', 'http_request_firewall_managed'],
        products: ['waf'],
      },
      logging: { enabled: false },
    }),
  ],
  'a'.repeat(32),
);

const managed = ruleset(
  'http_request_firewall_managed',
  [
    rule({
      action: 'skip',
      action_parameters: { rules: { [CMR]: ['1'.repeat(32), '2'.repeat(32)] }, rulesets: [OWASP] },
    }),
    rule({
      action: 'execute',
      action_parameters: {
        id: CMR,
        version: 'latest',
        matched_data: { public_key: 'key=' },
        overrides: { enabled: false, categories: [{ category: 'wordpress', action: 'log', enabled: true }] },
      },
    }),
    rule({
      action: 'execute',
      action_parameters: {
        id: OWASP,
        overrides: {
          action: 'log',
          sensitivity_level: 'low',
          categories: [
            { category: 'paranoia-level-3', enabled: false },
            { category: 'paranoia-level-4', enabled: false },
          ],
          rules: [{ id: '6179ae15870a4bb7b2d480d4843b323c', action: 'block', score_threshold: 60 }],
        },
      },
    }),
  ],
  'b'.repeat(32),
);

const ratelimit = ruleset(
  'http_ratelimit',
  [
    rule({
      ratelimit: {
        characteristics: ['ip.src', 'cf.colo.id'],
        period: 60,
        requests_per_period: 100,
        mitigation_timeout: 600,
        counting_expression: 'http.request.uri.path eq "/${login}"',
        requests_to_origin: true,
      },
    }),
  ],
  'c'.repeat(32),
);

const parser = await loadHclParser();

describe('terraformConfiguration', () => {
  for (const provider of ['5', '4'] as const) {
    it(`provider ${provider}: writes every rule so that HCL reads back what the API returned`, async () => {
      const { text, leftOut } = terraformConfiguration(
        OWNER,
        namedRulesets([custom, managed, ratelimit]),
        provider,
      );
      expect(leftOut).toEqual([]);
      const document = await readHcl(text);
      for (const ruleset of [custom, managed, ratelimit]) {
        const written = resource(document, ruleset.phase);
        expect(written).toMatchObject({
          zone_id: ZONE,
          name: ruleset.name,
          description: ruleset.description,
          kind: 'zone',
          phase: ruleset.phase,
        });
        // Everything but action_parameters.version, which providers from 4.48 on refuse.
        expect(rulesOf(written)).toEqual(configurable(ruleset.rules ?? []));
      }
      expect(text).not.toMatch(/^\s*version\s*=\s*"latest"/m);
    });

    it(`provider ${provider}: matches the description of the provider's schema, parsed as HCL`, () => {
      const schema = RULESET_SCHEMAS[provider];
      const { text } = terraformConfiguration(OWNER, namedRulesets([custom, managed, ratelimit]), provider);
      expect(schemaProblems(parser, text, schema)).toEqual([]);
      // The checker does find what does not match: a block where provider 5 has an attribute, and back.
      const other = RULESET_SCHEMAS[provider === '5' ? '4' : '5'];
      expect(schemaProblems(parser, text, other).length).toBeGreaterThan(0);
    });
  }

  it('states the provider versions, and adds an import block (Terraform 1.5) before each resource', () => {
    const v5 = terraformConfiguration(OWNER, namedRulesets([managed])).text;
    expect(v5).toContain(
      'terraform {\n  required_version = ">= 1.5.0"\n\n  required_providers {\n    cloudflare = {\n' +
        '      source  = "cloudflare/cloudflare"\n      version = "~> 5.0"\n    }\n  }\n}\n',
    );
    const id = `zones/${ZONE}/${'b'.repeat(32)}`;
    expect(v5).toContain(
      `import {\n  to = cloudflare_ruleset.http_request_firewall_managed\n  id = "${id}"\n}\n\n` +
        `# terraform import cloudflare_ruleset.http_request_firewall_managed ${id}\n` +
        'resource "cloudflare_ruleset" "http_request_firewall_managed" {\n',
    );
    expect(v5).toContain('  rules       = [\n    {\n      action');
    expect(terraformConfiguration(OWNER, namedRulesets([managed]), '4').text).toContain(
      'version = ">= 4.48, < 5.0.0"',
    );
  });

  it('names the import ids as each provider reads them', () => {
    expect(importLine(importCommand(OWNER, namedRulesets([managed])[0]))).toBe(
      `terraform import cloudflare_ruleset.http_request_firewall_managed zones/${ZONE}/${'b'.repeat(32)}`,
    );
    expect(importLine(importCommand(OWNER, namedRulesets([managed])[0], '4'))).toBe(
      `terraform import cloudflare_ruleset.http_request_firewall_managed zone/${ZONE}/${'b'.repeat(32)}`,
    );
  });

  it('writes skip rules: provider 4 a map of comma-joined ids, provider 5 a map of lists', () => {
    expect(terraformConfiguration(OWNER, namedRulesets([managed]), '4').text).toContain(
      `rules = {\n        "${CMR}" = "${'1'.repeat(32)},${'2'.repeat(32)}"\n      }`,
    );
    expect(terraformConfiguration(OWNER, namedRulesets([managed]), '5').text).toContain(
      `rules = {\n          "${CMR}" = ["${'1'.repeat(32)}", "${'2'.repeat(32)}"]\n        }`,
    );
  });

  it("leaves out, and names, what the provider's schema has no place for", () => {
    const withLevel = ruleset(
      'http_request_firewall_managed',
      [
        rule({
          id: 'e',
          action: 'execute',
          action_parameters: {
            id: OWASP,
            overrides: { categories: [{ category: 'x', sensitivity_level: 'low' }] },
          },
        }),
      ],
      'e'.repeat(32),
    );
    expect(terraformConfiguration(OWNER, namedRulesets([withLevel]), '5').leftOut).toEqual([]);
    const v4 = terraformConfiguration(OWNER, namedRulesets([withLevel]), '4');
    expect(v4.leftOut).toEqual([
      'cloudflare_ruleset.http_request_firewall_managed: rules[0].action_parameters.overrides.categories[0].sensitivity_level is not in the schema of provider 4; left out',
    ]);
    expect(v4.text).not.toContain('sensitivity_level');
  });

  // The Rules products' parameters where provider 4's schema holds them in another shape than the API's.
  const cache = ruleset(
    'http_request_cache_settings',
    [
      rule({
        action: 'set_cache_settings',
        action_parameters: {
          cache: true,
          edge_ttl: {
            mode: 'override_origin',
            default: 60,
            status_code_ttl: [
              { status_code: 200, value: 50 },
              { status_code_range: { from: 500, to: 599 }, value: -1 },
            ],
          },
          cache_key: {
            cache_deception_armor: true,
            custom_key: {
              query_string: { include: { all: true } },
              header: { include: ['x-a'], contains: { accept: ['image/webp', 'image/avif'] } },
              user: { geo: true },
            },
          },
          cache_reserve: { eligible: true, minimum_file_size: 1024 },
          additional_cacheable_ports: [8443, 8080],
          read_timeout: 900,
        },
      }),
      rule({
        action: 'set_cache_settings',
        action_parameters: {
          cache_key: { custom_key: { query_string: { exclude: { list: ['utm_source', 'utm_medium'] } } } },
          strip_etags: true,
        },
      }),
    ],
    'f'.repeat(32),
  );
  const transform = ruleset(
    'http_request_transform',
    [
      rule({
        action: 'rewrite',
        action_parameters: {
          uri: { query: { value: 'a=${b}' } },
          headers: {
            'x-zeta': { operation: 'remove' },
            'x-alpha': { operation: 'set', expression: 'cf.bot_management.score' },
          },
        },
      }),
    ],
    '1'.repeat(32),
  );
  const logging = ruleset(
    'http_log_custom_fields',
    [
      rule({
        action: 'log_custom_field',
        action_parameters: {
          request_fields: [{ name: 'x-request-id' }, { name: 'referer' }],
          response_fields: [{ name: 'server' }],
          cookie_fields: [{ name: '__session' }],
        },
      }),
    ],
    '2'.repeat(32),
  );

  it('provider 4: headers one block each by name, sets of names, ["*"] for all, read back as the API has them', async () => {
    const { text, leftOut } = terraformConfiguration(OWNER, namedRulesets([cache, transform, logging]), '4');
    expect(schemaProblems(parser, text, RULESET_SCHEMAS['4'])).toEqual([]);
    expect(text).toContain(
      'headers {\n        name       = "x-alpha"\n        operation  = "set"\n' +
        '        expression = "cf.bot_management.score"\n      }\n\n' +
        '      headers {\n        name      = "x-zeta"\n        operation = "remove"\n      }',
    );
    expect(text).toContain('request_fields  = ["x-request-id", "referer"]');
    expect(text).toContain('include = ["*"]');
    expect(text).toContain('exclude = ["utm_source", "utm_medium"]');
    expect(text).toMatch(/additional_cacheable_ports = \[\n\s+8443,\n\s+8080,\n\s+\]/);
    // What provider 4 has no place for is named and left out; the rest reads back as the API holds it.
    expect(leftOut).toEqual([
      'cloudflare_ruleset.http_request_cache_settings: rules[1].action_parameters.strip_etags is not in the schema of provider 4; left out',
    ]);
    expect(text).not.toContain('strip_etags');
    const document = await readHcl(text);
    const [withPorts, withoutEtags] = configurable(cache.rules ?? []);
    delete withoutEtags.action_parameters.strip_etags;
    expect(rulesOf(resource(document, cache.phase))).toEqual([withPorts, withoutEtags]);
    for (const written of [transform, logging])
      expect(rulesOf(resource(document, written.phase))).toEqual(configurable(written.rules ?? []));
    // Provider 5 has a place for all of it.
    const v5 = terraformConfiguration(OWNER, namedRulesets([cache, transform, logging]), '5');
    expect(v5.leftOut).toEqual([]);
    expect(schemaProblems(parser, v5.text, RULESET_SCHEMAS['5'])).toEqual([]);
  });

  it("provider 4: names the Rules products' parameters it has no place for", () => {
    const newer = ruleset(
      'http_log_custom_fields',
      [
        rule({
          id: 'n',
          action: 'log_custom_field',
          action_parameters: {
            request_fields: [{ name: 'x-request-id' }],
            transformed_request_fields: [{ name: 'x-rewritten' }],
            raw_response_fields: [{ name: 'server' }],
          },
        }),
      ],
      '3'.repeat(32),
    );
    const errors = ruleset(
      'http_custom_errors',
      [
        rule({
          id: 'e',
          action: 'serve_error',
          action_parameters: { asset_name: 'maintenance', status_code: 503 },
        }),
      ],
      '4'.repeat(32),
    );
    const { text, leftOut } = terraformConfiguration(OWNER, namedRulesets([newer, errors]), '4');
    expect(leftOut).toEqual([
      'cloudflare_ruleset.http_log_custom_fields: rules[0].action_parameters.transformed_request_fields is not in the schema of provider 4; left out',
      'cloudflare_ruleset.http_log_custom_fields: rules[0].action_parameters.raw_response_fields is not in the schema of provider 4; left out',
      'cloudflare_ruleset.http_custom_errors: rules[0].action_parameters.asset_name is not in the schema of provider 4; left out',
    ]);
    expect(text).toContain('request_fields = ["x-request-id"]');
    expect(text).toContain('status_code = 503');
    expect(schemaProblems(parser, text, RULESET_SCHEMAS['4'])).toEqual([]);
    expect(terraformConfiguration(OWNER, namedRulesets([newer, errors]), '5').leftOut).toEqual([]);
  });

  it('names the texts that are not in NFC, which Terraform would change', () => {
    const changed = ruleset(
      'http_request_firewall_custom',
      [rule({ id: 'r', expression: `http.host eq "${notNfc}"`, description: notNfc })],
      'd'.repeat(32),
    );
    expect(nonNfcTexts(namedRulesets([custom, managed, ratelimit]))).toEqual([]);
    expect(nonNfcTexts(namedRulesets([changed]))).toEqual([
      'cloudflare_ruleset.http_request_firewall_custom: rule r: expression',
      'cloudflare_ruleset.http_request_firewall_custom: rule r: description',
    ]);
  });
});

describe('namedRulesets', () => {
  it('names entry points by phase and custom rulesets by name, each once, as Terraform identifiers', () => {
    const customRuleset = (name: string, id: string): RulesetJson => ({
      ...ruleset('http_request_firewall_custom', [], id),
      kind: 'custom',
      name,
    });
    const names = namedRulesets([
      customRuleset('HTTP request firewall custom', 'c'.repeat(32)),
      customRuleset('2024 bans', 'd'.repeat(32)),
      customRuleset('Règles — admin', 'e'.repeat(32)),
      customRuleset('règles admin', 'f'.repeat(32)),
      customRuleset('日本語', '0'.repeat(32)),
      ruleset('http_request_firewall_custom', [], 'a'.repeat(32)),
    ]).map(({ ruleset, name }) => [ruleset.id.slice(0, 1), name]);
    expect(names).toEqual([
      ['a', 'http_request_firewall_custom'],
      ['c', 'http_request_firewall_custom_2'],
      ['d', 'ruleset_2024_bans'],
      ['e', 'regles_admin'],
      ['f', 'regles_admin_2'],
      ['0', `ruleset_${'0'.repeat(32)}`],
    ]);
  });
});
