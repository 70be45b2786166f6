// src/service/rules/check.ts: a rule object checked without a store, by the readers the services use. Each
// problem is compared with what the service answers for the same object, so that `cfrules validate` and
// `cfrules serve` cannot drift apart.
import { describe, expect, it } from 'vitest';
import type { Plan } from '../../src/scheme/profile.js';
import { CODES } from '../../src/service/errors.js';
import {
  checkRuleObject,
  type RuleObjectContext,
  type RuleObjectKind,
  type RuleProblem,
} from '../../src/service/rules/check.js';
import { RulesetService } from '../../src/service/rulesets/service.js';
import { failure, setup } from './fixtures.js';

const CUSTOM = 'http_request_firewall_custom';

/** The problem of `value`, element 0 of a list at the root, as checkRuleObject reports it. */
const check = (kind: RuleObjectKind, value: unknown, context: Partial<RuleObjectContext> = {}) =>
  checkRuleObject(kind, value, { plan: 'free', pointer: '/0', index: 0, ...context });

/** The API's message for a problem. */
const asApiMessage = (problem: RuleProblem | undefined) =>
  problem && { code: problem.apiCode, message: problem.message, source: { pointer: problem.pointer } };

/** What the services answer when asked to create the object on a zone of `plan`. */
async function serviceAnswer(kind: RuleObjectKind, value: unknown, plan: Plan = 'free') {
  const { zone, filters, rules, store } = await setup(plan);
  if (kind === 'filter') return (await failure(() => filters.create(zone, [value]))).errors[0];
  if (kind === 'firewall-rule') return (await failure(() => rules.create(zone, [value]))).errors[0];
  const rulesets = new RulesetService(store, () => undefined);
  const answer = (await failure(() => rulesets.putEntryPoint(zone, CUSTOM, { rules: [value] }))).errors[0];
  // The entry point's body has the rules under /rules; the check was given the rule at /0.
  return { ...answer, source: { pointer: answer?.source?.pointer?.replace(/^\/rules/, '') ?? '' } };
}

describe('checkRuleObject: firewall rules', () => {
  const rule = (fields: Record<string, unknown>) => ({
    filter: { id: '372e67954025e0ba6aaa6d586b9e0b59' },
    action: 'block',
    ...fields,
  });

  it('accepts a valid rule, with a filter by id or inline', () => {
    expect(check('firewall-rule', rule({ priority: 3, description: 'ok' }))).toBeUndefined();
    expect(check('firewall-rule', rule({ filter: { expression: 'ssl' } }))).toBeUndefined();
  });

  it.each([
    ['log on Free', { action: 'log' }, 'action-not-entitled', CODES.actionNotEntitled, '/0/action'],
    ['an unknown action', { action: 'blokk' }, 'invalid-action', CODES.invalidRule, '/0/action'],
    ['bypass without products', { action: 'bypass' }, 'products-required', CODES.invalidRule, '/0/products'],
    [
      'products without bypass',
      { products: ['waf'] },
      'products-without-bypass',
      CODES.invalidRule,
      '/0/products',
    ],
    [
      'an unknown product',
      { action: 'bypass', products: ['wafx'] },
      'invalid-products',
      CODES.invalidRule,
      '/0/products/0',
    ],
    ['a priority out of range', { priority: -1 }, 'invalid-priority', CODES.invalidRule, '/0/priority'],
    ['a misspelt member', { descripton: 'd' }, 'unknown-member', CODES.invalidRule, '/0/descripton'],
    [
      'a misspelt member of its inline filter',
      { filter: { expression: 'ssl', pased: true } },
      'unknown-member',
      CODES.invalidInlineFilter,
      '/0/filter/pased',
    ],
    ['paused as a string', { paused: 'no' }, 'invalid-paused', CODES.invalidRule, '/0/paused'],
    [
      'a description too long',
      { description: 'd'.repeat(501) },
      'invalid-description',
      CODES.invalidRule,
      '/0/description',
    ],
  ])('reports %s as the API does', async (_, fields, code, apiCode, pointer) => {
    const value = rule({ filter: { expression: 'ssl' }, ...fields });
    const problem = check('firewall-rule', value);
    expect(problem).toMatchObject({ code, apiCode, pointer });
    expect(asApiMessage(problem)).toEqual(await serviceAnswer('firewall-rule', value));
  });

  it('checks an inline filter as the API does (10202, "filter at index N"), but not its expression', () => {
    const value = rule({ filter: { expression: 'not valid ((', ref: 'r'.repeat(51) } });
    const problem = check('firewall-rule', value, { index: 2, pointer: '/2' });
    expect(problem).toMatchObject({
      code: 'invalid-filter',
      apiCode: CODES.invalidInlineFilter,
      pointer: '/2/filter/ref',
      message: 'filter at index 2: ref must be a string of at most 50 characters',
    });
    // The expression is the caller's to check, with its own findings: alone, it is no problem here.
    expect(check('firewall-rule', rule({ filter: { expression: 'not valid ((' } }))).toBeUndefined();
    expect(check('firewall-rule', rule({ filter: { expression: '' } }))?.message).toBe(
      'filter at index 0: expression is required: a non-empty string',
    );
  });

  it('names the value it refuses among a fixed set', () => {
    expect(check('firewall-rule', rule({ action: 'blokk' }))?.message).toBe(
      'action "blokk" must be one of block, challenge, js_challenge, managed_challenge, allow, log, bypass',
    );
    expect(check('firewall-rule', rule({ action: 7 }))?.message).toBe(
      'action 7 must be one of block, challenge, js_challenge, managed_challenge, allow, log, bypass',
    );
    expect(check('firewall-rule', rule({ action: 'bypass', products: ['waff'] }))?.message).toBe(
      'products must only contain zoneLockdown, uaBlock, bic, hot, securityLevel, rateLimit, waf, not "waff"',
    );
  });

  it('lets Enterprise use log, and points below the object it was given', () => {
    expect(check('firewall-rule', rule({ action: 'log' }), { plan: 'enterprise' })).toBeUndefined();
    expect(check('firewall-rule', rule({ action: 'blokk' }), { pointer: '/result/7' })?.pointer).toBe(
      '/result/7/action',
    );
  });
});

describe('checkRuleObject: filters', () => {
  it('accepts a filter as GET returns it, and reports bad fields as the Filters API does', async () => {
    const filter = {
      id: 'ee6bd6e5f64e4a2c9a8e4f36e6ab36a5',
      expression: 'ssl',
      paused: false,
      created_on: 'x',
    };
    expect(check('filter', filter)).toBeUndefined();
    const value = { expression: 'ssl', description: 'd'.repeat(501) };
    const problem = check('filter', value);
    expect(problem).toMatchObject({ code: 'invalid-description', apiCode: CODES.invalidFilter });
    expect(asApiMessage(problem)).toEqual(await serviceAnswer('filter', value));
  });

  it('calls a misspelt member unknown-member, as for rules of either kind', async () => {
    const value = { expression: 'ssl', descripton: 'd' };
    const problem = check('filter', value);
    expect(problem).toMatchObject({
      code: 'unknown-member',
      apiCode: CODES.invalidFilter,
      pointer: '/0/descripton',
    });
    expect(asApiMessage(problem)).toEqual(await serviceAnswer('filter', value));
  });
});

describe('checkRuleObject: ruleset rules', () => {
  const context = { phase: CUSTOM, plan: 'enterprise' as Plan };

  it('accepts a rule as GET returns it (id, version, ref, last_updated)', () => {
    const rule = {
      id: 'f1c2a3b4c5d6e7f8a9b0c1d2e3f4a5b6',
      version: '1',
      ref: 'block-admin',
      action: 'block',
      expression: 'ssl',
      enabled: true,
      last_updated: '2024-03-01T10:20:44.124515Z',
    };
    expect(check('ruleset-rule', rule, context)).toBeUndefined();
  });

  it.each([
    [
      'an action the phase does not allow',
      { action: 'execute', action_parameters: { id: 'x' } },
      'action-not-in-phase',
      CODES.invalidRulesetValue,
      '/0/action',
    ],
    ['log below Enterprise', { action: 'log' }, 'action-not-entitled', CODES.rulesetNotEntitled, '/0/action'],
    [
      'an unknown member',
      { action: 'block', enable: true },
      'unknown-member',
      CODES.invalidRulesetValue,
      '/0/enable',
    ],
    [
      'parameters the action does not take',
      { action: 'challenge', action_parameters: { id: 'x' } },
      'unknown-member',
      CODES.invalidRulesetValue,
      '/0/action_parameters/id',
    ],
    [
      'a skip that skips nothing',
      { action: 'skip', action_parameters: {} },
      'invalid-action-parameters',
      CODES.invalidRulesetValue,
      '/0/action_parameters',
    ],
  ])('reports %s as the API does', async (_, fields, code, apiCode, pointer) => {
    const value = { expression: 'ssl', ...fields };
    const problem = check('ruleset-rule', value, { ...context, plan: 'business' });
    expect(problem).toMatchObject({ code, apiCode, pointer });
    expect(asApiMessage(problem)).toEqual(await serviceAnswer('ruleset-rule', value, 'business'));
  });

  it('leaves the expression to the caller, and rules of phases the API does not serve unchecked', () => {
    expect(check('ruleset-rule', { action: 'block', expression: 'ssl and' }, context)).toBeUndefined();
    const rewrite = { action: 'rewrite', expression: 'ssl' };
    expect(check('ruleset-rule', rewrite, { phase: 'ddos_l7' })).toBeUndefined();
    expect(check('ruleset-rule', rewrite, {})).toBeUndefined();
    // A rewrite is an action of the Rules products' phases, not of the custom rules'.
    expect(check('ruleset-rule', rewrite, context)?.code).toBe('action-not-in-phase');
  });

  it("checks the Rules products' rules, their parameters included, leaving expressions to the caller", () => {
    const phase = { phase: 'http_request_transform' };
    const rewrite = (parameters: unknown) => ({
      action: 'rewrite',
      expression: 'true',
      action_parameters: parameters,
    });
    expect(
      check('ruleset-rule', rewrite({ uri: { path: { expression: 'concat(' } } }), phase),
    ).toBeUndefined();
    expect(check('ruleset-rule', rewrite(undefined), phase)).toMatchObject({
      code: 'invalid-action-parameters',
      apiCode: 20217,
    });
    expect(check('ruleset-rule', rewrite({ uri: { path: { valu: '/x' } } }), phase)).toMatchObject({
      apiCode: 20217,
      pointer: '/0/action_parameters/uri/path/valu',
    });
  });
});
