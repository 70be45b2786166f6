import { describe, expect, it } from 'vitest';
import { validate } from '../../src/check/validate.js';
import { projectId, projectIdInJavaScript } from '../../src/engine/managed/ids.js';
import {
  CLOUDFLARE_MANAGED_RULESET_ID,
  categoriesOf,
  cloudflareManagedRuleset,
  compiledRules,
  evaluateManagedRuleset,
  findManagedRule,
  findManagedRuleset,
  type ManagedRule,
  managedRulesets,
  OWASP_ANOMALY_RULE_ID,
  OWASP_RULESET_ID,
  owaspCoreRuleset,
  SEVERITY_SCORES,
} from '../../src/engine/managed/index.js';
import { describeRegex } from '../../src/regex/index.js';
import { readSampleRequest } from '../../src/request/index.js';

/**
 * Cloudflare's own rules: the managed-only fields and functions are allowed and the customer's length limit
 * does not apply. The check is the full one, RE2's compile of every pattern included, which the engine
 * skips when it loads the catalogue (checkRegexes: false).
 */
const PROFILE = {
  plan: 'enterprise',
  phase: 'http_request_firewall_managed',
  managedRuleset: true,
  maxLength: Number.POSITIVE_INFINITY,
} as const;

/** The patterns of an expression's `matches` comparisons (the catalogue writes them as raw strings). */
const patternsOf = (expression: string) =>
  [...expression.matchAll(/\smatches (r(#*)"([\s\S]*?)"\2)/g)].map((match) => match[3] as string);

/** How many regexes an expression holds (Cloudflare allows 64 per rule). */
const regexCount = (expression: string) => expression.split(/\smatches\s/).length - 1;

describe.each(managedRulesets)('$name', (ruleset) => {
  it('has at least 100 rules, with unique 32-hex ids', () => {
    expect(ruleset.rules.length).toBeGreaterThanOrEqual(100);
    const ids = ruleset.rules.map((rule) => rule.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{32}$/);
  });

  it('is a managed ruleset of the managed request phase', () => {
    expect(ruleset.kind).toBe('managed');
    expect(ruleset.phase).toBe('http_request_firewall_managed');
    expect(findManagedRuleset(ruleset.id)).toBe(ruleset);
  });

  it('writes no control character into an expression (`\\b` in a template literal is a backspace)', () => {
    const isControl = (code: number) =>
      (code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) || code === 0x7f;
    for (const rule of ruleset.rules) {
      const controls = [...rule.expression].filter((char) => isControl(char.charCodeAt(0)));
      expect(controls, rule.description).toEqual([]);
    }
  });

  it('has unique descriptions, and categories on every rule', () => {
    const descriptions = ruleset.rules.map((rule) => rule.description);
    expect(new Set(descriptions).size).toBe(descriptions.length);
    for (const rule of ruleset.rules) expect(rule.categories.length, rule.description).toBeGreaterThan(0);
  });

  it.each(ruleset.rules.map((rule): [string, ManagedRule] => [rule.description, rule]))(
    '%s: valid for the Enterprise plan in the managed phase, within the limits',
    (_, rule) => {
      const result = validate(rule.expression, PROFILE);
      expect(result.diagnostics).toEqual([]);
      expect(result.ok).toBe(true);
      expect(regexCount(rule.expression)).toBeLessThanOrEqual(64);
      // Every request runs every managed rule: each pattern must search on V8 (or be literals alone, or
      // be filtered by V8 before RE2), never on RE2 in WebAssembly alone, which costs 50 times as much.
      for (const pattern of patternsOf(rule.expression))
        expect(describeRegex(pattern).search, pattern).not.toBe('re2');
    },
  );
});

describe("the engine's filters of the catalogue", () => {
  // Compiled on first use (src/engine/managed/evaluate.ts): a rule that failed to compile would only say
  // so when a request first made it a candidate. Every one is compiled here.
  it.each(managedRulesets)('compiles every rule of $name', (ruleset) => {
    for (const { rule, filter } of compiledRules(ruleset))
      expect(() => filter.fields, rule.description).not.toThrow();
  });
});

describe('Cloudflare Managed Ruleset', () => {
  it("has Cloudflare's id and name", () => {
    expect(cloudflareManagedRuleset.id).toBe('efb7b8c949ac4650a09736fc376e9aee');
    expect(CLOUDFLARE_MANAGED_RULESET_ID).toBe(cloudflareManagedRuleset.id);
    expect(cloudflareManagedRuleset.name).toBe('Cloudflare Managed Ruleset');
  });

  it('keeps the rule id Cloudflare publishes', () => {
    const found = findManagedRule('23ee7cebe6e8443e99ecf932ab579455');
    expect(found?.ruleset).toBe(cloudflareManagedRuleset);
    expect(found?.rule.description).toBe('Apache Struts - Open Redirect - CVE:CVE-2013-2248');
  });

  it('tags rules by attack class and by product', () => {
    expect(categoriesOf(cloudflareManagedRuleset)).toEqual(
      expect.arrayContaining([
        'sqli',
        'xss',
        'rce',
        'lfi',
        'cve-2021-44228',
        'wordpress',
        'php',
        'drupal',
        'scanner',
      ]),
    );
  });

  it('finds attack tools by their headers: a name in any case, sqlmap in X-Forwarded-For', () => {
    const matched = (headers: [string, string][]) => {
      const read = readSampleRequest({ method: 'GET', url: 'https://example.com/', headers });
      if (!read.ok) throw new Error('the request does not read');
      return evaluateManagedRuleset(read.request).matched.map((rule) => rule.description);
    };
    const tools = 'Scanner - Attack tool headers';
    expect(matched([['X-Scanner', 'Netsparker']])).toContain(tools);
    expect(matched([['x-forwarded-for', '203.0.113.9, sqlmap']])).toContain(tools);
    expect(matched([['x-forwarded-for', '203.0.113.9, 198.51.100.7']])).not.toContain(tools);
    expect(matched([['x-scanners', '1']])).not.toContain(tools);
  });

  it('blocks by default, with some rules that only log or challenge, and some off by default', () => {
    const actions = new Set(cloudflareManagedRuleset.rules.map((rule) => rule.action));
    expect([...actions].sort()).toEqual(['block', 'log', 'managed_challenge']);
    expect(cloudflareManagedRuleset.rules.filter((rule) => !rule.enabled).length).toBeGreaterThan(0);
    expect(cloudflareManagedRuleset.rules.every((rule) => rule.kind === 'signature')).toBe(true);
  });
});

describe('Cloudflare OWASP Core Ruleset', () => {
  const scoring = owaspCoreRuleset.rules.filter((rule) => rule.kind === 'scoring');
  const anomaly = owaspCoreRuleset.rules.filter((rule) => rule.kind === 'anomaly');

  it("has Cloudflare's id and name", () => {
    expect(owaspCoreRuleset.id).toBe('4814384a9e5d4991b9815dcfc25d2f1f');
    expect(OWASP_RULESET_ID).toBe(owaspCoreRuleset.id);
    expect(owaspCoreRuleset.name).toBe('Cloudflare OWASP Core Ruleset');
  });

  it('ends with the anomaly rule, which blocks at a score of 40 and is evaluated on every request', () => {
    expect(anomaly).toHaveLength(1);
    expect(owaspCoreRuleset.rules.at(-1)).toMatchObject({
      id: '6179ae15870a4bb7b2d480d4843b323c',
      description: '949110: Inbound Anomaly Score Exceeded',
      action: 'block',
      scoreThreshold: 40,
      expression: 'true',
    });
    expect(OWASP_ANOMALY_RULE_ID).toBe('6179ae15870a4bb7b2d480d4843b323c');
  });

  it('gives each scoring rule one paranoia tag, its level, and the score of its severity', () => {
    for (const rule of scoring) {
      const tags = rule.categories.filter((category) => category.startsWith('paranoia-level-'));
      expect(tags, rule.description).toEqual([`paranoia-level-${rule.paranoiaLevel}`]);
      expect(rule.score).toBe(SEVERITY_SCORES[rule.severity]);
      expect(rule.action).toBe('log');
      expect(rule.description).toMatch(/^9\d{5}: /);
    }
  });

  it('spreads rules over the four paranoia levels and the attack categories', () => {
    const levels = new Set(scoring.map((rule) => rule.paranoiaLevel));
    expect([...levels].sort()).toEqual([1, 2, 3, 4]);
    expect(categoriesOf(owaspCoreRuleset)).toEqual(
      expect.arrayContaining([
        'attack-sqli',
        'attack-xss',
        'attack-lfi',
        'attack-rfi',
        'attack-rce',
        'attack-injection-php',
        'language-java',
        'attack-protocol',
        'attack-reputation-scanner',
      ]),
    );
    // CRS v4 rates its rules critical, warning or notice; none is an error.
    expect(new Set(scoring.map((rule) => rule.score))).toEqual(new Set([5, 3, 2]));
  });
});

describe('project ids', () => {
  it('are the first 16 bytes of a SHA-256 of the stable name, so they never change', () => {
    // sha256("cfrules:example") computed independently.
    expect(projectId('example')).toBe('6a289d0e2c53b97d87edb24540ac5d7f');
    expect(projectId('example')).toBe(projectId('example'));
    expect(projectId('example')).not.toBe(projectId('example2'));
  });

  it('are the same without Node built-ins (the JavaScript SHA-256 the library falls back on)', () => {
    expect(projectIdInJavaScript('cfrules:example')).toBe('6a289d0e2c53b97d87edb24540ac5d7f');
    for (const name of ['a', 'cloudflare-managed:sqli-union', 'previous-waf:package:user', 'x'.repeat(200)])
      expect(projectIdInJavaScript(`cfrules:${name}`)).toBe(projectId(name));
  });
});
