import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  compileZone,
  formatTrace,
  readZone,
  type SimulationResult,
  simulate,
  ZoneError,
} from '../../../src/engine/index.js';
import { cloudflareManagedRuleIds } from '../../../src/engine/managed/catalogue.js';
import { readSampleRequest, type SampleRequest } from '../../../src/request/index.js';

// What a zone does to a request, one semantic rule per test (docs/engine.md, "How a request is evaluated").

const CLOUDFLARE_MANAGED = 'efb7b8c949ac4650a09736fc376e9aee';
const OWASP = '4814384a9e5d4991b9815dcfc25d2f1f';
const ANOMALY_RULE = '6179ae15870a4bb7b2d480d4843b323c';
// The Managed Ruleset's rule that blocks a UNION injection (it shares the detection of OWASP rule 942360).
const SQLI_UNION = cloudflareManagedRuleIds.get('owasp-942360') as string;
const SQLI_CONDITIONAL_PROBE = '7923fe01cd9987338733766bfbf142c8';

function request(json: Record<string, unknown>): SampleRequest {
  const read = readSampleRequest({
    method: 'GET',
    headers: [['User-Agent', 'Mozilla/5.0 (X11; Linux x86_64)']],
    ...json,
  });
  if (!read.ok) throw new Error(JSON.stringify(read.problems));
  return read.request;
}

const home = request({ url: 'https://example.com/' });
const admin = request({ url: 'https://example.com/admin' });
const sqli = request({ url: 'https://example.com/p?id=1%20UNION%20SELECT%20password%20FROM%20users' });

let next = 0;
const rule = (ref: string, action: string, expression: string, extra: Record<string, unknown> = {}) => ({
  id: `f${String(++next).padStart(31, '0')}`,
  ref,
  action,
  filter: { expression },
  ...extra,
});
const entryPoint = (
  phase: string,
  rules: Record<string, unknown>[],
  id = `e${phase.length}${'0'.repeat(30)}`,
) => ({
  id: id.slice(0, 32),
  kind: 'zone',
  phase,
  rules,
});
const custom = (rules: Record<string, unknown>[]) => entryPoint('http_request_firewall_custom', rules);
const managed = (rules: Record<string, unknown>[]) => entryPoint('http_request_firewall_managed', rules);
const executeManaged = (ref: string, id: string, overrides?: Record<string, unknown>) => ({
  ref,
  action: 'execute',
  expression: 'true',
  action_parameters: { id, ...(overrides ? { overrides } : {}) },
});

/** A rule of a ruleset stage's entry point, as traced (an execute rule holds its nested rulesets). */
function entry<T>(result: SimulationResult, stage: number, index: number): T {
  const entryPoint = result.trace[stage]?.trace[0];
  const item = entryPoint?.type === 'ruleset' ? entryPoint.trace[index] : undefined;
  if (!item) throw new Error(`no trace entry ${stage}/${index}`);
  return item as T;
}

const refs = (result: SimulationResult) => result.matched.map((name) => name.ref ?? name.id);

describe('firewall rules', () => {
  it('run by priority, rules without one last', () => {
    const zone = {
      firewall_rules: [
        rule('unprioritised', 'block', 'true'),
        rule('second', 'log', 'true', { priority: 20 }),
        rule('first', 'log', 'true', { priority: 10 }),
      ],
    };
    expect(refs(simulate(zone, home))).toEqual(['first', 'second', 'unprioritised']);
  });

  it('break ties by action precedence: log, bypass, allow, challenges, block', () => {
    const zone = {
      firewall_rules: [
        rule('block', 'block', 'true', { priority: 1 }),
        rule('allow', 'allow', 'true', { priority: 1 }),
        rule('log', 'log', 'true', { priority: 1 }),
        rule('bypass', 'bypass', 'true', { priority: 1, products: ['zoneLockdown'] }),
      ],
    };
    const result = simulate(zone, home);
    expect(refs(result)).toEqual(['log', 'bypass', 'allow']);
    expect(result).toMatchObject({ action: 'allow', decidedBy: { ref: 'allow' } });
  });

  it('a paused rule, or a rule with a paused filter, never fires', () => {
    const zone = {
      firewall_rules: [
        rule('paused', 'block', 'true', { paused: true }),
        { ...rule('paused-filter', 'block', 'true'), filter: { expression: 'true', paused: true } },
      ],
    };
    const result = simulate(zone, home);
    expect(result.action).toBe('none');
    expect(result.trace[0]?.trace).toMatchObject([
      { ref: 'paused', matched: false, notRun: { reason: 'paused' } },
      { ref: 'paused-filter', matched: false, notRun: { reason: 'paused' } },
    ]);
  });

  it('log and bypass go on; the next matching rule decides', () => {
    const zone = {
      firewall_rules: [
        rule('log', 'log', 'true', { priority: 1 }),
        rule('bypass', 'bypass', 'true', { priority: 2, products: ['securityLevel'] }),
        rule('challenge', 'managed_challenge', 'true', { priority: 3 }),
      ],
    };
    expect(simulate(zone, home)).toMatchObject({
      action: 'managed_challenge',
      decidedBy: { ref: 'challenge' },
    });
  });

  it('bypass products are skipped; waf skips the previous WAF', () => {
    const zone = {
      firewall_rules: [rule('bypass', 'bypass', 'true', { products: ['waf', 'rateLimit'] })],
      previous_waf: {},
    };
    const result = simulate(zone, sqli);
    expect(result.skipped.map((s) => s.target)).toEqual(['waf', 'rateLimit']);
    expect(result.trace.find((stage) => stage.name === 'previous_waf')).toMatchObject({
      status: 'skipped',
      skippedBy: { ref: 'bypass' },
    });
    expect(result.action).toBe('none');
    // Without the bypass, the previous WAF blocks the injection.
    expect(simulate({ previous_waf: {} }, sqli).action).not.toBe('none');
  });

  it('a block ends the request: later stages are not reached', () => {
    const zone = {
      firewall_rules: [rule('block', 'block', 'true', { priority: 1 }), rule('after', 'log', 'true')],
      rulesets: [custom([{ ref: 'custom-log', action: 'log', expression: 'true' }])],
    };
    const result = simulate(zone, home);
    expect(refs(result)).toEqual(['block']);
    expect(result.trace.map((stage) => [stage.name, stage.status])).toEqual([
      ['firewall_rules', 'evaluated'],
      ['http_request_firewall_custom', 'not_reached'],
      ['http_ratelimit', 'off'],
      ['http_request_firewall_managed', 'off'],
      ['previous_waf', 'off'],
    ]);
  });

  it('allow ends the firewall rules only: the WAF still blocks', () => {
    const zone = {
      firewall_rules: [rule('allow', 'allow', 'true'), rule('after', 'block', 'true')],
      rulesets: [managed([executeManaged('managed', CLOUDFLARE_MANAGED)])],
    };
    expect(simulate(zone, home)).toMatchObject({ action: 'allow', decidedBy: { ref: 'allow' } });
    expect(simulate(zone, sqli)).toMatchObject({ action: 'block', decidedBy: { id: SQLI_UNION } });
    expect(refs(simulate(zone, home))).not.toContain('after');
  });
});

describe('rulesets', () => {
  it('run in order; a disabled rule never fires; log goes on; block ends the request', () => {
    const zone = {
      rulesets: [
        custom([
          { ref: 'off', action: 'block', expression: 'true', enabled: false },
          { ref: 'log', action: 'log', expression: 'true' },
          { ref: 'block', action: 'block', expression: 'true' },
          { ref: 'never', action: 'log', expression: 'true' },
        ]),
      ],
    };
    const result = simulate(zone, home);
    expect(refs(result)).toEqual(['log', 'block']);
    expect(entry(result, 1, 0)).toMatchObject({ ref: 'off', notRun: { reason: 'disabled' } });
    expect(result.trace[1]?.trace).toMatchObject([{ type: 'ruleset', trace: { length: 3 } }]);
  });

  it('a URL rewrite changes the path the custom rules see; raw fields keep the path as sent', () => {
    const zone = {
      rulesets: [
        entryPoint('http_request_transform', [
          {
            ref: 'rewrite',
            action: 'rewrite',
            expression: 'http.request.uri.path eq "/"',
            action_parameters: { uri: { path: { value: '/admin' } } },
          },
        ]),
        custom([
          {
            ref: 'block',
            action: 'block',
            expression: 'http.request.uri.path eq "/admin" and raw.http.request.uri.path eq "/"',
          },
        ]),
      ],
    };
    const compiled = compileZone(zone);
    if (!compiled.ok) throw new Error(JSON.stringify(compiled.problems));
    expect(compiled.warnings).toEqual([]);
    const result = compiled.zone.simulate(home);
    expect(result).toMatchObject({ action: 'block', rewritten: { path: '/admin' } });
    expect(result.trace[0]).toMatchObject({
      name: 'http_request_transform',
      trace: [{ trace: [{ changes: [{ target: 'http.request.uri.path', before: '/', after: '/admin' }] }] }],
    });
    // Sent as /admin, the request is not rewritten, and its raw path is not "/".
    const sentAsAdmin = compiled.zone.simulate(admin);
    expect(sentAsAdmin.action).toBe('none');
    expect(sentAsAdmin.rewritten).toBeUndefined();
  });

  it('skip the current ruleset', () => {
    const zone = {
      rulesets: [
        custom([
          {
            ref: 'skip',
            action: 'skip',
            expression: 'starts_with(http.request.uri.path, "/admin")',
            action_parameters: { ruleset: 'current' },
          },
          { ref: 'block', action: 'block', expression: 'true' },
        ]),
      ],
    };
    expect(simulate(zone, admin)).toMatchObject({ action: 'none', matched: [{ ref: 'skip' }] });
    expect(simulate(zone, home)).toMatchObject({ action: 'block', decidedBy: { ref: 'block' } });
  });

  it('skip later phases', () => {
    const zone = {
      rulesets: [
        custom([
          {
            ref: 'skip',
            action: 'skip',
            expression: 'true',
            action_parameters: { phases: ['http_request_firewall_managed'] },
          },
        ]),
        managed([executeManaged('managed', CLOUDFLARE_MANAGED)]),
      ],
    };
    const result = simulate(zone, sqli);
    expect(result.action).toBe('none');
    expect(result.trace[3]).toMatchObject({
      name: 'http_request_firewall_managed',
      status: 'skipped',
      skippedBy: { ref: 'skip' },
    });
  });

  it('skip products: waf skips the previous WAF', () => {
    const zone = {
      rulesets: [
        custom([
          { ref: 'skip', action: 'skip', expression: 'true', action_parameters: { products: ['waf'] } },
        ]),
      ],
      previous_waf: {},
    };
    expect(simulate(zone, sqli).action).toBe('none');
  });

  it('skip managed rulesets, or some of their rules, in the managed phase', () => {
    const skipRuleset = {
      rulesets: [
        managed([
          {
            ref: 'skip',
            action: 'skip',
            expression: 'true',
            action_parameters: { rulesets: [CLOUDFLARE_MANAGED] },
          },
          executeManaged('managed', CLOUDFLARE_MANAGED),
        ]),
      ],
    };
    const skipped = simulate(skipRuleset, sqli);
    expect(skipped.action).toBe('none');
    expect(entry(skipped, 3, 1)).toMatchObject({
      ref: 'managed',
      notRun: { reason: 'skipped', by: { ref: 'skip' } },
    });

    const skipRule = {
      rulesets: [
        managed([
          {
            ref: 'skip',
            action: 'skip',
            expression: 'true',
            action_parameters: { rules: { [CLOUDFLARE_MANAGED]: [SQLI_UNION] } },
          },
          executeManaged('managed', CLOUDFLARE_MANAGED),
        ]),
      ],
    };
    const result = simulate(skipRule, sqli);
    expect(result.decidedBy?.id).not.toBe(SQLI_UNION);
    const nested = entry<{ trace: { trace: { id: string; notRun?: unknown }[] }[] }>(result, 3, 1).trace[0]
      ?.trace;
    expect(nested?.find((r) => r.id === SQLI_UNION)).toMatchObject({ notRun: { reason: 'skipped' } });
  });

  it('execute runs a custom ruleset of the zone file, nested in the trace', () => {
    const zone = {
      rulesets: [
        custom([
          {
            ref: 'run-it',
            action: 'execute',
            expression: 'true',
            action_parameters: { id: 'c0000000000000000000000000000001' },
          },
        ]),
        {
          id: 'c0000000000000000000000000000001',
          kind: 'custom',
          phase: 'http_request_firewall_custom',
          rules: [{ ref: 'inner', action: 'block', expression: 'true' }],
        },
      ],
    };
    const result = simulate(zone, home);
    expect(result).toMatchObject({ action: 'block', decidedBy: { ref: 'inner' } });
    expect(refs(result)).toEqual(['run-it', 'inner']);
    expect(entry(result, 1, 0)).toMatchObject({
      ref: 'run-it',
      trace: [
        {
          type: 'ruleset',
          id: 'c0000000000000000000000000000001',
          trace: [{ ref: 'inner', terminated: true }],
        },
      ],
    });
  });

  it('execute runs a managed ruleset with its overrides: ruleset < category < rule', () => {
    const zoneWith = (overrides: Record<string, unknown>) => ({
      rulesets: [managed([executeManaged('m', CLOUDFLARE_MANAGED, overrides)])],
    });
    expect(simulate(zoneWith({}), sqli)).toMatchObject({ action: 'block', decidedBy: { id: SQLI_UNION } });
    expect(simulate(zoneWith({ action: 'log' }), sqli).action).toBe('none');
    expect(
      simulate(
        zoneWith({ action: 'log', categories: [{ category: 'sqli', action: 'managed_challenge' }] }),
        sqli,
      ).action,
    ).toBe('managed_challenge');
    expect(
      simulate(
        zoneWith({
          categories: [{ category: 'sqli', action: 'log' }],
          rules: [{ id: SQLI_UNION, action: 'js_challenge' }],
        }),
        sqli,
      ),
    ).toMatchObject({
      action: 'js_challenge',
      decidedBy: { id: SQLI_UNION },
    });
    expect(simulate(zoneWith({ enabled: false }), sqli).action).toBe('none');
    expect(
      simulate(zoneWith({ enabled: false, rules: [{ id: SQLI_UNION, enabled: true }] }), sqli).decidedBy?.id,
    ).toBe(SQLI_UNION);
    // A rule's own default: the conditional probe logs unless overridden.
    const probe = request({ url: 'https://example.com/p?id=1%20AND%201=1' });
    const withProbe = simulate(zoneWith({ rules: [{ id: SQLI_CONDITIONAL_PROBE, action: 'block' }] }), probe);
    const without = simulate(zoneWith({}), probe);
    if (without.matched.some((name) => name.id === SQLI_CONDITIONAL_PROBE)) {
      expect(withProbe.action).toBe('block');
    }
  });

  it('OWASP: matching rules add their scores; the anomaly rule fires at its threshold', () => {
    const owasp = (threshold: number, extra: Record<string, unknown> = {}) => ({
      rulesets: [
        managed([
          executeManaged('owasp', OWASP, {
            rules: [{ id: ANOMALY_RULE, score_threshold: threshold }],
            ...extra,
          }),
        ]),
      ],
    });
    const low = simulate(owasp(1000), sqli);
    const ruleset = entry<{ trace: { score: number; trace: { score?: number }[] }[] }>(low, 3, 0).trace[0];
    const total = ruleset?.trace.reduce((sum, r) => sum + (r.score ?? 0), 0);
    expect(total).toBeGreaterThan(0);
    expect(ruleset?.score).toBe(total);
    expect(low.action).toBe('none');
    const exact = simulate(owasp(total as number), sqli);
    expect(exact).toMatchObject({ action: 'block', decidedBy: { id: ANOMALY_RULE } });
    expect(
      simulate(
        owasp(total as number, {
          rules: [{ id: ANOMALY_RULE, score_threshold: total, action: 'managed_challenge' }],
        }),
        sqli,
      ).action,
    ).toBe('managed_challenge');
  });

  it('OWASP: paranoia levels are turned off by their categories', () => {
    const at = (levels: number[]) =>
      simulate(
        {
          rulesets: [
            managed([
              executeManaged('owasp', OWASP, {
                categories: levels.map((level) => ({ category: `paranoia-level-${level}`, enabled: false })),
                rules: [{ id: ANOMALY_RULE, score_threshold: 1000 }],
              }),
            ]),
          ],
        },
        sqli,
      );
    const score = (result: SimulationResult) =>
      entry<{ trace: { score: number }[] }>(result, 3, 0).trace[0]?.score ?? 0;
    expect(score(at([2, 3, 4]))).toBeLessThanOrEqual(score(at([3, 4])));
    const pl1 = entry<{ trace: { trace: { notRun?: { reason: string } }[] }[] }>(at([2, 3, 4]), 3, 0).trace[0]
      ?.trace;
    expect(pl1?.some((r) => r.notRun?.reason === 'below_paranoia_level')).toBe(true);
  });

  it('rate limiting rules show that they match and never decide', () => {
    const zone = {
      rulesets: [entryPoint('http_ratelimit', [{ ref: 'limit', action: 'block', expression: 'true' }])],
    };
    const result = simulate(zone, home);
    expect(result).toMatchObject({ action: 'none', matched: [{ ref: 'limit' }] });
    expect(entry(result, 2, 0)).toMatchObject({ ref: 'limit', matched: true, action: 'block' });
  });
});

describe('the migration from the previous WAF', () => {
  const zone = (migration?: Record<string, unknown>) => ({
    rulesets: [managed([executeManaged('new', CLOUDFLARE_MANAGED, { action: 'managed_challenge' })])],
    previous_waf: {},
    ...(migration ? { waf_migration: migration } : {}),
  });
  const stages = (result: SimulationResult) =>
    Object.fromEntries(result.trace.map((stage) => [stage.name, stage.status]));

  it('before: only the previous WAF when the new one is not enabled', () => {
    const result = simulate(zone({ old_waf_status: 'enabled', new_waf_status: 'disabled' }), sqli);
    expect(stages(result)).toMatchObject({ http_request_firewall_managed: 'off', previous_waf: 'evaluated' });
    expect(result.decidedBy?.stage).toBe('previous_waf');
  });

  it('validation mode: both, the new WAF first', () => {
    const result = simulate(zone({ old_waf_status: 'enabled', new_waf_status: 'enabled' }), sqli);
    expect(result).toMatchObject({
      action: 'managed_challenge',
      decidedBy: { stage: 'http_request_firewall_managed' },
    });
    expect(stages(result).previous_waf).toBe('not_reached');
    const benign = simulate(zone({ old_waf_status: 'enabled', new_waf_status: 'enabled' }), home);
    expect(stages(benign)).toMatchObject({
      http_request_firewall_managed: 'evaluated',
      previous_waf: 'evaluated',
    });
  });

  it('after: only the new WAF', () => {
    const result = simulate(zone({ old_waf_status: 'disabled', new_waf_status: 'enabled' }), sqli);
    expect(stages(result)).toMatchObject({ http_request_firewall_managed: 'evaluated', previous_waf: 'off' });
  });
});

describe('results and traces', () => {
  const zone = {
    firewall_rules: [
      rule('log', 'log', 'true'),
      rule('admin', 'block', 'starts_with(http.request.uri.path, "/admin")'),
    ],
    rulesets: [managed([executeManaged('managed', CLOUDFLARE_MANAGED)])],
  };

  it('give every rule considered with its expression, action and whether it ended evaluation', () => {
    const result = simulate(zone, admin);
    expect(result.trace[0]).toEqual({
      type: 'stage',
      name: 'firewall_rules',
      status: 'evaluated',
      trace: [
        {
          type: 'rule',
          id: expect.any(String),
          ref: 'log',
          expression: 'true',
          action: 'log',
          matched: true,
        },
        {
          type: 'rule',
          id: expect.any(String),
          ref: 'admin',
          expression: 'starts_with(http.request.uri.path, "/admin")',
          action: 'block',
          matched: true,
          terminated: true,
        },
      ],
    });
  });

  it('decide the same without a trace', () => {
    const compiled = compileZone(zone);
    if (!compiled.ok) throw new Error('zone');
    for (const input of [home, admin, sqli]) {
      const full = compiled.zone.simulate(input);
      const lean = compiled.zone.simulate(input, { trace: false });
      expect(lean.trace).toEqual([]);
      expect({ ...lean, trace: [] }).toEqual({ ...full, trace: [] });
    }
  });

  it('read as a tree', () => {
    const tree = formatTrace(simulate(zone, admin));
    expect(tree).toContain('✓ admin (block) → ended the evaluation');
    expect(tree).toContain('http_request_firewall_managed: not reached');
    expect(tree.split('\n').at(-1)).toBe('Result: block by admin (firewall_rules)');
    expect(formatTrace(simulate(zone, home)).split('\n').at(-1)).toBe(
      'Result: none: no rule decided (the request goes on)',
    );
  });

  it('list every managed rule as a rule of the zone, once per execute rule', () => {
    const compiled = compileZone(zone);
    if (!compiled.ok) throw new Error('zone');
    expect(compiled.zone.rules.length).toBe(compiled.zone.filters.length);
    expect(compiled.zone.rules.filter((name) => name.id === SQLI_UNION)).toHaveLength(1);
  });
});

describe('zone files that cannot be simulated', () => {
  const problems = (zone: unknown) => {
    const result = compileZone(zone);
    return result.ok ? [] : result.problems.map((p) => [p.path, p.code]);
  };

  it('report unknown keys, bad values and missing members with their JSON pointers', () => {
    expect(problems({ firewal_rules: [] })).toEqual([['/firewal_rules', 'unknown-key']]);
    expect(
      problems({ firewall_rules: [{ action: 'deny', filter: { expression: 'true' }, fitler: 1 }] }),
    ).toEqual([
      ['/firewall_rules/0/action', 'invalid-value'],
      ['/firewall_rules/0/fitler', 'unknown-key'],
    ]);
    expect(
      problems({ rulesets: [{ id: 'x', kind: 'zone', phase: 'http_request_firewall_custom' }] }),
    ).toEqual([['/rulesets/0/rules', 'missing-key']]);
    expect(problems({ plan: 'gold' })).toEqual([['/plan', 'invalid-value']]);
  });

  it('report invalid expressions with Cloudflare’s error text, in the zone’s plan', () => {
    const result = compileZone({ firewall_rules: [rule('r', 'block', 'http.host eq')] });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.problems[0]).toMatchObject({
        path: '/firewall_rules/0/filter/expression',
        code: 'invalid-expression',
      });
      expect(result.problems[0]?.message).toMatch(/^Filter parsing error \(1:13\):/);
    }
    expect(problems({ plan: 'free', firewall_rules: [rule('r', 'block', 'http.host matches "x"')] })).toEqual(
      [['/firewall_rules/0/filter/expression', 'invalid-expression']],
    );
  });

  it('report what execute and skip name, actions a phase does not allow, duplicates', () => {
    expect(
      problems({ rulesets: [managed([executeManaged('x', 'ffffffffffffffffffffffffffffffff')])] }),
    ).toEqual([['/rulesets/0/rules/0/action_parameters/id', 'unknown-ruleset']]);
    expect(
      problems({
        rulesets: [
          managed([executeManaged('x', CLOUDFLARE_MANAGED, { rules: [{ id: 'nope', action: 'log' }] })]),
        ],
      }),
    ).toEqual([['/rulesets/0/rules/0/action_parameters/overrides/rules/0/id', 'unknown-rule']]);
    expect(problems({ rulesets: [managed([{ action: 'block', expression: 'true' }])] })).toEqual([
      ['/rulesets/0/rules/0/action', 'invalid-value'],
    ]);
    const twice = rule('a', 'log', 'true');
    expect(problems({ firewall_rules: [twice, twice] })).toEqual([['/firewall_rules/1/id', 'duplicate-id']]);
    expect(problems({ rulesets: [custom([]), custom([])].map((r, i) => ({ ...r, id: `${i}` })) })).toEqual([
      ['/rulesets/1/phase', 'duplicate-entry-point'],
    ]);
    const second = {
      ...custom([twice].map(() => ({ id: 'r1', action: 'log', expression: 'true' }))),
      id: 'second',
    };
    const first = { ...custom([{ id: 'r1', action: 'log', expression: 'true' }]), id: 'first' };
    expect(problems({ rulesets: [first, second] })).toEqual([
      ['/rulesets/1/phase', 'duplicate-entry-point'],
      ['/rulesets/1/rules/0/id', 'duplicate-id'],
    ]);
    expect(
      problems({
        rulesets: [
          managed([
            { action: 'skip', expression: 'true', action_parameters: { phases: ['http_ratelimit'] } },
          ]),
        ],
      }),
    ).toEqual([['/rulesets/0/rules/0/action_parameters/phases', 'unknown-key']]);
    const cycle = {
      id: 'c1',
      kind: 'custom',
      phase: 'http_request_firewall_custom',
      rules: [{ action: 'execute', expression: 'true', action_parameters: { id: 'c1' } }],
    };
    expect(problems({ rulesets: [cycle] })).toEqual([
      ['/rulesets/0/rules/0/action_parameters/id', 'execute-cycle'],
    ]);
  });

  it('simulate throws ZoneError with the problems', () => {
    expect(() => simulate({ plan: 'gold' }, home)).toThrow(ZoneError);
    expect(readZone({ plan: 'pro' })).toEqual({ ok: true, zone: { plan: 'pro' } });
  });

  it('never throws anything but problems on arbitrary JSON', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (json) => {
        const result = compileZone(json);
        if (!result.ok) expect(result.problems.length).toBeGreaterThan(0);
      }),
      { numRuns: 300 },
    );
    const zoneLike = fc.record({
      firewall_rules: fc.array(
        fc.record({
          action: fc.constantFrom('block', 'log', 'x'),
          filter: fc.record({ expression: fc.string() }),
        }),
        { maxLength: 3 },
      ),
      rulesets: fc.array(
        fc.record({
          id: fc.string(),
          kind: fc.constantFrom('zone', 'custom'),
          phase: fc.constantFrom('http_request_firewall_custom', 'http_request_firewall_managed'),
          rules: fc.array(
            fc.record({
              action: fc.constantFrom('execute', 'skip', 'block'),
              expression: fc.constantFrom('true', 'ip.src in {10.0.0.0/8}'),
              action_parameters: fc.jsonValue(),
            }),
            { maxLength: 3 },
          ),
        }),
        { maxLength: 3 },
      ),
    });
    fc.assert(
      fc.property(zoneLike, (json) => {
        const result = compileZone(json);
        if (result.ok) result.zone.simulate(home);
      }),
      { numRuns: 300 },
    );
  });
});
