import { describe, expect, it } from 'vitest';
import { validate } from '../../../src/check/validate.js';
import { type CrsRule, crsExpression, crsScoringSpec } from '../../../src/engine/managed/owasp/crs.js';
import { TargetError, targetValues } from '../../../src/engine/managed/targets.js';

const rule = (fields: Partial<CrsRule>): CrsRule => ({
  id: 942999,
  description: 'A test rule',
  paranoiaLevel: 2,
  severity: 'critical',
  tags: ['attack-sqli'],
  ...fields,
});

const MANAGED = { plan: 'enterprise', phase: 'http_request_firewall_managed', managedRuleset: true } as const;

describe('CRS targets as managed-rule values', () => {
  it('maps collections, members and single values to waf.* fields', () => {
    expect(targetValues('ARGS_NAMES|ARGS|REQUEST_FILENAME|XML:/*')).toEqual([
      'waf.args.names',
      'waf.args.values',
      'waf.request.filename',
      'waf.xml.values',
    ]);
    expect(targetValues('REQUEST_HEADERS:User-Agent|ARGS:id|REQUEST_COOKIES:/^sess/')).toEqual([
      'http.request.headers["user-agent"]',
      'waf.args["id"]',
      'waf_values_matching(waf.cookies, r"^sess")',
    ]);
    // XML:/* and XML://@* (text and attribute values) are one field, named once.
    expect(targetValues('ARGS|XML:/*|XML://@*')).toEqual(['waf.args.values', 'waf.xml.values']);
  });

  it('reads XML:/* and XML://@* (text, attribute values) as the one field that holds both, once', () => {
    expect(targetValues('ARGS|XML:/*|XML://@*')).toEqual(['waf.args.values', 'waf.xml.values']);
    expect(targetValues('XML://@*')).toEqual(['waf.xml.values']);
  });

  it('applies an exclusion to its own collection only, as ModSecurity does', () => {
    expect(targetValues('REQUEST_COOKIES|!REQUEST_COOKIES:/__utm/|REQUEST_COOKIES_NAMES')).toEqual([
      'waf_values_except(waf.cookies, r"__utm")',
      'waf.cookies.names',
    ]);
    expect(targetValues('REQUEST_HEADERS|!REQUEST_HEADERS:Referer|!REQUEST_HEADERS:Cookie')).toEqual([
      'waf_values_except(http.request.headers, r"(?i)^Referer$|(?i)^Cookie$")',
    ]);
  });

  it('refuses variables it does not know, with the target list in the message', () => {
    expect(() => targetValues('ARGS|MATCHED_VARS')).toThrow(TargetError);
    expect(() => targetValues('ARGS|MATCHED_VARS')).toThrow(/MATCHED_VARS in ARGS\|MATCHED_VARS/);
    expect(() => targetValues('!ARGS')).toThrow(/exclusion names a member/);
  });
});

describe('a CRS rule as an expression', () => {
  it('tests every transformed value of its targets', () => {
    const expression = crsExpression(
      rule({
        targets: 'ARGS',
        transformations: 'urlDecodeUni,lowercase',
        test: { regex: '(?i)union\\s+select' },
      }),
    );
    expect(expression).toBe(
      'any(waf_transform("urlDecodeUni,lowercase", waf.args.values)[*] matches r"(?i)union\\s+select")',
    );
    expect(validate(expression, MANAGED).ok).toBe(true);
  });

  it('writes each kind of test, multiMatch, negation and chains', () => {
    const forms = [
      rule({ targets: 'ARGS', multiMatch: true, test: { detect: 'sqli' } }),
      rule({ targets: 'ARGS', test: { operator: 'contains', literal: '"--"' } }),
      rule({ targets: 'REQUEST_HEADERS:Content-Type', test: { not: { regex: '^text/' } } }),
      rule({ targets: 'ARGS_NAMES', test: { detect: 'xss' }, and: 'http.request.method eq "POST"' }),
      rule({ expression: 'len(waf.args.values) gt 255', and: 'true' }),
    ].map((rule) => crsExpression(rule));
    expect(forms).toEqual([
      'any(waf_detect_sqli(waf_transform_steps("none", waf.args.values)[*]))',
      'any(waf_transform("none", waf.args.values)[*] contains "--")',
      'any(not waf_transform("none", http.request.headers["content-type"])[*] matches r"^text/")',
      'any(waf_detect_xss(waf_transform("none", waf.args.names)[*])) and (http.request.method eq "POST")',
      '(len(waf.args.values) gt 255) and (true)',
    ]);
    for (const expression of forms) expect(validate(expression, MANAGED).ok, expression).toBe(true);
  });

  it('becomes a scoring rule whose description starts with the number', () => {
    const spec = crsScoringSpec(rule({ targets: 'ARGS', test: { detect: 'sqli' } }));
    expect(spec).toMatchObject({ number: 942999, description: 'A test rule', severity: 'critical' });
    expect(() => crsExpression(rule({}))).toThrow(/needs a test or an expression/);
    expect(() => crsExpression(rule({ test: { detect: 'sqli' } }))).toThrow(/needs targets/);
  });
});
