import { describe, expect, it } from 'vitest';
import { validate } from '../../src/check/validate.js';
import { compile } from '../../src/eval/compile.js';
import { layoutFor } from '../../src/eval/context.js';
import { urlOffDomain } from '../../src/eval/functions/waf/runtimes.js';
import { readSampleRequest } from '../../src/request/index.js';
import { cloudflareScheme } from '../../src/scheme/scheme.js';

/** waf_url_off_domain and waf_calls, as managed rules run them. */

const MANAGED = { plan: 'enterprise', phase: 'http_request_firewall_managed', managedRuleset: true } as const;

function matches(expression: string, url: string): boolean {
  const compiled = compile(expression, MANAGED);
  if (!compiled.ok) throw new Error(compiled.diagnostics.map((d) => d.message).join('; '));
  const read = readSampleRequest({ method: 'GET', url, headers: [['Host', new URL(url).host]] });
  if (!read.ok) throw new Error(JSON.stringify(read.problems));
  return compiled.filter.match(layoutFor(cloudflareScheme).context(read.request));
}

describe('waf_url_off_domain', () => {
  it('tells a URL to another site from one to this host or a subdomain of it', () => {
    expect(urlOffDomain('https://evil.example/x', 'example.com')).toBe(true);
    expect(urlOffDomain('https://example.com.evil.example/', 'example.com')).toBe(true);
    expect(urlOffDomain('https://notexample.com/', 'example.com')).toBe(true);
    expect(urlOffDomain('https://example.com/x', 'example.com')).toBe(false);
    expect(urlOffDomain('HTTPS://WWW.Example.COM?q=1', 'example.com')).toBe(false);
    expect(urlOffDomain('http://example.com#top', 'example.com')).toBe(false);
  });

  it('reads the host after a user name, up to the first "@", as CRS does', () => {
    expect(urlOffDomain('http://user:pass@example.com/', 'example.com')).toBe(false);
    // A URL parser that stops at the decoded "/" sees example.com; one that does not, evil.com.
    expect(urlOffDomain('http://example.com/:x@evil.com/', 'example.com')).toBe(true);
  });

  it('compares ports as part of the host, and finds no host without "://"', () => {
    expect(urlOffDomain('https://example.com:8443/', 'example.com')).toBe(true);
    expect(urlOffDomain('https://example.com:8443/', 'example.com:8443')).toBe(false);
    expect(urlOffDomain('file:/etc/passwd', 'example.com')).toBe(true);
  });

  it('runs per value against the Host header', () => {
    const expression = 'any(waf_url_off_domain(waf.args.values[*], http.host))';
    expect(matches(expression, 'https://shop.example.com/?u=https%3A%2F%2Fevil.example%2F')).toBe(true);
    expect(matches(expression, 'https://shop.example.com/?u=https%3A%2F%2Fcdn.shop.example.com%2Fa')).toBe(
      false,
    );
  });
});

describe('waf_calls', () => {
  const calls = (value: string) =>
    matches(
      'any(waf_calls(waf.args.values[*], "php-functions-a-j"))',
      `https://example.com/?x=${encodeURIComponent(value)}`,
    );

  it('finds a function of the list called, whatever the case and the spaces before "("', () => {
    expect(calls('array_diff($a, $b)')).toBe(true);
    expect(calls('x=GetHostByName (')).toBe(true);
    expect(calls(';\n\tdate_add(')).toBe(true);
  });

  it('wants the name as a word of its own, followed by "("', () => {
    expect(calls('array_diff')).toBe(false);
    expect(calls('my_array_diff()')).toBe(false);
    expect(calls('array_diffs()')).toBe(false);
    expect(calls('array_diff and (more)')).toBe(false);
  });

  it('does not count a word of prose that a parenthesis follows', () => {
    expect(calls('ceiling gethostbyname(9ft)')).toBe(false);
    expect(calls('see: gethostbyname(host)')).toBe(true);
  });

  it('refuses an unknown list at check time', () => {
    const result = validate('any(waf_calls(waf.args.values[*], "no-such-list"))', MANAGED);
    expect(result.diagnostics[0]?.message).toContain('unknown phrase list');
  });
});
