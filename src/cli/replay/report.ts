import type { RuleTally } from '../../engine/replay.js';
import { escapeControlCharacters } from '../../lang/escape.js';
import type { ReplayOutcome } from './run.js';

/** The summary of a replay, for people (text) and for scripts (JSON). */

export function replayJson(outcome: ReplayOutcome): string {
  const { tally, invalid, errors } = outcome;
  return `${JSON.stringify({ requests: tally.requests, invalid, actions: tally.actions, rules: tally.rules, errors }, null, 2)}\n`;
}

const count = (n: number) => n.toLocaleString('en-US');
const share = (n: number, total: number) => `${total === 0 ? '0.0' : ((100 * n) / total).toFixed(1)}%`;
const label = (rule: RuleTally) =>
  rule.ref ?? (rule.description ? `${rule.id} "${rule.description}"` : rule.id);

export function replayText(outcome: ReplayOutcome, top: number): string {
  const { tally, invalid } = outcome;
  const lines = [
    `Requests: ${count(tally.requests)}${invalid > 0 ? ` (and ${count(invalid)} invalid lines, not replayed)` : ''}`,
    '',
    'Final actions:',
  ];
  const actions = Object.entries(tally.actions).sort((a, b) => b[1] - a[1]);
  const width = Math.max(...actions.map(([action]) => action.length), 4);
  for (const [action, n] of actions)
    lines.push(
      `  ${action.padEnd(width)}  ${count(n).padStart(10)}  ${share(n, tally.requests).padStart(6)}`,
    );
  const matched = tally.rules
    .filter((rule) => rule.matched > 0)
    .sort((a, b) => b.matched - a.matched || b.decided - a.decided);
  lines.push('', `Rules that matched (${matched.length}), by matches: matched, decided, first requests`);
  for (const rule of matched.slice(0, top)) {
    const samples = rule.samples.map((sample) => `line ${sample.line} ${sample.url}`).join(', ');
    lines.push(
      `  ${label(rule)} [${rule.stage}]: ${count(rule.matched)} matched, ${count(rule.decided)} decided; e.g. ${samples}`,
    );
  }
  if (matched.length > top)
    lines.push(`  … ${matched.length - top} more (--top N shows more, --format json all)`);
  const never = tally.rules.filter((rule) => rule.matched === 0).length;
  lines.push('', `Rules that never matched: ${count(never)}`);
  // Rule names and actions are the zone file's, sample URLs the log's.
  return `${escapeControlCharacters(lines.join('\n'))}\n`;
}
