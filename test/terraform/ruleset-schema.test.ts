// The example zone's rulesets (examples/zone/zone.json) exported for each provider: the configuration parses,
// matches the description of that provider's schema, and reads back as the rules it was written from.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { namedRulesets, terraformConfiguration } from '../../src/cli/export/terraform.js';
import type { RulesetJson } from '../../src/service/rulesets/model.js';
import { readTerraform } from '../../src/terraform/expressions.js';
import { loadHclParser } from '../../src/terraform/parser.js';
import { RULESET_SCHEMAS } from '../../src/terraform/ruleset-schema.js';
import { RULE_OF_PHASE } from '../api/phase-rules.js';
import { configurable, readHcl, resource, rulesOf } from '../cli/export/read-hcl.js';
import { schemaProblems } from './schema-check.js';

const parser = await loadHclParser();
const zone = JSON.parse(readFileSync(new URL('../../examples/zone/zone.json', import.meta.url), 'utf8'));
const rulesets = zone.rulesets as RulesetJson[];
const ZONE = '023e105f4ecef8ad9ca31a8372d0c353';

/**
 * The rulesets exported for the provider: nothing left out, the configuration matches the description of
 * the provider's schema and reads back as the rules it was written from. Its text.
 */
async function exported(written: RulesetJson[], provider: '4' | '5'): Promise<string> {
  const { text, leftOut } = terraformConfiguration(
    { scope: 'zone', id: ZONE },
    namedRulesets(written),
    provider,
  );
  expect(leftOut).toEqual([]);
  expect(schemaProblems(parser, text, RULESET_SCHEMAS[provider])).toEqual([]);
  const document = await readHcl(text);
  for (const ruleset of written)
    expect(rulesOf(resource(document, ruleset.phase))).toEqual(configurable(ruleset.rules ?? []));
  return text;
}

/** A rule's rewrite expressions, in the order of its action parameters. */
function rewriteExpressions(rule: { action_parameters?: unknown }): string[] {
  const found: string[] = [];
  const visit = (value: unknown): void => {
    if (typeof value !== 'object' || value === null) return;
    for (const [key, member] of Object.entries(value)) {
      if (key === 'expression' && typeof member === 'string') found.push(member);
      else visit(member);
    }
  };
  visit(rule.action_parameters);
  return found;
}

describe("the example zone's rulesets as Terraform", () => {
  for (const provider of ['5', '4'] as const) {
    it(`provider ${provider}: parse, match the schema of ${RULESET_SCHEMAS[provider].versions}, read back`, async () => {
      const text = await exported(rulesets, provider);
      // cfrules validate finds every expression of the export, each in its ruleset's phase.
      const found = readTerraform(parser, text).expressions;
      const of = (kind: string) =>
        found.filter((e) => (e.kind ?? 'filter') === kind).map((e) => [e.phase, e.literal?.expression]);
      expect(of('filter')).toEqual(
        rulesets.flatMap((ruleset) => (ruleset.rules ?? []).map((rule) => [ruleset.phase, rule.expression])),
      );
      // The redirect's target, the URL rewrite's path and the header's value: rewrite expressions.
      expect(of('rewrite')).toEqual(
        rulesets.flatMap((ruleset) =>
          (ruleset.rules ?? []).flatMap((rule) => rewriteExpressions(rule).map((e) => [ruleset.phase, e])),
        ),
      );
      expect(of('rewrite')).toHaveLength(3);
    });
  }

  const products: RulesetJson[] = Object.entries(RULE_OF_PHASE).map(([phase, rule], i) => ({
    id: `${i.toString(16).padStart(2, '0')}${'a'.repeat(30)}`,
    name: 'default',
    description: '',
    kind: 'zone',
    version: '1',
    last_updated: '2026-11-28T00:00:00.000000Z',
    phase,
    rules: [
      {
        id: `${i.toString(16).padStart(2, '0')}${'b'.repeat(30)}`,
        version: '1',
        description: '',
        enabled: true,
        ref: `r${i}`,
        last_updated: '2026-11-28T00:00:00.000000Z',
        ...(rule as { action: string; expression: string }),
      },
    ],
  }));

  for (const provider of ['5', '4'] as const) {
    it(`provider ${provider}: an entry point of every Rules product phase, parameters and all`, async () => {
      const text = await exported(products, provider);
      // Header names: provider 5 writes them as quoted keys of a map of objects, provider 4 one block each.
      expect(text).toContain(
        provider === '5'
          ? '"strict-transport-security" = {'
          : 'headers {\n        name      = "strict-transport-security"',
      );
      // cfrules validate finds the rewrite expressions of the export in their places, in their phases.
      const rewrites = readTerraform(parser, text)
        .expressions.filter((e) => e.kind === 'rewrite')
        .map((e) => [e.phase, e.field, e.literal?.expression]);
      expect(rewrites).toEqual([
        [
          'http_request_dynamic_redirect',
          'action_parameters.from_value.target_url.expression',
          'concat("https://new.example.com", http.request.uri.path)',
        ],
        [
          'http_request_transform',
          'action_parameters.uri.path.expression',
          'regex_replace(http.request.uri.path, "^/old/", "/new/")',
        ],
        ['http_request_late_transform', 'action_parameters.headers.x-country.expression', 'ip.src.country'],
      ]);
      // And every rule's condition, each in its phase.
      expect(
        readTerraform(parser, text)
          .expressions.filter((e) => e.kind === undefined)
          .map((e) => [e.phase, e.literal?.expression]),
      ).toEqual(products.map((ruleset) => [ruleset.phase, ruleset.rules?.[0]?.expression]));
    });
  }

  it('the schema descriptions say which provider versions they are and where they were read from', () => {
    for (const schema of Object.values(RULESET_SCHEMAS)) {
      expect(schema.provider).toBe('cloudflare/cloudflare');
      expect(schema.source.length).toBeGreaterThan(0);
      expect(schema.members.rules).toBeDefined();
    }
    expect(RULESET_SCHEMAS['4'].members.rules).toMatchObject({ kind: 'block', nesting: 'list' });
    expect(RULESET_SCHEMAS['5'].members.rules).toMatchObject({ kind: 'object', nesting: 'list' });
  });
});
