import { describe, expect, it } from 'vitest';
import { run } from './in-process.js';

// `cfrules bench`: the shape of its report (timings vary by machine; they are not asserted).

const zone = JSON.stringify({
  firewall_rules: [
    { ref: 'cheap', action: 'block', filter: { expression: 'http.host eq "a.example"' } },
    {
      ref: 'regex',
      action: 'block',
      filter: { expression: 'lower(http.user_agent) matches "(bot|crawl)[0-9]+"' },
    },
  ],
});
const requests = [
  JSON.stringify({ url: 'https://a.example/', headers: [['User-Agent', 'Bot1']] }),
  JSON.stringify({ ClientIP: '192.0.2.1', ClientRequestHost: 'b.example', ClientRequestURI: '/x' }),
].join('\n');

describe('cfrules bench', () => {
  it('reports the zone per request and its rules, most expensive first, with why', () => {
    const result = run(['bench', '-z', 'zone.json', '-r', 'requests.jsonl', '--format', 'json'], {
      'zone.json': zone,
      'requests.jsonl': requests,
    });
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report.requests).toBe(2);
    expect(report.zone.nsPerRequest).toBeGreaterThan(0);
    expect(report.zone.ruleByRuleNsPerRequest).toBeGreaterThan(0);
    expect(report.rules.map((rule: { ref: string }) => rule.ref).sort()).toEqual(['cheap', 'regex']);
    expect(report.rules.find((rule: { ref: string }) => rule.ref === 'regex').reasons).toEqual([
      'regex',
      'functions: lower',
    ]);
    const text = run(['bench', '-z', 'zone.json', '-r', 'requests.jsonl', '--top', '1'], {
      'zone.json': zone,
      'requests.jsonl': requests,
    });
    expect(text.stdout).toMatch(
      /^2 requests, 2 rule expressions\nwhole zone: [\d.]+ (ns|µs) per request \(rule by rule: /,
    );
    expect(text.stdout).toContain('The 1 most expensive rules');
  });

  it('refuses requests it cannot read, with the line', () => {
    const result = run(['bench', '-z', 'zone.json', '-r', 'requests.jsonl'], {
      'zone.json': zone,
      'requests.jsonl': '{"url": 5}',
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('requests.jsonl: line 1: url: ');
  });
});
