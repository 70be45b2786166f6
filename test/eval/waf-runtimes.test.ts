import { describe, expect, it } from 'vitest';
import { validate } from '../../src/check/validate.js';
import { compile } from '../../src/eval/compile.js';
import { layoutFor } from '../../src/eval/context.js';
import { urlHost, validUrlEncoding, validUtf8 } from '../../src/eval/functions/waf/runtimes.js';
import { readSampleRequest } from '../../src/request/index.js';
import { cloudflareScheme } from '../../src/scheme/scheme.js';

/** The managed-only functions (src/scheme/waf-functions.ts) as managed rules run them. */

const MANAGED = { plan: 'enterprise', phase: 'http_request_firewall_managed', managedRuleset: true } as const;

function matches(expression: string, request: unknown): boolean {
  const compiled = compile(expression, MANAGED);
  if (!compiled.ok) throw new Error(compiled.diagnostics.map((d) => d.message).join('; '));
  const read = readSampleRequest(request);
  if (!read.ok) throw new Error(JSON.stringify(read.problems));
  return compiled.filter.match(layoutFor(cloudflareScheme).context(read.request));
}

const get = (url: string, headers: [string, string][] = []) => ({ method: 'GET', url, headers });

describe('the managed-only fields and functions', () => {
  it('are refused in a customer rule, with the code managed-only', () => {
    for (const expression of [
      'any(waf.args.values[*] contains "x")',
      'any(waf_detect_xss(http.request.uri.args.values[*]))',
    ]) {
      const result = validate(expression, { plan: 'enterprise', phase: 'http_request_firewall_custom' });
      expect(result.ok).toBe(false);
      expect(result.diagnostics[0]?.code).toBe('managed-only');
      expect(result.diagnostics[0]?.message).toMatch(/is only available to Cloudflare's managed rulesets$/);
    }
    expect(validate('any(waf.args.values[*] contains "x")', MANAGED).ok).toBe(true);
  });

  it('refuse an unknown transformation or phrase list, and bad byte ranges, at check time', () => {
    const problems = [
      'any(waf_transform("urlDecodeUni,rot13", waf.args.values)[*] eq "")',
      'any(waf_phrases(waf.args.values[*], "no-such-list"))',
      'any(waf_bytes_within(waf.args.values[*], "1-300"))',
    ].map((expression) => validate(expression, MANAGED).diagnostics[0]?.message);
    expect(problems[0]).toContain('unknown transformation rot13');
    expect(problems[1]).toContain('unknown phrase list');
    expect(problems[2]).toContain('byte values and ranges between 0 and 255');
  });

  it('transform every value of every target, in order', () => {
    const request = get('https://example.com/?a=%253Cscript%253E&b=OK', [['Cookie', 'c=%2541']]);
    expect(
      matches('any(waf_transform("urlDecodeUni,lowercase", waf.args.values)[*] eq "<script>")', request),
    ).toBe(true);
    expect(
      matches('any(waf_transform("none", waf.args.values, waf.cookies.values)[*] eq "%2541")', request),
    ).toBe(true);
    // multiMatch: the value before and after each step, so a test of the raw value still sees it.
    expect(
      matches('any(waf_transform_steps("urlDecodeUni,lowercase", waf.args.values)[*] eq "OK")', request),
    ).toBe(true);
    expect(matches('any(waf_transform("urlDecodeUni,lowercase", waf.args.values)[*] eq "OK")', request)).toBe(
      false,
    );
  });

  it('give every rule transforming the same targets the same way one shared result per request', () => {
    const expression = 'len(waf_transform("urlDecodeUni", waf.args.values)) eq 2';
    const compiled = compile(expression, MANAGED);
    if (!compiled.ok) throw new Error('did not compile');
    const read = readSampleRequest(get('https://example.com/?a=1&b=2'));
    if (!read.ok) throw new Error('bad request');
    const context = layoutFor(cloudflareScheme).context(read.request);
    expect(compiled.filter.match(context)).toBe(true);
    expect(compiled.filter.match(context)).toBe(true);
  });

  it('share results between chains that differ only by none steps, and only between those', () => {
    // The argument is %41 once the query is decoded: none keeps it, urlDecodeUni makes it A.
    const expression = [
      'any(waf_transform("none", waf.args.values)[*] eq "%41")',
      'any(waf_transform("none,urlDecodeUni", waf.args.values)[*] eq "A")',
      'any(waf_transform("urlDecodeUni", waf.args.values)[*] eq "A")',
      'any(waf_transform("urlDecodeUni,none", waf.args.values)[*] eq "A")',
      'any(waf_transform("none", waf.args.values)[*] eq "%41")',
    ].join(' and ');
    expect(matches(expression, get('https://example.com/?a=%2541'))).toBe(true);
  });

  it('select and exclude members of a map by a regex over names', () => {
    const request = get('https://example.com/', [['Cookie', '__utmz=1.x|union select; sid=union select 1']]);
    expect(
      matches(
        'any(waf_values_except(waf.cookies, r"^__utm")[*] contains "union")',
        get('https://example.com/', [['Cookie', '__utmz=union']]),
      ),
    ).toBe(false);
    expect(matches('any(waf_values_except(waf.cookies, r"^__utm")[*] contains "union")', request)).toBe(true);
    expect(matches('len(waf_values_matching(waf.cookies, r"^__utm")) eq 1', request)).toBe(true);
  });

  it('test bytes, encodings, suffixes and URL hosts', () => {
    expect(validUrlEncoding('a%20b%41')).toBe(true);
    expect(validUrlEncoding('100%')).toBe(false);
    expect(validUrlEncoding('%zz')).toBe(false);
    expect(validUtf8('caf\xc3\xa9')).toBe(true);
    expect(validUtf8('\xc0\xaf')).toBe(false); // overlong "/"
    expect(validUtf8('\xed\xa0\x80')).toBe(false); // a surrogate
    expect(validUtf8('\xe2\x82')).toBe(false); // cut short
    expect(urlHost('https://evil.example/x')).toBe('evil.example');
    expect(urlHost('https://evil.example')).toBeUndefined();
    expect(
      matches('any(waf_bytes_within(waf.args.values[*], "32-126"))', get('https://example.com/?a=%01')),
    ).toBe(false);
    expect(
      matches('any(waf_bytes_within(waf.args.values[*], "32-126"))', get('https://example.com/?a=ok')),
    ).toBe(true);
    expect(
      matches(
        'waf_ends_with(waf_url_host(http.referer), http.host)',
        get('https://shop.example.com/', [['Referer', 'https://www.shop.example.com/a']]),
      ),
    ).toBe(true);
    expect(
      matches(
        'waf_ends_with(waf_url_host(http.referer), http.host)',
        get('https://shop.example.com/', [['Referer', 'https://shop.example.com.evil.net/a']]),
      ),
    ).toBe(false);
  });
});
