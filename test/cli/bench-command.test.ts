import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from './in-process.js';
import { cfrules } from './run-binary.js';

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
    expect(report.requestsInFile).toBe(2);
    expect(report.sampled).toBe(false);
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
      /^2 requests, 2 rule expressions, 5 windows\nwhole zone: [\d.]+ (ns|µs) per request \(windows [\d.]+–[\d.]+ (ns|µs); rule by rule: [\d.]+ (ns|µs), [\d.]+× (slower|faster)\)\n/,
    );
    expect(text.stdout).toContain('The 1 most expensive rules');
    expect(text.stdout).toMatch(
      /\n +[\d.]+ (ns|µs) +[\d.]+–[\d.]+ (ns|µs) +(cheap|regex) \[firewall_rules\]/,
    );
  });

  it('gives each figure as the median of its windows, with the fastest and slowest, and flags doubtful ranks', () => {
    const result = run(['bench', '-z', 'zone.json', '-r', 'requests.jsonl', '--format', 'json'], {
      'zone.json': zone,
      'requests.jsonl': requests,
    });
    const report = JSON.parse(result.stdout);
    expect(report.measurement).toMatchObject({
      windows: 5,
      windowsPlanned: 5,
      durationLimit: null,
      stoppedByDuration: false,
      requestsTimedPerRule: 2,
    });
    for (const figure of [report.zone.indexed, report.zone.ruleByRule, ...report.rules]) {
      expect(figure.windows).toHaveLength(5);
      const median = figure.median ?? figure.ns;
      expect(figure.low).toBe(Math.min(...figure.windows));
      expect(figure.high).toBe(Math.max(...figure.windows));
      expect([...figure.windows].sort((a: number, b: number) => a - b)[2]).toBe(median);
    }
    expect(report.zone.nsPerRequest).toBe(report.zone.indexed.median);
    expect(report.zone.ruleByRuleNsPerRequest).toBe(report.zone.ruleByRule.median);
    const [first, second] = report.rules;
    expect(first.ns).toBeGreaterThanOrEqual(second.ns);
    // Whether the two overlap depends on the machine; the flags and the doubts must say the same thing.
    const overlap = second.high >= first.low;
    expect(report.rankingDoubts).toEqual(overlap ? [{ first: 1, last: 2 }] : []);
    expect(report.rules.map((rule: { rankReliable: boolean }) => rule.rankReliable)).toEqual([
      !overlap,
      !overlap,
    ]);
  });

  it('times an evenly spaced sample with --sample, reading only the lines it takes', () => {
    // Lines 1, 3, 5, 7 and 9 are requests; the others are not even JSON.
    const lines = Array.from({ length: 10 }, (_, i) =>
      i % 2 === 0 ? JSON.stringify({ url: `https://a.example/${i}` }) : 'not json',
    );
    const files = { 'zone.json': zone, 'requests.jsonl': lines.join('\n') };
    // 5 of 10, evenly spaced: lines 1, 3, 5, 7 and 9.
    const sampled = run(
      ['bench', '-z', 'zone.json', '-r', 'requests.jsonl', '--sample', '5', '--format', 'json'],
      files,
    );
    expect(sampled.code).toBe(0);
    expect(JSON.parse(sampled.stdout)).toMatchObject({ requests: 5, requestsInFile: 10, sampled: true });
    const text = run(['bench', '-z', 'zone.json', '-r', 'requests.jsonl', '--sample', '5'], files);
    expect(text.stdout).toMatch(
      /^a sample of 5 of 10 requests \(evenly spaced\), 2 rule expressions, 5 windows\n/,
    );
    // A sample as large as the file is the whole file, whose line 2 is not a request.
    for (const sample of [[], ['--sample', '10'], ['--sample', '50']]) {
      const whole = run(['bench', '-z', 'zone.json', '-r', 'requests.jsonl', ...sample], files);
      expect(whole.code).toBe(2);
      expect(whole.stderr).toContain('requests.jsonl: line 2: not JSON');
    }
  });

  it('stops at --duration and says what it measured', () => {
    const files = { 'zone.json': zone, 'requests.jsonl': requests };
    const within = run(
      ['bench', '-z', 'zone.json', '-r', 'requests.jsonl', '--duration', '0.5', '--format', 'json'],
      files,
    );
    expect(within.code).toBe(0);
    const report = JSON.parse(within.stdout);
    expect(report.measurement.durationLimit).toBe(0.5);
    expect(report.measurement.windows).toBeGreaterThanOrEqual(1);
    expect(report.measurement.stoppedByDuration).toBe(report.measurement.windows < 5);
    for (const rule of report.rules) expect(rule.windows).toHaveLength(report.measurement.windows);
    // A microsecond is over before anything is timed: the first request's fields are derived and the first
    // window is measured (every figure needs one), then the run stops.
    const cut = run(
      ['bench', '-z', 'zone.json', '-r', 'requests.jsonl', '--duration', '0.000001', '--format', 'json'],
      files,
    );
    expect(JSON.parse(cut.stdout).measurement).toMatchObject({
      windows: 1,
      stoppedByDuration: true,
      requestsTimedPerRule: 1,
      durationLimit: 0.000001,
    });
    const text = run(['bench', '-z', 'zone.json', '-r', 'requests.jsonl', '--duration', '0.000001'], files);
    expect(text.stdout).toMatch(
      /^2 requests, 2 rule expressions, 1 of 5 windows \(--duration 0\.000001\)\nfields derived for 1 of 2 requests in half the time; each rule was timed on those\nstopped by --duration after [\d.]+ s: 1 of 5 windows measured, the figures are theirs\nwhole zone: /,
    );
  });

  it('refuses a --sample or --duration that is not a positive number, as a usage error', () => {
    const files = { 'zone.json': zone, 'requests.jsonl': requests };
    const cases: [string[], string][] = [
      [['--sample', '0'], "--sample expects a whole number ≥ 1, got '0'"],
      [['--sample', '1.5'], "--sample expects a whole number ≥ 1, got '1.5'"],
      [['--sample', 'ten'], "--sample expects a whole number ≥ 1, got 'ten'"],
      [['--sample', ''], "--sample expects a whole number ≥ 1, got ''"],
      [['--duration', '0'], "--duration expects a number of seconds > 0, got '0'"],
      [['--duration', '-2'], "--duration expects a number of seconds > 0, got '-2'"],
      [['--duration', '5s'], "--duration expects a number of seconds > 0, got '5s'"],
      [['--duration', 'Infinity'], "--duration expects a number of seconds > 0, got 'Infinity'"],
    ];
    for (const [options, message] of cases) {
      const result = run(['bench', '-z', 'zone.json', '-r', 'requests.jsonl', ...options], files);
      expect(result.code, options.join(' ')).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe(`cfrules bench: ${message}\nRun 'cfrules bench --help' for usage.\n`);
    }
  });

  it('shows progress on standard error only when it is a terminal and CI is not set', () => {
    const files = { 'zone.json': zone, 'requests.jsonl': requests };
    const args = ['bench', '-z', 'zone.json', '-r', 'requests.jsonl', '--duration', '0.2'];
    expect(run(args, files, '', {}).stderr).toBe('');
    expect(run(args, files, '', { stderrIsTTY: true, env: { CI: 'true' } }).stderr).toBe('');
    const terminal = run(args, files, '', { stderrIsTTY: true, env: {} });
    expect(terminal.code).toBe(0);
    // Rewritten in place, and erased before the report.
    expect(terminal.stderr.startsWith('\rreading requests: 0 of 2\x1b[K')).toBe(true);
    expect(terminal.stderr.endsWith('\r\x1b[K')).toBe(true);
    expect(terminal.stderr).not.toContain('\n');
  });

  it('prints no progress when its standard error is a pipe, CI or not (the built command)', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'cfrules-bench-'));
    writeFileSync(join(directory, 'zone.json'), zone);
    writeFileSync(join(directory, 'requests.jsonl'), requests);
    const args = ['bench', '-z', 'zone.json', '-r', 'requests.jsonl', '--duration', '0.5', '--top', '1'];
    const result = await cfrules(args, { cwd: directory, env: { CI: undefined } });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain('The 1 most expensive rules');
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
