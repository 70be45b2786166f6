import type { RuleName } from '../../engine/outcome.js';
import type { Sample } from '../../engine/replay.js';
import type { Outcome, ReplayComparisonJson } from '../../engine/replay-comparison.js';
import { escapeControlCharacters } from '../../lang/escape.js';
import { plural } from '../plural.js';
import type { ReplayOutcome } from './run.js';

/** The summary of a replay, for people (text) and for scripts (JSON). */

export function replayJson(outcome: ReplayOutcome): string {
  const { tally, comparison, invalid, errors } = outcome;
  const report = {
    requests: tally.requests,
    invalid,
    actions: tally.actions,
    rules: tally.rules,
    errors,
    ...(comparison ? { comparison } : {}),
  };
  return `${JSON.stringify(report, null, 2)}\n`;
}

const count = (n: number) => n.toLocaleString('en-US');
const share = (n: number, total: number) => `${total === 0 ? '0.0' : ((100 * n) / total).toFixed(1)}%`;
const label = (rule: RuleName) =>
  rule.ref ?? (rule.description ? `${rule.id} "${rule.description}"` : rule.id);
const samplesText = (samples: readonly Sample[]) =>
  escapeControlCharacters(samples.map((sample) => `line ${sample.line} ${sample.url}`).join(', '));

/** `comparedWith`: the new zone's file name, when the outcome has a comparison. */
export function replayText(outcome: ReplayOutcome, top: number, comparedWith = ''): string {
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
  for (const rule of matched.slice(0, top))
    lines.push(
      `  ${label(rule)} [${rule.stage}]: ${count(rule.matched)} matched, ${count(rule.decided)} decided; e.g. ${samplesText(rule.samples)}`,
    );
  if (matched.length > top)
    lines.push(`  … ${matched.length - top} more (--top N shows more, --format json all)`);
  const never = tally.rules.filter((rule) => rule.matched === 0).length;
  lines.push('', `Rules that never matched: ${count(never)}`);
  if (outcome.comparison) lines.push('', ...comparisonLines(outcome.comparison, comparedWith, top));
  // Rule names and actions are the zone files', sample URLs the log's.
  return `${escapeControlCharacters(lines.join('\n'))}\n`;
}

/** `block by admin-block [firewall_rules]`, or the action alone when no rule decided. */
const outcomeText = (outcome: Outcome) =>
  outcome.decidedBy
    ? `${outcome.action} by ${escapeControlCharacters(label(outcome.decidedBy))} [${outcome.decidedBy.stage}]`
    : outcome.action;

/** The comparison with the new zone `newZone`: the totals per action in both, and the changes, the most frequent first. */
function comparisonLines(comparison: ReplayComparisonJson, newZone: string, top: number): string[] {
  const { requests, changed, changes } = comparison;
  const lines = [
    changed === 0
      ? `Compared with ${escapeControlCharacters(newZone)}: no request changes outcome`
      : `Compared with ${escapeControlCharacters(newZone)}: ${count(changed)} of ${plural(requests, 'request', count(requests))} ${changed === 1 ? 'changes' : 'change'} outcome (${share(changed, requests)})`,
    '',
  ];
  const actions = Object.entries(comparison.actions);
  const width = Math.max(...actions.map(([action]) => action.length), 'Final actions'.length - 2);
  lines.push(
    `${'Final actions'.padEnd(width + 2)}  ${'old'.padStart(10)}  ${'new'.padStart(10)}  ${'change'.padStart(10)}`,
  );
  for (const [action, n] of actions) {
    const difference = n.new - n.old;
    const shown = difference === 0 ? '' : `${difference > 0 ? '+' : '-'}${count(Math.abs(difference))}`;
    lines.push(
      `  ${action.padEnd(width)}  ${count(n.old).padStart(10)}  ${count(n.new).padStart(10)}  ${shown.padStart(10)}`.trimEnd(),
    );
  }
  if (changes.length === 0) return lines;
  lines.push('', `Changes (${changes.length}), by requests: old → new, requests, first requests`);
  for (const change of changes.slice(0, top))
    lines.push(
      `  ${outcomeText(change.from)} → ${outcomeText(change.to)}: ${count(change.requests)} (${share(change.requests, requests)}); e.g. ${samplesText(change.samples)}`,
    );
  if (changes.length > top)
    lines.push(`  … ${changes.length - top} more (--top N shows more, --format json all)`);
  return lines;
}
