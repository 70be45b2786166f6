import { describe, expect, it } from 'vitest';
import { validate } from '../../src/check/validate.js';
import { compile } from '../../src/eval/compile.js';
import { layoutFor } from '../../src/eval/context.js';
import { lessThan } from '../../src/eval/functions/waf/runtimes.js';
import { readSampleRequest } from '../../src/request/index.js';
import { cloudflareScheme } from '../../src/scheme/scheme.js';

/** waf_capture and waf_less_than: ModSecurity's captures and numeric comparisons of request values. */

const MANAGED = { plan: 'enterprise', phase: 'http_request_firewall_managed', managedRuleset: true } as const;

function matches(expression: string, headers: [string, string][]): boolean {
  const compiled = compile(expression, MANAGED);
  if (!compiled.ok) throw new Error(compiled.diagnostics.map((d) => d.message).join('; '));
  const read = readSampleRequest({ method: 'GET', url: 'https://example.com/', headers });
  if (!read.ok) throw new Error(JSON.stringify(read.problems));
  return compiled.filter.match(layoutFor(cloudflareScheme).context(read.request));
}

const RANGE = 'http.request.headers["range"][0]';
const reversed = `waf_less_than(waf_capture(${RANGE}, r"(\\d+)-(\\d+)", 2), waf_capture(${RANGE}, r"(\\d+)-(\\d+)", 1))`;

describe('waf_capture', () => {
  it("gives a group of the regex's first match", () => {
    const charset =
      'lower(waf_capture(http.request.headers["content-type"][0], r"(?i)charset=([\\w-]+)", 1))';
    const type = (value: string): [string, string][] => [['Content-Type', value]];
    expect(matches(`${charset} eq "utf-7"`, type('text/plain; CHARSET=UTF-7; charset=utf-8'))).toBe(true);
    expect(matches(`${charset} eq "utf-8"`, type('text/plain; CHARSET=UTF-7; charset=utf-8'))).toBe(false);
    expect(
      matches(
        'waf_capture(http.request.headers["content-type"][0], r"^[^;]+", 0) eq "text/plain"',
        type('text/plain; a=1'),
      ),
    ).toBe(true);
  });

  it('is missing when the regex does not match or the group took no part', () => {
    const headers: [string, string][] = [['X-Id', 'abc']];
    expect(matches('waf_capture(http.request.headers["x-id"][0], r"\\d+", 0) eq ""', headers)).toBe(false);
    expect(matches('waf_capture(http.request.headers["x-id"][0], r"\\d+", 0) ne ""', headers)).toBe(false);
    expect(matches('waf_capture(http.request.headers["x-id"][0], r"a(z)?", 1) ne ""', headers)).toBe(false);
  });

  it('takes a group number from 0 to 9', () => {
    const check = (group: number) =>
      validate(`waf_capture(http.user_agent, r"(a)", ${group}) eq "a"`, MANAGED).diagnostics[0]?.message;
    expect(check(1)).toBeUndefined();
    expect(check(10)).toContain('from 0 to 9');
  });
});

describe('waf_less_than', () => {
  it('compares whole decimal numbers, however long', () => {
    expect(lessThan('0', '5')).toBe(true);
    expect(lessThan('500', '100')).toBe(false);
    expect(lessThan('99', '100')).toBe(true);
    expect(lessThan('9007199254740993', '9007199254740994')).toBe(true);
    expect(lessThan('007', '8')).toBe(true);
  });

  it('is false unless both values are digits only', () => {
    expect(lessThan('', '1')).toBe(false);
    expect(lessThan('1', '2x')).toBe(false);
    expect(lessThan('-1', '2')).toBe(false);
    expect(lessThan('1.5', '2')).toBe(false);
  });

  it("finds a Range whose first range ends before it starts (CRS 920190's test)", () => {
    expect(matches(reversed, [['Range', 'bytes=500-100']])).toBe(true);
    expect(matches(reversed, [['Range', 'bytes=0-,10-5']])).toBe(true);
    expect(matches(reversed, [['Range', 'bytes=0-1023, 10-5']])).toBe(false);
    expect(matches(reversed, [['Range', 'bytes=-500']])).toBe(false);
    expect(matches(reversed, [])).toBe(false);
  });
});
