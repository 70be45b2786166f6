import { describe, expect, it } from 'vitest';
import { categoriesOf, findManagedRuleset } from '../../src/engine/managed/index.js';
import {
  CLOUDFLARE_PACKAGE_ID,
  MIGRATION_MAPPING,
  OWASP_PACKAGE_ID,
  PREVIOUS_WAF_GROUPS,
  PREVIOUS_WAF_PACKAGES,
  PREVIOUS_WAF_RULES,
  zonePackages,
} from '../../src/engine/previous-waf/index.js';

describe('previous WAF packages', () => {
  it('are the Cloudflare package (traditional), the OWASP package (anomaly) and the USER package', () => {
    expect(PREVIOUS_WAF_PACKAGES.map((pkg) => [pkg.name, pkg.detection_mode])).toEqual([
      ['CloudFlare', 'traditional'],
      ['OWASP ModSecurity Core Rule Set', 'anomaly'],
      ['USER', 'traditional'],
    ]);
    expect(PREVIOUS_WAF_PACKAGES[1]).toMatchObject({
      id: 'a25a9a7e9c00afc1fb2e0245519d725b',
      sensitivity: 'high',
      action_mode: 'challenge',
    });
  });

  it('are listed for a zone with its id and an active status', () => {
    const zone = '023e105f4ecef8ad9ca31a8372d0c353';
    for (const pkg of zonePackages(zone)) expect(pkg).toMatchObject({ zone_id: zone, status: 'active' });
  });
});

describe('previous WAF groups and rules', () => {
  const ids = [...PREVIOUS_WAF_PACKAGES, ...PREVIOUS_WAF_GROUPS, ...PREVIOUS_WAF_RULES].map(
    (item) => item.id,
  );

  it('are a modest but realistic set, with unique ids', () => {
    expect(PREVIOUS_WAF_GROUPS.length).toBeGreaterThanOrEqual(8);
    expect(PREVIOUS_WAF_GROUPS.length).toBeLessThanOrEqual(15);
    expect(PREVIOUS_WAF_RULES.length).toBeGreaterThanOrEqual(40);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^(?:[0-9a-f]{32}|\d+)$/);
  });

  it("keep the ids of Cloudflare's API examples", () => {
    expect(
      PREVIOUS_WAF_GROUPS.find((group) => group.id === 'de677e5818985db1285d0e80225f06e5'),
    ).toMatchObject({
      name: 'Project Honey Pot',
      package_id: OWASP_PACKAGE_ID,
      allowed_modes: ['on', 'off'],
    });
    expect(PREVIOUS_WAF_RULES.find((rule) => rule.id === 'f939de3be84e66e757adcdcb87908023')).toMatchObject({
      description: 'SQL injection prevention for SELECT statements',
      group_id: 'de677e5818985db1285d0e80225f06e5',
      allowed_modes: ['on', 'off'],
    });
    expect(PREVIOUS_WAF_RULES.find((rule) => rule.id === '100015')?.group_id).toBe(
      'ea8687e59929c1fd05ba97574ad43f77',
    );
  });

  it('belong to a group of their own package', () => {
    for (const rule of PREVIOUS_WAF_RULES) {
      const group = PREVIOUS_WAF_GROUPS.find((candidate) => candidate.id === rule.group_id);
      expect(group?.package_id, rule.description).toBe(rule.package_id);
    }
  });

  it('take the modes of their package: on/off when scored, five modes when traditional', () => {
    for (const rule of PREVIOUS_WAF_RULES) {
      if (rule.package_id === OWASP_PACKAGE_ID) {
        expect(rule).toMatchObject({ kind: 'anomaly', allowed_modes: ['on', 'off'], mode: 'on' });
      } else if (rule.kind === 'traditional-deny') {
        expect(rule.package_id).toBe(CLOUDFLARE_PACKAGE_ID);
        expect(rule.allowed_modes).toEqual(['default', 'disable', 'simulate', 'block', 'challenge']);
        expect(rule.allowed_modes).toContain(rule.default_mode);
        expect(rule.mode).toBe('default');
      } else {
        expect(rule).toMatchObject({ kind: 'traditional-allow', allowed_modes: ['on', 'off'] });
      }
    }
    expect(PREVIOUS_WAF_RULES.some((rule) => rule.kind === 'traditional-allow')).toBe(true);
    for (const rule of PREVIOUS_WAF_RULES) expect(rule.priority).toMatch(/^\d+$/);
  });
});

describe('the mapping to the new WAF Managed Rules', () => {
  it('covers every previous group and rule, and nothing else', () => {
    const mapped = [...PREVIOUS_WAF_GROUPS, ...PREVIOUS_WAF_RULES].map((item) => item.id).sort();
    expect([...MIGRATION_MAPPING.keys()].sort()).toEqual(mapped);
  });

  it('points at rules and categories that exist in the named ruleset', () => {
    for (const [id, target] of MIGRATION_MAPPING) {
      if (target.kind === 'none') {
        expect(target.reason.length, id).toBeGreaterThan(10);
        continue;
      }
      const ruleset = findManagedRuleset(target.rulesetId);
      expect(ruleset, id).toBeDefined();
      if (!ruleset) continue;
      if (target.kind === 'rules') {
        expect(target.ruleIds.length).toBeGreaterThan(0);
        const ruleIds = new Set(ruleset.rules.map((rule) => rule.id));
        for (const ruleId of target.ruleIds) expect(ruleIds.has(ruleId), `${id} → ${ruleId}`).toBe(true);
      } else {
        expect(categoriesOf(ruleset)).toEqual(expect.arrayContaining([...target.categories]));
      }
    }
  });

  it('maps most of the previous rules to new rules', () => {
    const targets = PREVIOUS_WAF_RULES.map((rule) => MIGRATION_MAPPING.get(rule.id)?.kind);
    expect(targets.filter((kind) => kind === 'rules').length / targets.length).toBeGreaterThan(0.8);
  });
});
