import { describe, expect, it } from 'vitest';
import { type PlaygroundState, readFragment, writeFragment } from '../../web/src/state.js';

// The playground's URL fragment, read and written in Node (web/src/state.ts has no DOM in it).

const defaults: PlaygroundState = {
  mode: 'expression',
  plan: 'enterprise',
  phase: 'http_request_firewall_custom',
  expression: 'true',
  request: '{}',
  zone: '{"plan": "free"}',
};

describe('the URL fragment', () => {
  it('gives back every part of the state, whatever characters they hold', () => {
    const state: PlaygroundState = {
      mode: 'zone',
      plan: 'pro',
      phase: 'http_request_transform',
      expression: 'http.host eq "é+ü&=#%20" and\nip.src in {192.0.2.0/24}',
      request: JSON.stringify({ url: 'https://example.com/?a=1&b=2', body: 'x+y' }),
      zone: '{"plan": "business", "rules": ["😀"]}',
    };
    expect(readFragment(writeFragment(state), defaults)).toEqual(state);
  });

  it('leaves the zone out in expression mode, to keep links short', () => {
    const fragment = writeFragment({ ...defaults, zone: 'a long zone file' });
    expect(fragment).not.toContain('zone=');
    expect(readFragment(fragment, defaults).zone).toBe(defaults.zone);
  });

  it('falls back to the defaults for what a link leaves out or gets wrong', () => {
    expect(readFragment('#plan=platinum&phase=nowhere&mode=3d&expr=ssl', defaults)).toEqual({
      ...defaults,
      expression: 'ssl',
    });
    expect(readFragment('', defaults)).toEqual(defaults);
  });
});
