import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CLOUDFLARE_MANAGED_RULESET_ID, cloudflareManagedRuleset } from '../../src/engine/managed/index.js';
import type { RulesetTrace, RuleTrace } from '../../src/engine/outcome.js';
import { SHIPPED_CATALOGUE } from '../../src/engine/previous-waf/catalogue-view.js';
import {
  CLOUDFLARE_PACKAGE_ID,
  OWASP_PACKAGE_ID,
  PREVIOUS_WAF_GROUPS,
  PREVIOUS_WAF_RULES,
} from '../../src/engine/previous-waf/index.js';
import {
  checkPreviousWaf,
  evaluatePreviousWaf,
  evaluatePreviousWafWith,
} from '../../src/engine/previous-waf/simulate.js';
import type { PageRuleEntry, PreviousWafEntry } from '../../src/engine/zone/model.js';
import { layoutFor, type RequestContext } from '../../src/eval/context.js';
import { formatRequestProblem, readSampleRequest } from '../../src/request/index.js';
import { cloudflareScheme } from '../../src/scheme/scheme.js';
import { attackCorpus } from './corpus/attacks.js';
import { benignCorpus } from './corpus/benign.js';

function context(json: unknown): RequestContext {
  const result = readSampleRequest(json);
  if (!result.ok) throw new Error(result.problems.map(formatRequestProblem).join('\n'));
  return layoutFor(cloudflareScheme).context(result.request);
}

const browserJson = JSON.parse(readFileSync('examples/requests/browser.json', 'utf8'));
const HEADERS = [
  ['Host', 'shop.example.com'],
  ['User-Agent', 'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0'],
  ['Accept', 'text/html'],
];
const get = (url: string, headers = HEADERS) => context({ method: 'GET', url, headers });
const withQuery = (path: string, value: string) =>
  get(`https://shop.example.com${path}?q=${encodeURIComponent(value)}`);

const UNION = "1' UNION SELECT username, password FROM users--";
const browser = () => context(browserJson);
const union = (path = '/search') => withQuery(path, UNION);
const noUserAgent = () => get('https://shop.example.com/', HEADERS.slice(0, 1).concat(HEADERS.slice(2)));
const attack = (name: string) => {
  const entry = attackCorpus().find((candidate) => candidate.name === name);
  if (!entry) throw new Error(`no attack named ${name}`);
  return context(entry.request);
};

const ruleId = (description: string) => {
  const rule = PREVIOUS_WAF_RULES.find((candidate) => candidate.description === description);
  if (!rule) throw new Error(`no previous rule ${description}`);
  return rule.id;
};
const groupId = (name: string) => {
  const group = PREVIOUS_WAF_GROUPS.find((candidate) => candidate.name === name);
  if (!group) throw new Error(`no previous group ${name}`);
  return group.id;
};
const SQLI_UNION = ruleId('SQL injection: UNION-based queries');
const MISSING_UA = '100015';
const SPECIALS = groupId('Cloudflare Specials');
const ALL_CLOUDFLARE_OFF = PREVIOUS_WAF_GROUPS.filter((g) => g.package_id === CLOUDFLARE_PACKAGE_ID).map(
  (g) => ({ id: g.id, mode: 'off' }),
);
const owasp = (sensitivity: string, action_mode?: string): PreviousWafEntry => ({
  groups: ALL_CLOUDFLARE_OFF,
  packages: [{ id: OWASP_PACKAGE_ID, sensitivity, ...(action_mode ? { action_mode } : {}) }],
});

const packageTrace = (trace: unknown[], id: string) =>
  trace.find((step) => (step as RulesetTrace).id === id) as RulesetTrace | undefined;
const ruleTrace = (trace: unknown[], packageId: string, id: string) =>
  packageTrace(trace, packageId)?.trace.find((step) => step.id === id) as RuleTrace | undefined;

describe('the previous WAF with the catalogue defaults', () => {
  it('lets a browser page view through', () => {
    const outcome = evaluatePreviousWaf({}, [], browser());
    expect(outcome.action).toBeUndefined();
    expect(outcome.decidedBy).toBeUndefined();
    expect(outcome.trace.map((step) => [(step as RulesetTrace).name, (step as RulesetTrace).kind])).toEqual([
      ['CloudFlare', 'traditional'],
      ['OWASP ModSecurity Core Rule Set', 'anomaly'],
      ['USER', 'traditional'],
    ]);
  });

  it('blocks a UNION injection with the CloudFlare rule that replaces it, ending the stage', () => {
    const outcome = evaluatePreviousWaf({}, [], union());
    expect(outcome.action).toBe('block');
    expect(outcome.decidedBy).toMatchObject({ id: SQLI_UNION, stage: 'previous_waf' });
    const step = ruleTrace(outcome.trace, CLOUDFLARE_PACKAGE_ID, SQLI_UNION);
    expect(step).toMatchObject({ action: 'block', matched: true, terminated: true });
    // The rule's condition is the expression of the managed rule that replaces it.
    const replacement = cloudflareManagedRuleset.rules.find((rule) =>
      rule.description.includes('OWASP 942360'),
    );
    expect(step?.expression).toContain(replacement?.expression);
    // Ended: the OWASP package did not run.
    expect(packageTrace(outcome.trace, OWASP_PACKAGE_ID)).toBeUndefined();
  });

  it('challenges a request without a User-Agent (rule 100015, default mode challenge)', () => {
    const outcome = evaluatePreviousWaf({}, [], noUserAgent());
    expect(outcome).toMatchObject({ action: 'challenge', decidedBy: { id: MISSING_UA } });
  });

  it('takes an action on most attacks of the corpus and on none of the legitimate requests', () => {
    const attacks = attackCorpus();
    const acted = attacks.filter((entry) => evaluatePreviousWaf({}, [], context(entry.request)).action);
    expect(acted.length / attacks.length).toBeGreaterThan(0.5);
    const benign = benignCorpus().filter(
      (entry) => evaluatePreviousWaf({}, [], context(entry.request)).action,
    );
    expect(benign.map((entry) => entry.name)).toEqual([]);
  });

  it('never matches a rule that nothing replaces, and says so', () => {
    const robots = ruleId('Let crawlers fetch robots.txt past the other rules');
    const outcome = evaluatePreviousWaf({}, [], get('https://shop.example.com/robots.txt'));
    expect(ruleTrace(outcome.trace, CLOUDFLARE_PACKAGE_ID, robots)).toMatchObject({
      matched: false,
      notRun: { reason: 'no_equivalent' },
    });
  });
});

describe('the zone settings', () => {
  it('do nothing when the previous WAF is disabled', () => {
    expect(evaluatePreviousWaf({ enabled: false }, [], union())).toEqual({ matched: [], trace: [] });
  });

  it('simulate: the rule logs and evaluation goes on', () => {
    const outcome = evaluatePreviousWaf({ rules: [{ id: SQLI_UNION, mode: 'simulate' }] }, [], union());
    expect(ruleTrace(outcome.trace, CLOUDFLARE_PACKAGE_ID, SQLI_UNION)).toMatchObject({
      action: 'simulate',
      matched: true,
    });
    expect(outcome.matched.map((rule) => rule.id)).toContain(SQLI_UNION);
    expect(outcome.decidedBy?.id).not.toBe(SQLI_UNION);
    // The OWASP package ran after it.
    expect(packageTrace(outcome.trace, OWASP_PACKAGE_ID)?.score).toBeGreaterThan(0);
  });

  it('disable: the rule does not run; challenge: the rule challenges', () => {
    const disabled = evaluatePreviousWaf({ rules: [{ id: SQLI_UNION, mode: 'disable' }] }, [], union());
    expect(ruleTrace(disabled.trace, CLOUDFLARE_PACKAGE_ID, SQLI_UNION)).toMatchObject({
      matched: false,
      notRun: { reason: 'disabled' },
    });
    expect(disabled.matched.map((rule) => rule.id)).not.toContain(SQLI_UNION);
    const challenged = evaluatePreviousWaf({ rules: [{ id: SQLI_UNION, mode: 'challenge' }] }, [], union());
    expect(challenged).toMatchObject({ action: 'challenge', decidedBy: { id: SQLI_UNION } });
  });

  it('default: the rule takes its default mode', () => {
    const outcome = evaluatePreviousWaf({ rules: [{ id: MISSING_UA, mode: 'default' }] }, [], noUserAgent());
    expect(outcome.action).toBe('challenge');
  });

  it('a group off turns its rules off, naming the group', () => {
    const outcome = evaluatePreviousWaf({ groups: [{ id: SPECIALS, mode: 'off' }] }, [], union());
    expect(ruleTrace(outcome.trace, CLOUDFLARE_PACKAGE_ID, SQLI_UNION)).toMatchObject({
      notRun: { reason: 'disabled', by: { id: SPECIALS, description: 'Cloudflare Specials' } },
    });
    expect(outcome.decidedBy?.id).not.toBe(SQLI_UNION);
  });

  it('a group the catalogue has off can be turned on', () => {
    const flash = groupId('Cloudflare Flash');
    const crossdomain = ruleId('Flash cross-domain policy abuse');
    const off = evaluatePreviousWaf({}, [], browser());
    expect(ruleTrace(off.trace, CLOUDFLARE_PACKAGE_ID, crossdomain)?.notRun?.by?.id).toBe(flash);
    const on = evaluatePreviousWaf({ groups: [{ id: flash, mode: 'on' }] }, [], browser());
    // On, but nothing replaces it in the new rulesets.
    expect(ruleTrace(on.trace, CLOUDFLARE_PACKAGE_ID, crossdomain)?.notRun?.reason).toBe('disabled');
  });
});

describe('the OWASP package', () => {
  // Scores 25 at paranoia level 1 and 2: at the medium threshold (25), under high and low (40).
  const phpCgi = () => attack('PHP-CGI CVE-2012-1823');
  // Scores 50 at paranoia level 2, 45 at level 1 (932130 takes `${…}` for a shell expansion, 934175 for a
  // template that calls something, 944 rules java.lang.Runtime).
  const text4shell = () => attack('Text4Shell CVE-2022-42889');

  it('scores with the paranoia level and threshold of the migration table', () => {
    const decision = (sensitivity: string, request: RequestContext) => {
      const outcome = evaluatePreviousWaf(owasp(sensitivity), [], request);
      return [packageTrace(outcome.trace, OWASP_PACKAGE_ID)?.score, outcome.action ?? 'none'];
    };
    expect(decision('medium', phpCgi())).toEqual([25, 'challenge']);
    expect(decision('high', phpCgi())).toEqual([25, 'none']);
    expect(decision('low', phpCgi())).toEqual([25, 'none']);
    expect(decision('high', text4shell())).toEqual([50, 'challenge']);
    expect(decision('low', text4shell())).toEqual([45, 'challenge']);
  });

  it('names the package as the decider, with the score in the trace', () => {
    const outcome = evaluatePreviousWaf(owasp('high'), [], text4shell());
    expect(outcome.decidedBy).toEqual({
      id: OWASP_PACKAGE_ID,
      description: 'OWASP ModSecurity Core Rule Set',
      stage: 'previous_waf',
    });
    const decision = ruleTrace(outcome.trace, OWASP_PACKAGE_ID, OWASP_PACKAGE_ID);
    expect(decision).toMatchObject({ matched: true, action: 'challenge', score: 50, terminated: true });
    expect(decision?.description).toContain('threshold 40');
  });

  it('acts as its action mode says: block, or only log in simulate', () => {
    expect(evaluatePreviousWaf(owasp('high', 'block'), [], text4shell()).action).toBe('block');
    const simulated = evaluatePreviousWaf(owasp('high', 'simulate'), [], text4shell());
    expect(simulated.action).toBeUndefined();
    expect(simulated.matched.map((rule) => rule.id)).toContain(OWASP_PACKAGE_ID);
  });

  it('does not run with sensitivity off', () => {
    const outcome = evaluatePreviousWaf(owasp('off'), [], text4shell());
    expect(outcome.action).toBeUndefined();
    const trace = packageTrace(outcome.trace, OWASP_PACKAGE_ID);
    expect(trace?.score).toBeUndefined();
    expect(trace?.trace.every((step) => (step as RuleTrace).notRun?.reason === 'disabled')).toBe(true);
  });

  it('leaves out of the score the new rules that replace its rules and groups that are off', () => {
    const request = withQuery('/item', "1' AND SLEEP(5)-- ");
    const score = (config: PreviousWafEntry) =>
      packageTrace(evaluatePreviousWaf(config, [], request).trace, OWASP_PACKAGE_ID)?.score ?? 0;
    const base = score(owasp('high'));
    const blind = ruleId('Blind injection with delays');
    const withoutRule = score({ ...owasp('high'), rules: [{ id: blind, mode: 'off' }] });
    expect(withoutRule).toBeLessThan(base);
    const sqliGroup = groupId('OWASP SQL Injection Prevention');
    const withoutGroup = score({
      ...owasp('high'),
      groups: [...ALL_CLOUDFLARE_OFF, { id: sqliGroup, mode: 'off' }],
    });
    expect(withoutGroup).toBeLessThan(withoutRule);
    const off = evaluatePreviousWaf({ ...owasp('high'), rules: [{ id: blind, mode: 'off' }] }, [], request);
    expect(ruleTrace(off.trace, OWASP_PACKAGE_ID, blind)?.notRun?.reason).toBe('disabled');
  });

  it('traces each previous rule with the score of the new rules that replace it', () => {
    const outcome = evaluatePreviousWaf(owasp('high'), [], withQuery('/item', "1' AND SLEEP(5)-- "));
    const blind = ruleTrace(outcome.trace, OWASP_PACKAGE_ID, ruleId('Blind injection with delays'));
    expect(blind).toMatchObject({ matched: true, action: 'on' });
    expect(blind?.score).toBeGreaterThan(0);
    const trace = packageTrace(outcome.trace, OWASP_PACKAGE_ID)?.trace as RuleTrace[];
    const total = trace
      .filter((step) => step.id !== OWASP_PACKAGE_ID)
      .reduce((sum, s) => sum + (s.score ?? 0), 0);
    expect(total).toBeGreaterThanOrEqual(packageTrace(outcome.trace, OWASP_PACKAGE_ID)?.score ?? 0);
  });
});

describe('URI-based overrides', () => {
  const override = (fields: Partial<NonNullable<PreviousWafEntry['overrides']>[number]>) => ({
    urls: ['shop.example.com/admin/*'],
    ...fields,
  });

  it('apply on the URLs they list, and only there', () => {
    const config = { overrides: [override({ rules: { [SQLI_UNION]: 'disable' } })] };
    const inside = evaluatePreviousWaf(config, [], union('/admin/search'));
    expect(ruleTrace(inside.trace, CLOUDFLARE_PACKAGE_ID, SQLI_UNION)?.notRun).toMatchObject({
      reason: 'disabled',
      by: { description: 'URI-based WAF override' },
    });
    expect(evaluatePreviousWaf(config, [], union('/search')).decidedBy?.id).toBe(SQLI_UNION);
  });

  it('match with or without the scheme, and a pattern with a scheme only that scheme', () => {
    const rules = { [SQLI_UNION]: 'challenge' };
    const http = evaluatePreviousWaf(
      { overrides: [override({ urls: ['http://shop.example.com/*'], rules })] },
      [],
      union(),
    );
    expect(http.action).toBe('block');
    const any = evaluatePreviousWaf(
      { overrides: [override({ urls: ['shop.example.com/*'], rules })] },
      [],
      union(),
    );
    expect(any.action).toBe('challenge');
  });

  it('never apply when paused', () => {
    const config = { overrides: [override({ paused: true, rules: { [SQLI_UNION]: 'disable' } })] };
    expect(evaluatePreviousWaf(config, [], union('/admin/x')).decidedBy?.id).toBe(SQLI_UNION);
  });

  it('the lower priority number wins where two set the same rule', () => {
    const config = (first: number, second: number) => ({
      overrides: [
        override({ priority: first, rules: { [SQLI_UNION]: 'challenge' } }),
        override({ priority: second, rules: { [SQLI_UNION]: 'simulate' } }),
      ],
    });
    expect(evaluatePreviousWaf(config(1, 2), [], union('/admin/x')).action).toBe('challenge');
    const simulated = evaluatePreviousWaf(config(2, 1), [], union('/admin/x'));
    expect(ruleTrace(simulated.trace, CLOUDFLARE_PACKAGE_ID, SQLI_UNION)?.action).toBe('simulate');
  });

  it('groups: disable turns a group off, an action sets its rules', () => {
    const off = evaluatePreviousWaf(
      { overrides: [override({ groups: { [SPECIALS]: 'disable' } })] },
      [],
      union('/admin/x'),
    );
    expect(ruleTrace(off.trace, CLOUDFLARE_PACKAGE_ID, SQLI_UNION)?.notRun?.reason).toBe('disabled');
    const challenged = evaluatePreviousWaf(
      { overrides: [override({ groups: { [SPECIALS]: 'challenge' } })] },
      [],
      union('/admin/x'),
    );
    expect(challenged).toMatchObject({ action: 'challenge', decidedBy: { id: SQLI_UNION } });
    const on = evaluatePreviousWaf(
      {
        groups: [{ id: SPECIALS, mode: 'off' }],
        overrides: [override({ groups: { [SPECIALS]: 'default' } })],
      },
      [],
      union('/admin/x'),
    );
    expect(on.decidedBy?.id).toBe(SQLI_UNION);
  });

  it('rewrite_action maps the actions of the rules and of the anomaly package', () => {
    const rewrite = { rewrite_action: { block: 'challenge' }, rules: { [MISSING_UA]: 'default' } };
    expect(evaluatePreviousWaf({ overrides: [override(rewrite)] }, [], union('/admin/x')).action).toBe(
      'challenge',
    );
    const blocking = { ...owasp('high', 'block'), overrides: [override(rewrite)] };
    const text4shell = attack('Text4Shell CVE-2022-42889');
    expect(evaluatePreviousWaf(blocking, [], text4shell).action).toBe('block');
    const everywhere = { ...blocking, overrides: [override({ ...rewrite, urls: ['*'] })] };
    expect(evaluatePreviousWaf(everywhere, [], text4shell).action).toBe('challenge');
  });
});

describe('page rules', () => {
  const pageRule = (
    value: string,
    actions: PageRuleEntry['actions'],
    fields: Partial<PageRuleEntry> = {},
  ) => ({
    id: `rule-${value}-${actions[0]?.id}`,
    targets: [{ target: 'url' as const, constraint: { operator: 'matches', value } }],
    actions,
    status: 'active' as const,
    ...fields,
  });
  const wafOff = [{ id: 'waf', value: 'off' }];

  it('WAF off turns the previous WAF off on the matching URLs, naming the page rule', () => {
    const rules = [pageRule('shop.example.com/admin/*', wafOff)];
    expect(evaluatePreviousWaf({}, rules, union('/admin/x'))).toEqual({
      matched: [],
      trace: [],
      offBy: 'rule-shop.example.com/admin/*-waf',
    });
    expect(evaluatePreviousWaf({}, rules, union('/search')).action).toBe('block');
  });

  it('Disable Security does the same; a disabled page rule does nothing', () => {
    const security = [pageRule('*example.com/*', [{ id: 'disable_security' }])];
    expect(evaluatePreviousWaf({}, security, union()).offBy).toBe('rule-*example.com/*-disable_security');
    const disabled = [pageRule('*example.com/*', wafOff, { status: 'disabled' })];
    expect(evaluatePreviousWaf({}, disabled, union()).action).toBe('block');
  });

  it('WAF on turns it on where the zone has it disabled', () => {
    const rules = [pageRule('shop.example.com/checkout*', [{ id: 'waf', value: 'on' }])];
    expect(evaluatePreviousWaf({ enabled: false }, rules, union('/checkout')).action).toBe('block');
    expect(evaluatePreviousWaf({ enabled: false }, rules, union('/search')).action).toBeUndefined();
  });

  it('only the first matching page rule applies, by priority (the highest first)', () => {
    const cache = pageRule('shop.example.com/*', [{ id: 'cache_level', value: 'bypass' }], { priority: 2 });
    const off = pageRule('shop.example.com/*', wafOff, { priority: 1 });
    expect(evaluatePreviousWaf({}, [off, cache], union()).action).toBe('block');
    expect(evaluatePreviousWaf({}, [{ ...off, priority: 3 }, cache], union()).offBy).toBe(off.id);
  });

  it('take every operator of the API', () => {
    const target = (operator: string, value: string) => [
      { ...pageRule(value, wafOff), targets: [{ target: 'url' as const, constraint: { operator, value } }] },
    ];
    expect(evaluatePreviousWaf({}, target('contains', '/admin'), union('/admin/x')).offBy).toBeDefined();
    expect(evaluatePreviousWaf({}, target('not_contain', '/admin'), union('/admin/x')).offBy).toBeUndefined();
    expect(evaluatePreviousWaf({}, target('not_contain', '/admin'), union('/search')).offBy).toBeDefined();
    const url = `shop.example.com/search?q=${encodeURIComponent(UNION)}`;
    expect(evaluatePreviousWaf({}, target('equals', url), union()).offBy).toBeDefined();
    expect(evaluatePreviousWaf({}, target('not_equal', url), union()).offBy).toBeUndefined();
  });
});

describe('traditional allow rules', () => {
  // The shipped allow rule has no equivalent; a catalogue whose allow rule lets scanners through shows the
  // behaviour: it runs first and ends the stage without an action.
  const robots = ruleId('Let crawlers fetch robots.txt past the other rules');
  const scannerRule = cloudflareManagedRuleset.rules.find((rule) =>
    rule.description.toLowerCase().includes('scanner'),
  );
  const mapping = new Map(SHIPPED_CATALOGUE.mapping);
  mapping.set(robots, {
    kind: 'rules',
    rulesetId: CLOUDFLARE_MANAGED_RULESET_ID,
    ruleIds: [scannerRule?.id ?? ''],
  });
  const catalogue = { ...SHIPPED_CATALOGUE, mapping };
  const sqlmap = () =>
    get(`https://shop.example.com/search?q=${encodeURIComponent(UNION)}`, [
      ['Host', 'shop.example.com'],
      ['User-Agent', 'sqlmap/1.7.2#stable (https://sqlmap.org)'],
    ]);

  it('let a matching request through the rest of the WAF', () => {
    const outcome = evaluatePreviousWafWith(catalogue, {}, [], sqlmap());
    expect(outcome.action).toBeUndefined();
    expect(outcome.matched.map((rule) => rule.id)).toEqual([robots]);
    expect(ruleTrace(outcome.trace, CLOUDFLARE_PACKAGE_ID, robots)).toMatchObject({
      matched: true,
      terminated: true,
    });
    expect(ruleTrace(outcome.trace, CLOUDFLARE_PACKAGE_ID, SQLI_UNION)).toBeUndefined();
  });

  it('do nothing when off', () => {
    const outcome = evaluatePreviousWafWith(
      catalogue,
      { rules: [{ id: robots, mode: 'off' }] },
      [],
      sqlmap(),
    );
    expect(outcome.action).toBeDefined();
    expect(ruleTrace(outcome.trace, CLOUDFLARE_PACKAGE_ID, robots)?.notRun?.reason).toBe('disabled');
  });
});

describe('checkPreviousWaf', () => {
  it('accepts a valid configuration', () => {
    const config: PreviousWafEntry = {
      enabled: true,
      packages: [{ id: OWASP_PACKAGE_ID, sensitivity: 'medium', action_mode: 'block' }],
      groups: [{ id: SPECIALS, mode: 'off' }],
      rules: [
        { id: SQLI_UNION, mode: 'simulate' },
        { id: ruleId('Blind injection with delays'), mode: 'off' },
      ],
      overrides: [
        {
          urls: ['shop.example.com/*'],
          priority: 5,
          groups: { [SPECIALS]: 'default' },
          rules: { [MISSING_UA]: 'disable' },
          rewrite_action: { block: 'challenge' },
        },
      ],
    };
    const pages: PageRuleEntry[] = [
      {
        targets: [{ target: 'url', constraint: { operator: 'matches', value: '*.example.com/*' } }],
        actions: [
          { id: 'waf', value: 'off' },
          { id: 'cache_level', value: 'bypass' },
        ],
        priority: 2,
        status: 'active',
      },
    ];
    expect(checkPreviousWaf(config, pages)).toEqual([]);
    expect(checkPreviousWaf(undefined, undefined)).toEqual([]);
  });

  it('reports unknown ids, modes outside allowed_modes and bad settings with JSON pointers', () => {
    const config = {
      packages: [
        { id: CLOUDFLARE_PACKAGE_ID, sensitivity: 'high' },
        { id: OWASP_PACKAGE_ID, sensitivity: 'extreme', action_mode: 'log' },
        { id: 'nope' },
      ],
      groups: [
        { id: SPECIALS, mode: 'default' },
        { id: 'deadbeef', mode: 'on' },
      ],
      rules: [
        { id: SQLI_UNION, mode: 'on' },
        { id: ruleId('Blind injection with delays'), mode: 'block' },
        { id: SQLI_UNION, mode: 'block' },
      ],
      overrides: [
        {
          urls: ['shop example.com'],
          groups: { 'no/such': 'disable' },
          rules: { [SQLI_UNION]: 'log' },
          rewrite_action: { allow: 'block' },
          priority: 1.5,
        },
        { urls: [] },
      ],
    } as unknown as PreviousWafEntry;
    const problems = checkPreviousWaf(config, undefined);
    expect(problems.map((p) => [p.path, p.code])).toEqual([
      ['/previous_waf/packages/0/sensitivity', 'invalid-value'],
      ['/previous_waf/packages/1/sensitivity', 'invalid-value'],
      ['/previous_waf/packages/1/action_mode', 'invalid-value'],
      ['/previous_waf/packages/2/id', 'unknown-id'],
      ['/previous_waf/groups/0/mode', 'invalid-value'],
      ['/previous_waf/groups/1/id', 'unknown-id'],
      ['/previous_waf/rules/0/mode', 'invalid-value'],
      ['/previous_waf/rules/1/mode', 'invalid-value'],
      ['/previous_waf/rules/2/id', 'duplicate-id'],
      ['/previous_waf/overrides/0/urls/0', 'invalid-value'],
      ['/previous_waf/overrides/0/priority', 'invalid-value'],
      ['/previous_waf/overrides/0/groups/no~1such', 'unknown-id'],
      [`/previous_waf/overrides/0/rules/${SQLI_UNION}`, 'invalid-value'],
      ['/previous_waf/overrides/0/rewrite_action/allow', 'invalid-value'],
      ['/previous_waf/overrides/1/urls', 'invalid-value'],
    ]);
    expect(problems[4]?.message).toBe(`the mode of group ${SPECIALS} must be one of on, off; got "default"`);
    expect(problems[7]?.message).toContain('must be one of on, off');
  });

  it('reports page rules the API would refuse', () => {
    const pages = [
      {
        targets: [{ target: 'url', constraint: { operator: 'like', value: '' } }],
        actions: [
          { id: 'waf', value: 'maybe' },
          { id: 'disable_security', value: true },
        ],
        status: 'paused',
        priority: 0,
      },
      { targets: [], actions: [] },
    ] as unknown as PageRuleEntry[];
    expect(checkPreviousWaf(undefined, pages).map((p) => [p.path, p.code])).toEqual([
      ['/page_rules/0/targets/0/constraint/operator', 'invalid-value'],
      ['/page_rules/0/targets/0/constraint/value', 'invalid-value'],
      ['/page_rules/0/actions/0/value', 'invalid-value'],
      ['/page_rules/0/actions/1/value', 'invalid-value'],
      ['/page_rules/0/status', 'invalid-value'],
      ['/page_rules/0/priority', 'invalid-value'],
      ['/page_rules/1/targets', 'invalid-value'],
    ]);
  });
});
