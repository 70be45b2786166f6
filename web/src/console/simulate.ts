import { DEFAULT_SCORE_THRESHOLD } from '../../../src/engine/managed/constants.js';
import type { SimulationResult } from '../../../src/index.js';
import { h, replaceChildren } from '../dom.js';
import { DEFAULT_REQUEST } from '../presets.js';
import { requestForm } from '../request-form.js';
import { traceTree } from '../trace-view.js';
import { scoreThresholds } from '../zone-thresholds.js';
import { entryPoint, type ZoneContext, zonePath } from './context.js';
import { errorBox } from './error-view.js';

// A sample request simulated by the service against the zone as it is stored (POST /zones/{id}/simulate),
// drawn as the playground draws zone mode's trace.

export async function simulateView(context: ZoneContext): Promise<HTMLElement> {
  // The OWASP thresholds the zone's managed entry point sets, to show each score against its own.
  const managed = await entryPoint(context, 'http_request_firewall_managed');
  const thresholds = { thresholds: scoreThresholds(managed), defaultThreshold: DEFAULT_SCORE_THRESHOLD };
  let request = JSON.stringify(DEFAULT_REQUEST);
  const form = requestForm((json) => {
    request = json;
  });
  form.load(request);
  const result = h('div', { id: 'simulation', class: 'result-body' });
  const run = h('button', { type: 'button', class: 'button primary', id: 'simulate' }, 'Simulate');
  run.addEventListener('click', async () => {
    let json: unknown;
    try {
      json = JSON.parse(request);
    } catch (error) {
      replaceChildren(result, errorBox(error, 'The request is not JSON'));
      return;
    }
    run.disabled = true;
    replaceChildren(result, h('span', { class: 'muted' }, 'Simulating…'));
    try {
      const envelope = await context.api.call<SimulationResult & { truncated?: unknown }>(
        'POST',
        zonePath(context, '/simulate'),
        { request: json },
      );
      replaceChildren(
        result,
        envelope.result.truncated !== undefined &&
          h('p', { class: 'muted' }, 'The trace was cut to fit the answer (docs/api.md §12).'),
        traceTree(envelope.result, thresholds),
      );
    } catch (error) {
      replaceChildren(result, errorBox(error, 'The simulation was refused'));
    } finally {
      run.disabled = false;
    }
  });
  return h(
    'div',
    { class: 'layout simulate-view' },
    h('div', { class: 'column' }, form.element, h('div', { class: 'actions' }, run)),
    h(
      'div',
      { class: 'column' },
      h(
        'section',
        { class: 'panel result-panel', 'aria-label': 'Trace' },
        h(
          'div',
          { class: 'panel-head' },
          h('h2', {}, 'Trace'),
          h('span', { class: 'muted' }, 'the zone as stored now, simulated by the service'),
        ),
        result,
      ),
    ),
  );
}
