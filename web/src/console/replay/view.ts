import type { RuleTally } from '../../../../src/engine/replay.js';
import { h, replaceChildren } from '../../dom.js';
import { ApiError } from '../api.js';
import type { ZoneContext } from '../context.js';
import { errorBox } from '../error-view.js';
import { type Bar, barChart, columnChart } from './charts.js';
import type { ReplayJob, ReplayMessage } from './protocol.js';

// Replaying a log against the zone: the file is read and replayed in a Web Worker (console-replay.js),
// which reports its progress; then the charts: final actions, rules by matches and by decisions, and the
// matches along the log.

const TOP_RULES = 10;

let running: Worker | undefined;

export async function replayView(context: ZoneContext): Promise<HTMLElement> {
  const input = h('input', {
    type: 'file',
    id: 'replay-file',
    accept: '.jsonl,.ndjson,.json,.log,.gz,.txt,application/gzip,application/json',
    'aria-label': 'Log file',
  });
  const start = h('button', { type: 'button', class: 'button primary', id: 'replay-start' }, 'Replay');
  const progress = h('progress', { id: 'replay-progress', max: 1, value: 0, hidden: true });
  const status = h('span', { class: 'muted', id: 'replay-status', role: 'status' });
  const results = h('div', { id: 'replay-results' });

  start.addEventListener('click', () => {
    const file = input.files?.[0];
    if (!file) {
      status.textContent = 'Choose a file first.';
      return;
    }
    running?.terminate();
    const worker = new Worker(new URL('console-replay.js', document.baseURI));
    running = worker;
    progress.hidden = false;
    progress.value = 0;
    start.disabled = true;
    status.textContent = `Replaying ${file.name}…`;
    replaceChildren(results);
    const finish = () => {
      worker.terminate();
      if (running === worker) running = undefined;
      start.disabled = false;
    };
    worker.addEventListener('message', (event: MessageEvent<ReplayMessage>) => {
      const message = event.data;
      if (message.type === 'progress') {
        progress.value = message.bytesTotal === 0 ? 1 : message.bytesRead / message.bytesTotal;
        status.textContent = `${message.requests.toLocaleString('en')} requests replayed`;
        return;
      }
      finish();
      if (message.type === 'failed') {
        status.textContent = 'The replay stopped.';
        replaceChildren(
          results,
          errorBox(new ApiError(message.status, message.errors), 'The replay stopped'),
        );
        return;
      }
      progress.value = 1;
      status.textContent = `${message.tally.requests.toLocaleString('en')} requests replayed${
        message.gzipped ? ' (gzipped)' : ''
      }${notRequests(message.invalid)}.`;
      replaceChildren(results, ...charts(message));
    });
    worker.addEventListener('error', (event) => {
      finish();
      replaceChildren(results, errorBox(event.message || 'the worker failed', 'The replay stopped'));
    });
    const job: ReplayJob = { file, token: context.api.token, zoneId: context.zone.id };
    worker.postMessage(job);
  });

  return h(
    'section',
    { class: 'panel replay-view', 'aria-label': 'Replay' },
    h(
      'div',
      { class: 'panel-head' },
      h('h2', {}, 'Replay a log'),
      h(
        'span',
        { class: 'muted' },
        'sample requests or Logpush http_requests, one JSON object a line, gzipped or not',
      ),
    ),
    h(
      'p',
      { class: 'muted' },
      'Every request is simulated by the service against the zone as stored now (a hundred at a time), ',
      'as cfrules replay does with a zone file. The file is read in this page, never uploaded whole.',
    ),
    h('div', { class: 'actions' }, input, start, progress, status),
    results,
  );
}

const notRequests = (invalid: number) =>
  invalid === 0 ? '' : invalid === 1 ? ', 1 line was not a request' : `, ${invalid} lines were not requests`;

const ruleLabel = (rule: RuleTally) => rule.ref ?? rule.description ?? rule.id;
const ruleTitle = (rule: RuleTally) =>
  `${rule.stage}${rule.ruleset ? ` / ${rule.ruleset}` : ''}: ${rule.id}${rule.description ? ` "${rule.description}"` : ''}`;

function charts(done: Extract<ReplayMessage, { type: 'done' }>): HTMLElement[] {
  const { tally, buckets, problems } = done;
  const actions: Bar[] = Object.entries(tally.actions)
    .sort((a, b) => b[1] - a[1])
    .map(([action, count]) => ({ label: action, value: count, kind: action }));
  const top = (key: 'matched' | 'decided'): Bar[] =>
    [...tally.rules]
      .filter((rule) => rule[key] > 0)
      .sort((a, b) => b[key] - a[key])
      .slice(0, TOP_RULES)
      .map((rule) => ({ label: ruleLabel(rule), value: rule[key], kind: key, title: ruleTitle(rule) }));
  const figure = (id: string, title: string, chart: SVGSVGElement) =>
    h('figure', { class: 'chart-figure', id }, h('figcaption', {}, title), chart);
  return [
    h(
      'div',
      { class: 'charts' },
      figure('chart-actions', 'Final actions', barChart('Final actions', actions)),
      figure(
        'chart-matches',
        `Rules by matches (top ${TOP_RULES})`,
        barChart('Rules by matches', top('matched')),
      ),
      figure(
        'chart-decisions',
        `Rules by decisions (top ${TOP_RULES})`,
        barChart('Rules by decisions', top('decided')),
      ),
      figure(
        'chart-along',
        'Matches along the log',
        columnChart(
          'Matches along the log',
          buckets.map((bucket) => ({
            label: `lines ${bucket.firstLine}–${bucket.lastLine}`,
            total: bucket.requests,
            parts: [
              { value: bucket.matched, kind: 'matched', name: 'matched a rule' },
              { value: bucket.decided, kind: 'decided', name: 'decided (not none)' },
            ],
          })),
          [`line ${buckets[0]?.firstLine ?? 0}`, `line ${buckets[buckets.length - 1]?.lastLine ?? 0}`],
        ),
      ),
    ),
    problems.length > 0
      ? h(
          'div',
          { class: 'messages', id: 'replay-problems' },
          h('h3', {}, `Lines that are not requests (${done.invalid})`),
          h('ul', {}, ...problems.map((problem) => h('li', {}, `line ${problem.line}: ${problem.message}`))),
        )
      : h('span', {}),
  ];
}
