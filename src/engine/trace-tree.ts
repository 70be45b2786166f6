import { escapeControlCharacters } from '../lang/escape.js';
import type { RuleName, RulesetTrace, RuleTrace, SimulationResult, StageTrace } from './outcome.js';

/**
 * A simulation as a tree to read: each stage, the rules that matched (and, with `verbose`, those that did
 * not), nested rulesets, and the decision on the last line. Rules that did not match or did not run are
 * counted rather than listed unless `verbose`: a managed ruleset has hundreds. Names and descriptions come
 * from the zone file: they are shown with their control characters escaped, the colours added after.
 */

export interface TraceTreeOptions {
  verbose?: boolean;
  color?: boolean;
}

const STATUS_TEXT: Record<StageTrace['status'], string> = {
  evaluated: '',
  skipped: 'skipped',
  not_reached: 'not reached (evaluation ended before it)',
  off: 'off (nothing configured, or turned off by the migration)',
  no_response: 'not run (the request gives no response)',
};

export function formatTrace(result: SimulationResult, options: TraceTreeOptions = {}): string {
  const paint = (code: string, text: string) => (options.color ? `\x1b[${code}m${text}\x1b[0m` : text);
  const lines: string[] = [];

  const ruleLine = (rule: RuleTrace, indent: string): void => {
    const label = rule.ref ?? rule.id;
    const about = rule.description && rule.description !== label ? ` "${rule.description}"` : '';
    let line = escapeControlCharacters(`${label}${about} (${rule.action})`);
    if (rule.notRun) {
      const by = rule.notRun.by ? ` by ${nameOf(rule.notRun.by)}` : '';
      lines.push(`${indent}${paint('2', `- ${line}: ${rule.notRun.reason.replaceAll('_', ' ')}${by}`)}`);
      return;
    }
    if (rule.score !== undefined) line += ` +${rule.score}`;
    if (rule.terminated)
      line += rule.action === 'allow' ? ' → ended the firewall rules' : ' → ended the evaluation';
    const mark = rule.matched ? paint(rule.terminated ? '31' : '32', '✓') : '✗';
    lines.push(`${indent}${mark} ${line}`);
    for (const detail of effectLines(rule)) lines.push(`${indent}    ${escapeControlCharacters(detail)}`);
    if (rule.unknown)
      lines.push(`${indent}    ${paint('33', escapeControlCharacters(`not simulated: ${rule.unknown}`))}`);
    if (rule.trace) items(rule.trace, `${indent}    `);
  };

  const items = (entries: (RulesetTrace | RuleTrace)[], indent: string): void => {
    let unmatched = 0;
    let notRun = 0;
    for (const entry of entries) {
      if (entry.type === 'ruleset') {
        const score = entry.score === undefined ? '' : ` (score ${entry.score})`;
        lines.push(`${indent}${escapeControlCharacters(entry.name ?? entry.id)}${score}`);
        items(entry.trace, `${indent}  `);
        continue;
      }
      const shown = options.verbose || (entry.matched && !entry.notRun) || entry.terminated;
      if (shown) ruleLine(entry, indent);
      else if (entry.notRun) notRun++;
      else unmatched++;
    }
    const hidden = [
      ...(unmatched > 0 ? [`${unmatched} did not match`] : []),
      ...(notRun > 0 ? [`${notRun} did not run`] : []),
    ];
    if (hidden.length > 0)
      lines.push(`${indent}${paint('2', `… ${hidden.join(', ')} (--verbose lists them)`)}`);
  };

  for (const stage of result.trace) {
    const status = STATUS_TEXT[stage.status];
    const by = stage.skippedBy ? ` by ${nameOf(stage.skippedBy)}` : '';
    lines.push(paint('1', stage.name) + (status ? paint('2', `: ${status}${by}`) : ''));
    if (stage.status === 'evaluated') items(stage.trace, '  ');
  }
  const decision =
    result.action === 'none'
      ? 'none: no rule decided (the request goes on)'
      : `${result.action} by ${nameOf(result.decidedBy as RuleName)} (${(result.decidedBy as RuleName).stage})`;
  lines.push(`${paint('1', 'Result')}: ${decision}`);
  if (result.redirect)
    lines.push(`  to ${escapeControlCharacters(result.redirect.url)} (${result.redirect.status})`);
  if (result.rewritten)
    lines.push(`  request as rewritten: ${escapeControlCharacters(result.rewritten.url)}`);
  if (result.response) lines.push(`  response as changed: ${result.response.status}`);
  for (const [group, settings] of Object.entries(result.settings ?? {}))
    lines.push(`  ${group} settings: ${escapeControlCharacters(JSON.stringify(settings))}`);
  return lines.join('\n');
}

/** What a Rules product's rule did: each change before → after, its settings, its redirect. */
function effectLines(rule: RuleTrace): string[] {
  const shown = (value: string | undefined) => (value === undefined ? '(none)' : JSON.stringify(value));
  return [
    ...(rule.changes ?? []).map((c) => `${c.target}: ${shown(c.before)} → ${shown(c.after)}`),
    ...(rule.settings ? [`settings: ${JSON.stringify(rule.settings)}`] : []),
    ...(rule.redirect ? [`redirect ${rule.redirect.status} to ${rule.redirect.url}`] : []),
  ];
}

const nameOf = (name: RuleName): string =>
  escapeControlCharacters(name.ref ?? (name.description ? `${name.id} "${name.description}"` : name.id));
