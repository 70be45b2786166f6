import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { validate } from '../../src/check/validate.js';
import { compile } from '../../src/eval/compile.js';
import { layoutFor } from '../../src/eval/context.js';
import { TRANSFORMATIONS } from '../../src/eval/functions/waf/transforms.js';
import { readSampleRequest } from '../../src/request/index.js';
import { cloudflareScheme } from '../../src/scheme/scheme.js';
import { WAF_PHRASE_LISTS } from '../../src/scheme/waf-functions.js';

/**
 * The managed rules' own functions over open-ended requests: each agrees with the plain computation of
 * what it documents, whatever the header names and values (the per-request caches included: every
 * property runs several expressions over the same request), and none of them is open to other rulesets.
 */

const RUNS = Number(process.env.PROPERTY_RUNS ?? 150);
const MANAGED = { plan: 'enterprise', phase: 'http_request_firewall_managed', managedRuleset: true } as const;
const CUSTOM = { plan: 'enterprise', phase: 'http_request_firewall_custom' } as const;
const layout = layoutFor(cloudflareScheme);

/** Header names and values as a client could send them: ASCII and Latin-1 bytes, escapes, SQL and markup. */
const tokens = ['%', '%2', '%41', '%u0041', '&lt;', '<', '>', "'", '"', ' ', '\t', '/', '..', 'a', 'Z', '9'];
const headerValue = fc
  .array(
    fc.oneof(
      fc.constantFrom(...tokens),
      fc.constantFrom('select', 'union', 'script', 'onerror', 'passwd', 'eval', 'system'),
      fc.integer({ min: 0x20, max: 0xff }).map((code) => String.fromCharCode(code)),
    ),
    { maxLength: 12 },
  )
  .map((parts) => parts.join('').trim());
const headerName = fc.stringMatching(/^x-[a-z]{1,4}$/);
const headers = fc.array(fc.tuple(headerName, headerValue), { maxLength: 5 });

function requestWith(pairs: readonly (readonly [string, string])[]) {
  const read = readSampleRequest({
    method: 'GET',
    url: 'https://example.com/',
    headers: pairs.map(([name, value]) => [name, value]),
  });
  if (!read.ok) throw new Error(JSON.stringify(read.problems));
  return layout.context(read.request);
}

function compiled(expression: string) {
  const result = compile(expression, MANAGED);
  if (!result.ok) throw new Error(`${expression}: ${result.diagnostics.map((d) => d.message).join('; ')}`);
  return result.filter;
}

/**
 * The values of the request's headers whose name `keep` accepts, as the engine holds them: UTF-8 bytes,
 * one character per byte (so that lengths are counted in bytes, as the functions count them).
 */
const valuesOf = (pairs: readonly (readonly [string, string])[], keep: (name: string) => boolean): string[] =>
  pairs.filter(([name]) => keep(name)).map(([, value]) => Buffer.from(value, 'utf8').toString('latin1'));

describe('waf functions against their plain computation', () => {
  it('transform, values_matching, values_except and values_shorter', () => {
    const chain = 'urlDecodeUni,lowercase,compressWhitespace';
    const filters = {
      transformed: compiled(
        `any(waf_transform("${chain}", http.request.headers.values)[*] contains "select")`,
      ),
      matching: compiled('any(waf_values_matching(http.request.headers, r"^x-a")[*] contains "a")'),
      except: compiled('any(waf_values_except(http.request.headers, r"^x-a")[*] contains "a")'),
      shorter: compiled('any(waf_values_shorter(http.request.headers.values, 5)[*] contains "<")'),
    };
    const decode = (value: string) =>
      ['urlDecodeUni', 'lowercase', 'compressWhitespace'].reduce(
        (current, name) => TRANSFORMATIONS[name as 'lowercase'](current),
        value,
      );
    fc.assert(
      fc.property(headers, (pairs) => {
        const context = requestWith(pairs);
        const all = valuesOf(pairs, () => true);
        expect(filters.transformed.match(context)).toBe(all.some((v) => decode(v).includes('select')));
        const named = valuesOf(pairs, (name) => name.startsWith('x-a'));
        const others = valuesOf(pairs, (name) => !name.startsWith('x-a'));
        expect(filters.matching.match(context)).toBe(named.some((v) => v.includes('a')));
        expect(filters.except.match(context)).toBe(others.some((v) => v.includes('a')));
        expect(filters.shorter.match(context)).toBe(all.some((v) => v.length < 5 && v.includes('<')));
      }),
      { numRuns: RUNS },
    );
  });

  it('phrases find a phrase of the list anywhere, whatever the case', () => {
    const list = 'lfi-os-files';
    const phrases = (WAF_PHRASE_LISTS[list] ?? []).map((phrase) => phrase.toLowerCase());
    const filter = compiled(
      `any(http.request.headers.values[*] != "" and waf_phrases(http.request.headers.values[*], "${list}"))`,
    );
    const withPhrase = fc
      .tuple(headerValue, fc.constantFrom(...(WAF_PHRASE_LISTS[list] ?? [])), headerValue, fc.boolean())
      .map(([before, phrase, after, upper]) => `${before}${upper ? phrase.toUpperCase() : phrase}${after}`);
    fc.assert(
      fc.property(headers, fc.option(withPhrase), (pairs, planted) => {
        const all = planted === null ? pairs : [...pairs, ['x-planted', planted] as const];
        const expected = valuesOf(all, () => true).some((value) =>
          phrases.some((phrase) => value.toLowerCase().includes(phrase)),
        );
        expect(filter.match(requestWith(all))).toBe(expected);
        if (planted !== null) expect(expected).toBe(true);
      }),
      { numRuns: RUNS },
    );
  });

  it('bytes_within and count_bytes count the bytes in the ranges', () => {
    const inRange = (code: number) => (code >= 32 && code <= 126) || code === 9;
    const within = compiled('any(waf_bytes_within(http.request.headers.values[*], "32-126,9"))');
    const count = compiled('any(waf_count_bytes(http.request.headers.values[*], "32-126,9")[*] ge 3)');
    fc.assert(
      fc.property(headers, (pairs) => {
        const context = requestWith(pairs);
        const counts = valuesOf(pairs, () => true).map(
          (value) => [...value].filter((char) => inRange(char.charCodeAt(0))).length,
        );
        const lengths = valuesOf(pairs, () => true).map((value) => value.length);
        expect(within.match(context)).toBe(counts.some((n, i) => n === lengths[i]));
        expect(count.match(context)).toBe(counts.some((n) => n >= 3));
      }),
      { numRuns: RUNS },
    );
  });

  it('detectors and validity checks answer every value without throwing', () => {
    const filter = compiled(
      'any(waf_detect_sqli(http.request.headers.values[*]) or waf_detect_xss(http.request.headers.values[*]) or not waf_valid_url_encoding(http.request.headers.values[*]) or not waf_valid_utf8(http.request.headers.values[*]))',
    );
    fc.assert(
      fc.property(headers, (pairs) => {
        expect(typeof filter.match(requestWith(pairs))).toBe('boolean');
      }),
      { numRuns: RUNS },
    );
  });
});

describe('managed-only', () => {
  const calls = [
    'any(waf_transform("lowercase", http.request.headers.values)[*] eq "a")',
    'waf_detect_sqli(http.user_agent)',
    'waf_phrases(http.user_agent, "lfi-os-files")',
    'waf_count_bytes(http.user_agent, "0-31") gt 0',
  ];

  it('refuses each waf function outside a managed ruleset, at its name, wherever it stands', () => {
    const around = fc.constantFrom(
      ['', ''],
      ['http.host eq "a" and ', ''],
      ['not (ssl) or (', ')'],
      ['(((', ')))'],
    );
    fc.assert(
      fc.property(around, fc.constantFrom(...calls), ([before, after], call) => {
        const source = `${before}${call}${after}`;
        expect(validate(source, MANAGED).ok, source).toBe(true);
        const refused = validate(source, CUSTOM);
        expect(refused.ok).toBe(false);
        const first = refused.diagnostics.find((d) => d.code === 'managed-only');
        expect(first?.message, source).toContain('waf_');
        const name = call.match(/waf_\w+/)?.[0] ?? '';
        expect(Buffer.from(source).subarray(first?.span.start, first?.span.end).toString()).toBe(name);
      }),
      { numRuns: RUNS },
    );
  });
});
