import { describe, expect, it } from 'vitest';
import { compileZone } from '../../src/engine/index.js';
import { ReplayComparison } from '../../src/engine/replay-comparison.js';
import { readSampleRequest } from '../../src/request/index.js';

// Replay comparisons: the requests whose outcome differs between two zones, equal however the requests
// are split between workers.

const compiled = (zone: unknown) => {
  const result = compileZone(zone);
  if (!result.ok) throw new Error('zone');
  return result.zone;
};
const rule = (id: string, action: string, expression: string) => ({ id, action, filter: { expression } });
const old = compiled({
  firewall_rules: [
    rule('admin', 'block', 'starts_with(http.request.uri.path, "/admin")'),
    rule('posts', 'block', 'http.request.method eq "POST"'),
  ],
});
// `admin` now lets /admin/public through, and POST requests are challenged rather than blocked, by a new
// rule; `posts` stays, but the challenge comes first (firewall rules run challenges before blocks).
const changed = compiled({
  firewall_rules: [
    rule(
      'admin',
      'block',
      'starts_with(http.request.uri.path, "/admin") and not starts_with(http.request.uri.path, "/admin/public")',
    ),
    rule('posts', 'block', 'http.request.method eq "POST"'),
    rule(
      'posts-challenge',
      'managed_challenge',
      'http.request.method eq "POST" and http.request.uri.path eq "/form"',
    ),
  ],
});
const urls = ['/admin/x', '/admin/public/a', '/form', '/home', '/admin/public/b', '/form', '/home'];
const requests = Array.from({ length: 70 }, (_, i) => {
  const path = urls[i % urls.length] as string;
  const read = readSampleRequest({
    method: path === '/form' ? 'POST' : 'GET',
    url: `https://example.com${path}`,
  });
  if (!read.ok) throw new Error('request');
  return read.request;
});

function comparisonOf(from: number, to: number) {
  const comparison = new ReplayComparison();
  for (let i = from; i < to; i++) {
    const request = requests[i] as never;
    comparison.add(
      old.simulate(request, { trace: false }),
      changed.simulate(request, { trace: false }),
      i + 1,
      `/${i}`,
    );
  }
  return comparison;
}

describe('replay comparisons', () => {
  it('count the changed outcomes by change, the most frequent first, with the first lines of each', () => {
    const json = comparisonOf(0, 70).toJSON();
    expect(json.requests).toBe(70);
    // /admin/x (10) and /home (20) do not change; /admin/public (20) is no longer blocked; /form (20) is
    // still stopped, but by another rule with another action.
    expect(json.changed).toBe(40);
    expect(json.changes).toEqual([
      {
        from: { action: 'block', decidedBy: { id: 'admin', stage: 'firewall_rules' } },
        to: { action: 'none' },
        requests: 20,
        samples: [
          { line: 2, url: '/1' },
          { line: 5, url: '/4' },
          { line: 9, url: '/8' },
        ],
      },
      {
        from: { action: 'block', decidedBy: { id: 'posts', stage: 'firewall_rules' } },
        to: { action: 'managed_challenge', decidedBy: { id: 'posts-challenge', stage: 'firewall_rules' } },
        requests: 20,
        samples: [
          { line: 3, url: '/2' },
          { line: 6, url: '/5' },
          { line: 10, url: '/9' },
        ],
      },
    ]);
    expect(json.actions).toEqual({
      block: { old: 50, new: 10 },
      none: { old: 20, new: 40 },
      managed_challenge: { old: 0, new: 20 },
    });
  });

  it('count a change of deciding rule with the same action as a change', () => {
    const renamed = compiled({
      firewall_rules: [rule('admin-2', 'block', 'starts_with(http.request.uri.path, "/admin")')],
    });
    const comparison = new ReplayComparison();
    const request = requests[0] as never;
    comparison.add(old.simulate(request), renamed.simulate(request), 1, '/admin/x');
    comparison.add(old.simulate(request), old.simulate(request), 2, '/admin/x');
    expect(comparison.toJSON()).toMatchObject({
      requests: 2,
      changed: 1,
      actions: { block: { old: 2, new: 2 } },
      changes: [
        {
          from: { action: 'block', decidedBy: { id: 'admin' } },
          to: { action: 'block', decidedBy: { id: 'admin-2' } },
          requests: 1,
          samples: [{ line: 1 }],
        },
      ],
    });
  });

  it('merge into the comparison of the whole, whatever the split, in the same order', () => {
    const whole = JSON.stringify(comparisonOf(0, 70).toJSON());
    for (const cut of [1, 3, 30, 69]) {
      const merged = new ReplayComparison();
      // Parts may arrive in any order: the samples are still the first lines.
      merged.merge(comparisonOf(cut, 70).toJSON());
      merged.merge(comparisonOf(0, cut).toJSON());
      expect(JSON.stringify(merged.toJSON())).toBe(whole);
    }
  });
});
