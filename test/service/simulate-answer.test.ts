// The bound on simulate's answer (src/service/simulate-answer.ts): the JSON length it measures without
// building the JSON, and the steps that cut a result to its share.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileZone } from '../../src/engine/index.js';
import type { SimulationResult } from '../../src/engine/outcome.js';
import { readSampleRequest } from '../../src/request/index.js';
import { boundedResult, jsonLength } from '../../src/service/simulate-answer.js';

describe('jsonLength', () => {
  it('is the length of JSON.stringify for any JSON value, lone surrogates and control characters included', () => {
    const text = fc.string({
      unit: fc.constantFrom('a', '"', '\\', '\n', '\u0001', '\u007f', '\ud800', '\udc00', 'é', '😀'),
    });
    const value = fc.letrec((tie) => ({
      leaf: fc.oneof(text, fc.double(), fc.integer(), fc.boolean(), fc.constant(null)),
      node: fc.oneof(
        tie('leaf'),
        fc.array(tie('node'), { maxLength: 4 }),
        fc.dictionary(text, fc.oneof(tie('node'), fc.constant(undefined)), { maxKeys: 4 }),
      ),
    })).node;
    fc.assert(
      fc.property(value, (item) => {
        expect(jsonLength(item, Number.POSITIVE_INFINITY)).toBe(JSON.stringify(item).length);
      }),
      { numRuns: 2000 },
    );
  });

  it('stops early: past the limit it answers a number above it without reading the rest', () => {
    let reads = 0;
    const rule = {
      get expression() {
        reads++;
        return 'x'.repeat(100);
      },
    };
    const huge = { rules: Array.from({ length: 100_000 }, () => rule) };
    expect(jsonLength(huge, 1000)).toBeGreaterThan(1000);
    expect(reads).toBeLessThan(20);
  });
});

/** A zone of `count` log rules whose expressions are about 600 bytes, every one of them run. */
function zoneOf(count: number) {
  const hosts = Array.from({ length: 30 }, (_, k) => `"host-${k}.example.com"`).join(' ');
  return {
    plan: 'enterprise',
    rulesets: [
      {
        id: 'custom',
        name: 'custom rules',
        kind: 'zone',
        phase: 'http_request_firewall_custom',
        rules: Array.from({ length: count }, (_, i) => ({
          id: `r${i}`,
          action: 'log',
          expression: `starts_with(http.request.uri.path, "/r${i}/") and not http.host in {${hosts}}`,
        })),
      },
    ],
  };
}

function simulated(count: number, path: string): SimulationResult {
  const zone = compileZone(zoneOf(count));
  if (!zone.ok) throw new Error(JSON.stringify(zone.problems));
  const request = readSampleRequest({ method: 'GET', url: `https://example.com${path}` });
  if (!request.ok) throw new Error('bad request');
  return zone.zone.simulate(request.request);
}

describe('boundedResult', () => {
  it('gives a result that fits back whole', () => {
    const result = simulated(3, '/r1/x');
    expect(boundedResult(result, 1 << 20)).toBe(result);
  });

  it('leaves the expressions out first, and keeps every rule', () => {
    const result = simulated(40, '/r1/x');
    const size = JSON.stringify(result).length;
    const cut = boundedResult(result, size - 1000);
    expect(cut.truncated).toEqual({ limit: size - 1000, omitted: ['expressions'] });
    const rules = JSON.stringify(cut.trace).match(/"type":"rule"/g)?.length;
    expect(rules).toBe(40);
    expect(JSON.stringify(cut.trace)).not.toContain('expression');
    expect(cut.action).toBe(result.action);
    expect(cut.matched).toEqual(result.matched);
  });

  it('then the rules that ran without matching, counted, keeping the one that matched', () => {
    const result = simulated(40, '/r7/x');
    const cut = boundedResult(result, 2000);
    expect(cut.truncated).toMatchObject({ omitted: ['expressions', 'unmatched_rules'], rules: 39 });
    expect(JSON.stringify(cut.trace)).toContain('"id":"r7"');
    expect(JSON.stringify(cut).length).toBeLessThanOrEqual(2000);
  });

  it('then the trace, then all but the first matched rules, and always fits', () => {
    const result = simulated(40, '/r7/x');
    const noTrace = boundedResult(result, 400);
    expect(noTrace.truncated?.omitted).toEqual(['expressions', 'unmatched_rules', 'trace']);
    expect(noTrace.trace).toEqual([]);
    fc.assert(
      fc.property(fc.integer({ min: 100, max: 5000 }), (limit) => {
        const cut = boundedResult(result, limit);
        const length = JSON.stringify(cut).length;
        // Below the smallest cut (no trace, no matched rule) the result is as small as it gets.
        if (cut.truncated?.omitted.includes('matched') && cut.matched.length === 0) return;
        expect(length).toBeLessThanOrEqual(limit);
      }),
    );
  });
});
