// biome-ignore-all lint/suspicious/noTemplateCurlyInString: HCL template sequences in plain strings are what these tests are about
// The cloudflare_ruleset resources (provider 4.x) of a zone's entry points, read back with HCL's parser.
import { describe, expect, it } from 'vitest';
import {
  importCommand,
  importLine,
  nonNfcTexts,
  terraformConfiguration,
} from '../../../src/cli/export/terraform.js';
import type { RuleJson, RulesetJson } from '../../../src/service/rulesets/model.js';
import { nastyDescriptions, nastyExpressions, notNfc } from './nasty.js';
import { configurable, readHcl, resource, rulesOf } from './read-hcl.js';

const ZONE = '023e105f4ecef8ad9ca31a8372d0c353';
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

describe('terraformConfiguration', () => {
  it('writes every rule so that HCL reads back what the API returned', async () => {
    const document = await readHcl(terraformConfiguration(ZONE, [custom, managed, ratelimit]));
    for (const ruleset of [custom, managed, ratelimit]) {
      const written = resource(document, ruleset.phase);
      expect(written).toMatchObject({
        zone_id: ZONE,
        name: ruleset.name,
        description: ruleset.description,
        kind: 'zone',
        phase: ruleset.phase,
      });
      expect(rulesOf(written)).toEqual(configurable(ruleset.rules ?? []));
    }
  });

  it('puts each resource under the command that imports it', () => {
    const text = terraformConfiguration(ZONE, [managed]);
    expect(importLine(importCommand(ZONE, managed))).toBe(
      `terraform import cloudflare_ruleset.http_request_firewall_managed zone/${ZONE}/${'b'.repeat(32)}`,
    );
    expect(
      text.startsWith(
        `# ${importLine(importCommand(ZONE, managed))}\nresource "cloudflare_ruleset" "http_request_firewall_managed" {\n`,
      ),
    ).toBe(true);
  });

  it('writes skip rules of the managed phase as provider 4.x does: a map of comma-joined ids', () => {
    expect(terraformConfiguration(ZONE, [managed])).toContain(
      `rules    = {\n        "${CMR}" = "${'1'.repeat(32)},${'2'.repeat(32)}"\n      }`,
    );
  });

  it('names the texts that are not in NFC, which Terraform would change', () => {
    const changed = ruleset(
      'http_request_firewall_custom',
      [rule({ id: 'r', expression: `http.host eq "${notNfc}"`, description: notNfc })],
      'd'.repeat(32),
    );
    expect(nonNfcTexts([custom, managed, ratelimit])).toEqual([]);
    expect(nonNfcTexts([changed])).toEqual([
      'cloudflare_ruleset.http_request_firewall_custom: rule r: expression',
      'cloudflare_ruleset.http_request_firewall_custom: rule r: description',
    ]);
  });
});
