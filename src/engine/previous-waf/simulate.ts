import type { RequestContext } from '../../eval/context.js';
import { owaspCoreRuleset } from '../managed/catalogue.js';
import { compiledRules } from '../managed/evaluate.js';
import type { ScoringRule } from '../managed/model.js';
import type { FinalAction, RuleName, RulesetTrace, RuleTrace } from '../outcome.js';
import type { PageRuleEntry, PreviousWafEntry } from '../zone/model.js';
import { catalogueIndex, type PreviousWafCatalogue, SHIPPED_CATALOGUE, targetOf } from './catalogue-view.js';
import { ManagedMatches, rulesOfTarget, targetExpression } from './match-target.js';
import type { AnomalyPackage, PreviousWafPackage, PreviousWafRule } from './model.js';
import { OWASP_SENSITIVITY_TABLE } from './owasp-sensitivity.js';
import { type Decided, EffectiveSettings, type TraditionalAction } from './settings.js';
import { urlConstraintMatches } from './url-match.js';
import { pageRuleWafEffect } from './url-patterns.js';

export { checkPreviousWaf } from './check.js';

/**
 * The previous WAF (the `previous_waf` stage) on one request, as docs/engine.md describes it:
 *
 * 1. Page rules: the first active page rule (highest `priority` first) whose URL target matches is the only
 *    one that applies; WAF Off or Disable Security turns the stage off (`offBy`), WAF On turns it on even
 *    when `enabled` is false.
 * 2. `enabled: false` (and no WAF On page rule): the stage does nothing.
 * 3. The packages in catalogue order. A traditional package runs its allow rules first — one that matches
 *    lets the request through the rest of the WAF (the stage ends, with no action) — then its other rules
 *    in order: `simulate` logs and goes on, `block` and `challenge` end the stage with that action.
 * 4. The anomaly (OWASP) package scores the request with the Cloudflare OWASP Core Ruleset at the paranoia
 *    level and threshold of the migration table for its sensitivity (`off`: not run), without the new
 *    rules that replace its groups and rules that are off; its action mode acts when the score reaches the
 *    threshold (`simulate` only logs).
 *
 * A previous rule matches when one of the new managed rules that replace it matches (./match-target.ts).
 */

export interface PreviousWafOutcome {
  action?: FinalAction;
  decidedBy?: RuleName;
  matched: RuleName[];
  trace: (RulesetTrace | RuleTrace)[];
  /** The page rule (its id, or its JSON pointer in the zone file) that turned the WAF off for this URL. */
  offBy?: string;
}

const STAGE = 'previous_waf' as const;

const ruleName = (rule: PreviousWafRule): RuleName => ({
  id: rule.id,
  description: rule.description,
  stage: STAGE,
});

/** Collects what the packages decide, in evaluation order. */
class StageRun {
  readonly matched: RuleName[] = [];
  readonly trace: RulesetTrace[] = [];
  action?: FinalAction;
  decidedBy?: RuleName;
  /** A rule ended the stage (an action, or a traditional allow rule). */
  ended = false;

  outcome(): PreviousWafOutcome {
    return {
      ...(this.action ? { action: this.action } : {}),
      ...(this.decidedBy ? { decidedBy: this.decidedBy } : {}),
      matched: this.matched,
      trace: this.trace,
    };
  }
}

export function evaluatePreviousWaf(
  config: PreviousWafEntry,
  pageRules: readonly PageRuleEntry[],
  context: RequestContext,
): PreviousWafOutcome {
  return evaluatePreviousWafWith(SHIPPED_CATALOGUE, config, pageRules, context);
}

/** As evaluatePreviousWaf, on another catalogue (tests). */
export function evaluatePreviousWafWith(
  catalogue: PreviousWafCatalogue,
  config: PreviousWafEntry,
  pageRules: readonly PageRuleEntry[],
  context: RequestContext,
): PreviousWafOutcome {
  const page = applyingPageRule(pageRules, context);
  const effect = page ? pageRuleWafEffect(page.rule.actions) : undefined;
  if (effect === 'off' && page) {
    return { matched: [], trace: [], offBy: page.rule.id ?? `/page_rules/${page.index}` };
  }
  if (config.enabled === false && effect !== 'on') return { matched: [], trace: [] };
  const settings = new EffectiveSettings(config, context);
  const managed = new ManagedMatches(context);
  const run = new StageRun();
  for (const pkg of catalogue.packages) {
    const rules = catalogueIndex(catalogue).rulesByPackage.get(pkg.id) ?? [];
    if (pkg.detection_mode === 'traditional') {
      runTraditional(pkg, rules, { catalogue, settings, managed }, run);
    } else {
      runAnomaly(pkg, rules, { catalogue, settings, managed }, run);
    }
    if (run.ended) break;
  }
  return run.outcome();
}

/** The one page rule that applies to the request's URL, if any. */
function applyingPageRule(
  pageRules: readonly PageRuleEntry[],
  context: RequestContext,
): { rule: PageRuleEntry; index: number } | undefined {
  return pageRules
    .map((rule, index) => ({ rule, index }))
    .filter(({ rule }) => rule.status !== 'disabled')
    .sort((a, b) => (b.rule.priority ?? 1) - (a.rule.priority ?? 1) || a.index - b.index)
    .find(({ rule }) => {
      const constraint = rule.targets?.[0]?.constraint;
      return constraint !== undefined && urlConstraintMatches(constraint, context);
    });
}

interface Tools {
  readonly catalogue: PreviousWafCatalogue;
  readonly settings: EffectiveSettings;
  readonly managed: ManagedMatches;
}

const packageTrace = (pkg: PreviousWafPackage, trace: RuleTrace[]): RulesetTrace => ({
  type: 'ruleset',
  id: pkg.id,
  name: pkg.name,
  kind: pkg.detection_mode,
  trace,
});

function notRunTrace(
  rule: PreviousWafRule,
  action: string,
  reason: NonNullable<RuleTrace['notRun']>['reason'],
  by?: RuleName,
): RuleTrace {
  return {
    type: 'rule',
    id: rule.id,
    description: rule.description,
    expression: '',
    action,
    matched: false,
    notRun: by ? { reason, by } : { reason },
  };
}

/** Why a rule does not run: its group is off (by the zone or an override), or it is itself off. */
function offReason(rule: PreviousWafRule, { catalogue, settings }: Tools): Decided<false> | undefined {
  const group = catalogueIndex(catalogue).groupById.get(rule.group_id);
  const groupOn = group ? settings.groupOn(group) : { value: true };
  if (!groupOn.value) return { value: false, ...(groupOn.by ? { by: groupOn.by } : {}) };
  return undefined;
}

function runTraditional(
  pkg: PreviousWafPackage,
  rules: readonly PreviousWafRule[],
  tools: Tools,
  run: StageRun,
) {
  const trace: RuleTrace[] = [];
  run.trace.push(packageTrace(pkg, trace));
  // Allow rules first: one that matches lets the request past every other rule of the WAF.
  const ordered = [
    ...rules.filter((rule) => rule.kind === 'traditional-allow'),
    ...rules.filter((rule) => rule.kind !== 'traditional-allow'),
  ];
  for (const rule of ordered) {
    const action = tools.settings.traditionalAction(rule);
    const groupOff = offReason(rule, tools);
    if (groupOff) {
      trace.push(notRunTrace(rule, action.value, 'disabled', groupOff.by));
      continue;
    }
    if (action.value === 'disable') {
      trace.push(notRunTrace(rule, action.value, 'disabled', action.by));
      continue;
    }
    const target = targetOf(tools.catalogue, rule.id);
    if (target.kind === 'none') {
      trace.push(notRunTrace(rule, action.value, 'no_equivalent'));
      continue;
    }
    const matched = tools.managed.target(target);
    const ends = matched && action.value !== 'simulate';
    trace.push({
      type: 'rule',
      id: rule.id,
      description: rule.description,
      expression: targetExpression(target),
      action: action.value,
      matched,
      ...(ends ? { terminated: true } : {}),
    });
    if (!matched) continue;
    run.matched.push(ruleName(rule));
    if (ends) {
      endStage(run, rule, action.value);
      return;
    }
  }
}

function endStage(run: StageRun, rule: PreviousWafRule, action: TraditionalAction) {
  run.ended = true;
  // An allow rule ends the stage without an action: the request goes on to the origin.
  if (action === 'block' || action === 'challenge') {
    run.action = action;
    run.decidedBy = ruleName(rule);
  }
}

function runAnomaly(pkg: AnomalyPackage, rules: readonly PreviousWafRule[], tools: Tools, run: StageRun) {
  const trace: RuleTrace[] = [];
  const rulesetTrace = packageTrace(pkg, trace);
  run.trace.push(rulesetTrace);
  const { sensitivity, actionMode } = tools.settings.anomaly(pkg);
  const packageName: RuleName = { id: pkg.id, description: pkg.name, stage: STAGE };
  if (sensitivity === 'off') {
    for (const rule of rules) trace.push(notRunTrace(rule, 'off', 'disabled', packageName));
    return;
  }
  const { paranoiaLevel, scoreThreshold } = OWASP_SENSITIVITY_TABLE[sensitivity];
  const running = rules.map((rule) => ({ rule, off: isOff(rule, tools) }));
  const disabled = disabledManagedRules(pkg, running, tools);
  const scores = new Map<string, ScoringRule>();
  let total = 0;
  for (const compiled of compiledRules(owaspCoreRuleset)) {
    const { rule } = compiled;
    // The paranoia level turns on every rule up to it, whatever the rule's default.
    if (rule.kind !== 'scoring' || rule.paranoiaLevel > paranoiaLevel) continue;
    if (disabled.has(rule.id) || !tools.managed.matches(compiled)) continue;
    scores.set(rule.id, rule);
    total += rule.score;
  }
  const covered = new Set<string>();
  for (const { rule, off } of running) {
    if (off) {
      trace.push(notRunTrace(rule, 'off', 'disabled', off.by));
      continue;
    }
    const target = targetOf(tools.catalogue, rule.id);
    const replacing = rulesOfTarget(target).map(({ rule: managed }) => managed);
    if (target.kind === 'none') {
      trace.push(notRunTrace(rule, 'on', 'no_equivalent'));
      continue;
    }
    const inLevel = replacing.filter(
      (managed) => managed.kind !== 'scoring' || managed.paranoiaLevel <= paranoiaLevel,
    );
    if (inLevel.length === 0) {
      trace.push({
        ...notRunTrace(rule, 'on', 'below_paranoia_level'),
        expression: targetExpression(target),
      });
      continue;
    }
    for (const managed of replacing) covered.add(managed.id);
    const hits = replacing.filter((managed) => scores.has(managed.id));
    const score = hits.reduce((sum, managed) => sum + (scores.get(managed.id)?.score ?? 0), 0);
    trace.push({
      type: 'rule',
      id: rule.id,
      description: rule.description,
      expression: targetExpression(target),
      action: 'on',
      matched: hits.length > 0,
      score,
    });
    if (hits.length > 0) run.matched.push(ruleName(rule));
  }
  // The OWASP rules that no previous rule stands for still score, as the package's did.
  for (const managed of scores.values()) {
    if (covered.has(managed.id)) continue;
    trace.push({
      type: 'rule',
      id: managed.id,
      description: managed.description,
      expression: managed.expression,
      action: managed.action,
      matched: true,
      score: managed.score,
    });
    run.matched.push({
      id: managed.id,
      description: managed.description,
      ruleset: owaspCoreRuleset.id,
      stage: STAGE,
    });
  }
  rulesetTrace.score = total;
  decideAnomaly(
    { pkg, packageName, total, scoreThreshold, paranoiaLevel, sensitivity, actionMode },
    trace,
    run,
  );
}

/** A rule of the anomaly package that does not run, and who turned it off. */
function isOff(rule: PreviousWafRule, tools: Tools): Decided<false> | undefined {
  const groupOff = offReason(rule, tools);
  if (groupOff) return groupOff;
  const on = tools.settings.ruleOn(rule);
  return on.value ? undefined : { value: false, ...(on.by ? { by: on.by } : {}) };
}

/**
 * The new OWASP rules left out of the score: those that replace a rule that is off, and for a group that
 * is off, those of the categories that replace it (a disable wins over a rule left on elsewhere, as in the
 * migration's overrides).
 */
function disabledManagedRules(
  pkg: AnomalyPackage,
  running: readonly { rule: PreviousWafRule; off: Decided<false> | undefined }[],
  tools: Tools,
): Set<string> {
  const disabled = new Set<string>();
  const add = (id: string) => {
    for (const { rule } of rulesOfTarget(targetOf(tools.catalogue, id))) disabled.add(rule.id);
  };
  for (const group of tools.catalogue.groups) {
    if (group.package_id === pkg.id && !tools.settings.groupOn(group).value) add(group.id);
  }
  for (const { rule, off } of running) if (off) add(rule.id);
  return disabled;
}

interface AnomalyDecision {
  pkg: AnomalyPackage;
  packageName: RuleName;
  total: number;
  scoreThreshold: number;
  paranoiaLevel: number;
  sensitivity: string;
  actionMode: Decided<string>;
}

function decideAnomaly(decision: AnomalyDecision, trace: RuleTrace[], run: StageRun) {
  const { pkg, packageName, total, scoreThreshold, paranoiaLevel, sensitivity, actionMode } = decision;
  const fires = total >= scoreThreshold;
  const acts = fires && (actionMode.value === 'block' || actionMode.value === 'challenge');
  trace.push({
    type: 'rule',
    id: pkg.id,
    description: `anomaly score ${total}, threshold ${scoreThreshold} (sensitivity ${sensitivity}: paranoia level ${paranoiaLevel})`,
    expression: '',
    action: actionMode.value,
    matched: fires,
    score: total,
    ...(acts ? { terminated: true } : {}),
  });
  if (!fires || actionMode.value === 'disable') return;
  run.matched.push(packageName);
  if (acts) {
    run.ended = true;
    run.action = actionMode.value as FinalAction;
    run.decidedBy = packageName;
  }
}
