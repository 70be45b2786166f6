import type { RulesetTrace, RuleTrace, SimulationResult, StageTrace } from '../../src/index.js';
import { h } from './dom.js';

// A simulation's trace (src/engine/outcome.ts) as a tree: stages in Cloudflare's order, the rulesets they
// run, their rules (matched, not matched, not run and why), the OWASP score of a scored ruleset against
// its threshold, and the rule that decided. Unmatched rules of big managed rulesets are folded into a
// <details> so the matched ones stay in sight.

const ruleLabel = (rule: { ref?: string; id: string; description?: string }) =>
  rule.ref ?? (rule.description ? `${rule.id} "${rule.description}"` : rule.id);

/** What every item of the tree needs to know: the deciding rule, and the zone's score thresholds. */
interface TraceContext extends Thresholds {
  decidedBy: SimulationResult['decidedBy'];
}

/** The OWASP thresholds: those the zone sets (by the id of the ruleset executed), and the default. */
export interface Thresholds {
  thresholds: ReadonlyMap<string, number>;
  defaultThreshold: number;
}

function ruleItem(rule: RuleTrace, context: TraceContext): HTMLLIElement {
  const { decidedBy } = context;
  const deciding = decidedBy !== undefined && decidedBy.id === rule.id && rule.matched && !rule.notRun;
  const state = rule.notRun ? 'not-run' : rule.matched ? (deciding ? 'deciding' : 'matched') : 'unmatched';
  const mark = rule.notRun ? '–' : rule.matched ? '✓' : '✗';
  return h(
    'li',
    { class: `trace-rule trace-${state}`, 'data-rule': rule.ref ?? rule.id },
    h(
      'div',
      { class: 'trace-line' },
      h('span', { class: 'trace-mark', 'aria-hidden': 'true' }, mark),
      h('span', { class: 'trace-name' }, rule.ref ?? rule.id),
      rule.description &&
        rule.description !== rule.ref &&
        h('span', { class: 'trace-description' }, rule.description),
      h('span', { class: 'trace-action' }, rule.action),
      rule.score !== undefined && h('span', { class: 'trace-score' }, `+${rule.score}`),
      rule.notRun &&
        h(
          'span',
          { class: 'trace-why' },
          rule.notRun.reason.replaceAll('_', ' '),
          rule.notRun.by ? ` by ${ruleLabel(rule.notRun.by)}` : '',
        ),
      deciding && h('span', { class: 'trace-badge' }, 'decided'),
      rule.terminated && !deciding && h('span', { class: 'trace-badge' }, 'ended the stage'),
    ),
    h('code', { class: 'trace-expression' }, rule.expression),
    rule.trace && h('ul', { class: 'trace-children' }, ...entries(rule.trace, context)),
  );
}

function rulesetItem(ruleset: RulesetTrace, context: TraceContext): HTMLLIElement {
  return h(
    'li',
    { class: 'trace-ruleset' },
    h(
      'div',
      { class: 'trace-line' },
      h('span', { class: 'trace-kind' }, ruleset.kind),
      h('span', { class: 'trace-name' }, ruleset.name ?? ruleset.id),
      ruleset.score !== undefined &&
        h('span', { class: 'trace-score' }, scoreText(ruleset.score, ruleset.id, context)),
    ),
    h('ul', { class: 'trace-children' }, ...entries(ruleset.trace, context)),
  );
}

function entries(items: (RulesetTrace | RuleTrace)[], context: TraceContext): HTMLElement[] {
  const shown: HTMLElement[] = [];
  const folded: HTMLLIElement[] = [];
  for (const item of items) {
    if (item.type === 'ruleset') shown.push(rulesetItem(item, context));
    else if (item.matched || item.terminated || items.length <= 12) shown.push(ruleItem(item, context));
    else folded.push(ruleItem(item, context));
  }
  if (folded.length > 0)
    shown.push(
      h(
        'li',
        { class: 'trace-folded' },
        h(
          'details',
          {},
          h('summary', {}, `${folded.length} rules did not match or did not run`),
          h('ul', { class: 'trace-children' }, ...folded),
        ),
      ),
    );
  return shown;
}

const STATUS: Record<StageTrace['status'], string> = {
  evaluated: '',
  skipped: 'skipped',
  not_reached: 'not reached: evaluation ended before it',
  off: 'off: nothing configured, or turned off by the migration',
  no_response: 'not run: the request gives no response',
};

export function traceTree(result: SimulationResult, thresholds: Thresholds): HTMLElement {
  const decision =
    result.action === 'none' || !result.decidedBy
      ? h('div', { class: 'decision decision-none' }, 'No rule decided: the request goes on.')
      : h(
          'div',
          { class: `decision decision-${result.action}` },
          h('strong', {}, result.action),
          ' by ',
          h('code', {}, ruleLabel(result.decidedBy)),
          ` (${result.decidedBy.stage})`,
        );
  const stages = result.trace.map((stage) =>
    h(
      'li',
      { class: `trace-stage trace-stage-${stage.status}` },
      h(
        'div',
        { class: 'trace-line' },
        h('span', { class: 'trace-stage-name' }, stage.name),
        STATUS[stage.status] && h('span', { class: 'trace-why' }, STATUS[stage.status]),
        stage.skippedBy && h('span', { class: 'trace-why' }, `by ${ruleLabel(stage.skippedBy)}`),
      ),
      stage.status === 'evaluated' &&
        h(
          'ul',
          { class: 'trace-children' },
          ...entries(stage.trace, { decidedBy: result.decidedBy, ...thresholds }),
        ),
    ),
  );
  return h(
    'div',
    { class: 'trace' },
    decision,
    h('ul', { class: 'trace-tree', 'aria-label': 'Trace' }, ...stages),
  );
}

/** An OWASP ruleset's score against its threshold: the zone's override, or the engine's default. */
function scoreText(score: number, rulesetId: string, context: TraceContext): string {
  const threshold = context.thresholds.get(rulesetId) ?? context.defaultThreshold;
  return `anomaly score ${score} / threshold ${threshold}${score >= threshold ? ' (reached)' : ''}`;
}
