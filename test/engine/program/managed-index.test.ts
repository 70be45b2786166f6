import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileZone } from '../../../src/engine/index.js';
import {
  cloudflareManagedRuleset,
  compiledRules,
  owaspCoreRuleset,
} from '../../../src/engine/managed/index.js';
import { ruleByRuleMatcher } from '../../../src/engine/matcher.js';
import { indexedMatcher } from '../../../src/engine/program/index.js';
import { layoutFor } from '../../../src/eval/context.js';
import { readSampleRequest } from '../../../src/request/index.js';
import { cloudflareScheme } from '../../../src/scheme/scheme.js';
import { attackCorpus } from '../corpus/attacks.js';

// The managed rulesets through the indexed program (docs/engine-program.md, "Managed rules"): the index
// scans each target once per transformation chain, one text once however many chains leave it unchanged,
// and must answer exactly as running every rule does.

const filters = [...compiledRules(cloudflareManagedRuleset), ...compiledRules(owaspCoreRuleset)].map(
  ({ filter }) => filter,
);
const indexed = indexedMatcher(filters);
const reference = ruleByRuleMatcher(filters);

function contextOf(json: Record<string, unknown>) {
  const read = readSampleRequest(json);
  if (!read.ok) throw new Error(JSON.stringify(read.problems));
  return layoutFor(cloudflareScheme).context(read.request);
}

/** Which rules match, by both matchers; they must agree. */
function matchingRules(json: Record<string, unknown>): number[] {
  const byIndex = indexed.forRequest(contextOf(json));
  const byRule = reference.forRequest(contextOf(json));
  const answers = filters.map((_, i) => byIndex(i));
  expect(answers).toEqual(filters.map((_, i) => byRule(i)));
  return answers.flatMap((answer, i) => (answer ? [i] : []));
}

// Payload fragments from the project's attack corpus, and what hides them from a literal search: encodings
// the rules' transformations undo, and case.
const payloads = attackCorpus()
  .flatMap(({ request }) => {
    const url = typeof request.url === 'string' ? request.url : '';
    const query = url.includes('?') ? url.slice(url.indexOf('?') + 1) : '';
    return query.split('&').map((pair) => pair.slice(pair.indexOf('=') + 1));
  })
  .filter((value) => value.length > 0);
const disguise = (value: string, how: number): string => {
  if (how === 1) return value.toUpperCase();
  if (how === 2) return encodeURIComponent(value);
  if (how === 3) return value.replace(/[a-z]/g, (c) => `%u00${c.charCodeAt(0).toString(16)}`);
  if (how === 4) return value.replace(/ /g, '/**/');
  return value;
};
/** What a URL may not hold as it is. */
const urlSafe = (text: string) =>
  Array.from(text, (c) => (c <= ' ' || c === '\x7f' || c === '#' ? encodeURIComponent(c) : c)).join('');
const plain = ['hello', 'O%27Reilly', 'select a plan', 'a=b', '2024-01-01', '{"a":[1,2]}', ''];
const value = fc.oneof(
  fc.tuple(fc.constantFrom(...payloads), fc.integer({ min: 0, max: 4 })).map(([v, how]) => disguise(v, how)),
  fc.constantFrom(...plain),
);

describe('the managed rulesets through the indexed program', () => {
  it(`has ${payloads.length} attack payloads to draw from`, () => {
    expect(payloads.length).toBeGreaterThan(100);
  });

  it('finds a payload whichever target holds it: argument, cookie, header, body', () => {
    const payload = '1 union select password from users';
    const where: Record<string, unknown>[] = [
      { url: `https://e.example/?q=${encodeURIComponent(payload)}` },
      { url: 'https://e.example/', headers: [['Cookie', `session=${encodeURIComponent(payload)}`]] },
      { url: 'https://e.example/', headers: [['Referer', `https://e.example/?q=${payload}`]] },
      {
        method: 'POST',
        url: 'https://e.example/form',
        headers: [['Content-Type', 'application/x-www-form-urlencoded']],
        body: `q=${encodeURIComponent(payload)}`,
      },
    ];
    // The same request with a harmless value matches fewer rules (a request without headers matches some
    // protocol rules whatever it holds).
    const harmless = (request: Record<string, unknown>) =>
      JSON.parse(
        JSON.stringify(request).replaceAll(encodeURIComponent(payload), 'hello').replaceAll(payload, 'hello'),
      );
    for (const request of where) {
      const baseline = matchingRules(harmless(request));
      const found = matchingRules(request);
      expect(found.length).toBeGreaterThan(baseline.length);
      expect(found).toEqual(expect.arrayContaining(baseline));
    }
  });

  it('runs the command-injection and PHP-call rules only for values with their punctuation', () => {
    const rules = [...compiledRules(cloudflareManagedRuleset), ...compiledRules(owaspCoreRuleset)];
    const numbered = (prefix: string) => rules.findIndex(({ rule }) => rule.description.startsWith(prefix));
    // Letters interleaved with quotes leave no literal longer than a letter: the separators stand in.
    const commands = numbered('932230');
    // A PHP function is called with "(".
    const phpCalls = numbered('933151');
    const candidates = (url: string) => indexed.candidates?.(contextOf({ url })).marks as Uint8Array;
    const ordinary = candidates('https://e.example/item?id=12345&lang=en-US&ref=spring-sale');
    expect([ordinary[commands], ordinary[phpCalls]]).toEqual([0, 0]);
    const attack = candidates('https://e.example/item?id=1;c%22at%20/etc/passwd&f=system(1)');
    expect([attack[commands], attack[phpCalls]]).toEqual([1, 1]);
  });

  it('agrees with running every rule on random requests built from attack payloads', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom('q', 'id', 'Name', 'x[]'), value), { maxLength: 4 }),
        fc.option(value, { nil: undefined }),
        fc.option(value, { nil: undefined }),
        fc.option(value, { nil: undefined }),
        (args, cookie, userAgent, body) => {
          const query = args.map(([name, v]) => `${name}=${urlSafe(v)}`).join('&');
          matchingRules({
            method: body === undefined ? 'GET' : 'POST',
            url: `https://e.example/p${query ? `?${query}` : ''}`,
            headers: [
              ...(cookie === undefined ? [] : [['Cookie', `c=${cookie}`]]),
              ...(userAgent === undefined ? [] : [['User-Agent', userAgent]]),
              ...(body === undefined ? [] : [['Content-Type', 'application/x-www-form-urlencoded']]),
            ],
            ...(body === undefined ? {} : { body: `b=${body}` }),
          });
        },
      ),
      { numRuns: 150 },
    );
  });
});

// A zone indexes only the rules its deployment can run: the OWASP rules above the paranoia level (151 of
// 330 by default) are left out of its index. Its simulations must not change for it.
describe('a zone deploying both managed rulesets', () => {
  const deploy = (owaspOverrides?: Record<string, unknown>) => ({
    plan: 'enterprise',
    rulesets: [
      {
        id: 'ep',
        kind: 'zone',
        phase: 'http_request_firewall_managed',
        rules: [
          {
            id: 'cf',
            action: 'execute',
            expression: 'true',
            action_parameters: { id: cloudflareManagedRuleset.id },
          },
          {
            id: 'owasp',
            action: 'execute',
            expression: 'true',
            action_parameters: {
              id: owaspCoreRuleset.id,
              ...(owaspOverrides ? { overrides: owaspOverrides } : {}),
            },
          },
        ],
      },
    ],
  });
  const requests = attackCorpus()
    .filter((_, i) => i % 4 === 0)
    .map(({ request }) => {
      const read = readSampleRequest(request);
      if (!read.ok) throw new Error('request');
      return read.request;
    });

  it.each([
    ['as deployed by default (paranoia level 1)', undefined],
    [
      'with paranoia level 2 turned on and one rule off',
      {
        categories: [{ category: 'paranoia-level-2', enabled: true }],
        rules: [{ id: owaspCoreRuleset.rules[5]?.id, enabled: false }],
      },
    ],
  ])('decides as running every rule does, %s', (_, overrides) => {
    const compiled = compileZone(deploy(overrides));
    if (!compiled.ok) throw new Error(JSON.stringify(compiled.problems));
    const byRule = compiled.zone.ruleByRule();
    let blocked = 0;
    for (const request of requests) {
      const expected = byRule.simulate(request, { trace: false });
      expect(compiled.zone.simulate(request, { trace: false })).toEqual(expected);
      blocked += expected.action === 'block' ? 1 : 0;
    }
    // The requests are attacks: most are blocked (a zone that ran nothing would pass this loop).
    expect(blocked).toBeGreaterThan(requests.length / 2);
  });
});
