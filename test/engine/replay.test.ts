import { describe, expect, it } from 'vitest';
import { compileZone } from '../../src/engine/index.js';
import { ReplayTally } from '../../src/engine/replay.js';
import { readSampleRequest } from '../../src/request/index.js';

// Replay tallies: the counts of many requests, equal however the requests are split between workers.

const zone = {
  firewall_rules: [
    {
      id: 'a1',
      ref: 'admin-block',
      action: 'block',
      filter: { expression: 'starts_with(http.request.uri.path, "/admin")' },
    },
    { id: 'a2', ref: 'post-log', action: 'log', filter: { expression: 'http.request.method eq "POST"' } },
    { id: 'a3', ref: 'never', action: 'block', filter: { expression: 'http.host eq "nowhere.example"' } },
  ],
};
const compiled = (() => {
  const result = compileZone(zone);
  if (!result.ok) throw new Error('zone');
  return result;
})();
const requests = Array.from({ length: 60 }, (_, i) => {
  const read = readSampleRequest({
    method: i % 3 === 0 ? 'POST' : 'GET',
    url: `https://example.com/${i % 4 === 0 ? 'admin' : 'home'}/${i}`,
  });
  if (!read.ok) throw new Error('request');
  return read.request;
});

function tallyOf(from: number, to: number) {
  const tally = new ReplayTally(compiled.zone.rules);
  for (let i = from; i < to; i++)
    tally.add(compiled.zone.simulate(requests[i] as never, { trace: false }), i + 1, `/${i}`);
  return tally;
}

describe('replay tallies', () => {
  it('count requests, final actions, and per rule matches, decisions and first samples', () => {
    const json = tallyOf(0, 60).toJSON();
    expect(json.requests).toBe(60);
    expect(json.actions).toEqual({ block: 15, none: 45 });
    const byRef = Object.fromEntries(json.rules.map((rule) => [rule.ref, rule]));
    expect(byRef['admin-block']).toMatchObject({
      matched: 15,
      decided: 15,
      samples: [{ line: 1 }, { line: 5 }, { line: 9 }],
    });
    // post-log runs after admin-block (no priority: log first at equal priority), so it counts every POST.
    expect(byRef['post-log']).toMatchObject({ matched: 20, decided: 0 });
    expect(byRef.never).toMatchObject({ matched: 0, decided: 0, samples: [] });
  });

  it('are the same counted one by one as simulate answers', () => {
    const json = tallyOf(0, 60).toJSON();
    let blocked = 0;
    for (const request of requests) if (compiled.zone.simulate(request).action === 'block') blocked++;
    expect(json.actions.block).toBe(blocked);
  });

  it('merge into the tally of the whole, whatever the split', () => {
    const whole = tallyOf(0, 60).toJSON();
    for (const cut of [1, 17, 30, 59]) {
      const merged = new ReplayTally(compiled.zone.rules);
      // Parts may arrive in any order: the samples are still the first lines.
      merged.merge(tallyOf(cut, 60).toJSON());
      merged.merge(tallyOf(0, cut).toJSON());
      expect(merged.toJSON()).toEqual(whole);
    }
  });
});
