import type { Filter } from '../../eval/compile.js';
import type { RequestContext } from '../../eval/context.js';
import { DERIVED_FIELDS, fieldValue, type SampleRequest } from '../../request/index.js';
import type { Candidates } from '../matcher.js';
import type {
  FinalAction,
  RequestSettings,
  RuleName,
  RulesetTrace,
  RuleTrace,
  SimulationResult,
  Stage,
  StageTrace,
} from '../outcome.js';
import { RESPONSE_STAGES } from '../outcome.js';
import { evaluatePreviousWaf } from '../previous-waf/simulate.js';
import {
  applyRewrite,
  changedResponse,
  type Rewrite,
  redirectUrl,
  rewrittenRequest,
  serveError,
  sourceValue,
} from './pipeline.js';
import {
  type DeployedManagedRule,
  type FirewallRuleStep,
  type ManagedExecution,
  type RuleEffect,
  type RulesetProgram,
  type RulesetRuleStep,
  stageConfigured,
  type ZoneProgram,
} from './program.js';

/**
 * One request through a compiled zone (docs/engine.md, "How a request is evaluated"). The stages run in
 * order; a rule that ends the request leaves the later stages `not_reached`. Without a trace the same
 * decisions are taken and only the trace is not built (replay).
 */

type Items = (RulesetTrace | RuleTrace)[];

/** The fields a request's HTTP message (or response) gives; the others come from the edge. */
const DERIVED: ReadonlySet<string> = new Set(DERIVED_FIELDS);

/** Actions that end the request when a rule takes them (log, skip and execute go on). */
const ENDING = new Set(['block', 'challenge', 'js_challenge', 'managed_challenge']);

/** How a request is matched: its context, each rule's answer, and (without a trace) the candidates. */
export interface Matching {
  context: RequestContext;
  match: (index: number) => boolean;
  candidates: Candidates | undefined;
}

export class RequestRun {
  action: FinalAction = 'none';
  decidedBy?: RuleName;
  readonly matched: RuleName[] = [];
  readonly skipped: { target: string; by: RuleName }[] = [];
  // Made when a rule first skips something: most requests skip nothing, and replay runs millions of them.
  private skippedStages?: Map<Stage, RuleName>;
  private skippedRulesets?: Map<string, RuleName>;
  private skippedRules?: Map<string, RuleName>;
  /** A rule ended the request: nothing after it runs. */
  private ended = false;
  private readonly stages: StageTrace[] = [];
  private context: RequestContext;
  private match: (index: number) => boolean;
  /** Without a trace: the rules that may match; the others are passed over at once (their match is false). */
  private candidates?: Candidates;
  /** The request as the phases so far left it (a rewrite gives the later rules a new one). */
  private request: SampleRequest | undefined;
  private redirect?: { url: string; status: number };
  private settings?: RequestSettings;

  constructor(
    private readonly program: ZoneProgram,
    matching: Matching,
    /** The request of the context, when it is a sample request (rewrites need its message). */
    request: SampleRequest | undefined,
    /** Matching for a request a rule changed. */
    private readonly rematch: (request: SampleRequest) => Matching,
    private readonly tracing: boolean,
    /** The zone's filters, by index: what each rule's expression reads. */
    private readonly filters: readonly Filter[],
  ) {
    this.context = matching.context;
    this.match = matching.match;
    this.candidates = matching.candidates;
    this.request = request;
  }

  /** A rule that cannot match and leaves no trace: nothing to do for it. */
  private ruledOut(index: number): boolean {
    return this.candidates !== undefined && this.candidates.marks[index] === 0;
  }

  run(): SimulationResult {
    const { stages, configuredStages } = this.program;
    for (const stage of this.tracing ? stages : configuredStages) this.stage(stage);
    // One shape for every result (decidedBy undefined when nothing decided): replay makes millions.
    const result: SimulationResult = {
      action: this.action,
      decidedBy: this.decidedBy,
      matched: this.matched,
      skipped: this.skipped,
      trace: this.stages,
    };
    if (this.redirect) result.redirect = this.redirect;
    const rewritten = this.request && rewrittenRequest(this.request);
    if (rewritten) result.rewritten = rewritten;
    if (this.settings) result.settings = this.settings;
    const response = this.request && changedResponse(this.request);
    if (response) result.response = response;
    return result;
  }

  private stage(name: Stage): void {
    const items: Items = [];
    let status: StageTrace['status'] = 'evaluated';
    let skippedBy = this.skippedStages?.get(name);
    if (!stageConfigured(this.program, name)) status = 'off';
    else if (this.ended) status = 'not_reached';
    else if (skippedBy) status = 'skipped';
    else if (RESPONSE_STAGES.has(name) && !this.request?.response) status = 'no_response';
    else if (name === 'firewall_rules') this.firewallRules(items);
    else if (name === 'previous_waf') ({ status, by: skippedBy } = this.previousWaf(items));
    else {
      // The account's entry point first, then the zone's.
      const account = this.program.accountEntryPoints[name];
      const zone = this.program.entryPoints[name];
      if (account) this.ruleset(account, name, items);
      if (zone && !this.ended) this.ruleset(zone, name, items);
    }
    if (!this.tracing) return;
    const by = status === 'skipped' ? skippedBy : undefined;
    this.stages.push({ type: 'stage', name, status, ...(by ? { skippedBy: by } : {}), trace: items });
  }

  private matchedRule(name: RuleName): void {
    this.matched.push(name);
  }

  private decide(action: FinalAction, by: RuleName, ends: boolean): void {
    this.action = action;
    this.decidedBy = by;
    if (ends) this.ended = true;
  }

  private firewallRules(items: Items): void {
    const { firewallRules } = this.program;
    if (this.candidates === undefined) {
      for (const rule of firewallRules) if (this.firewallRule(rule, items)) return;
      return;
    }
    // A zone's firewall rules are most of its rules, and most are ruled out: only the candidates are
    // visited, in the rules' order (a bit per position, read word by word: no sort, no pass over the rest).
    const { firewallPositions: positionOf, firewallWords: words } = this.program;
    for (const index of this.candidates.indices) {
      const position = positionOf[index] as number;
      if (position >= 0) words[position >>> 5] |= 1 << (position & 31);
    }
    // Each word is cleared as it is read; a rule that ends the firewall rules (or throws) leaves the words
    // after it to clear.
    let word = 0;
    try {
      for (; word < words.length; word++) {
        let bits = words[word] as number;
        if (bits === 0) continue;
        words[word] = 0;
        while (bits !== 0) {
          const lowest = bits & -bits;
          bits ^= lowest;
          const position = (word << 5) | (31 - Math.clz32(lowest));
          if (this.firewallRule(firewallRules[position] as FirewallRuleStep, items)) return;
        }
      }
    } finally {
      if (word < words.length) words.fill(0, word);
    }
  }

  /** Runs one firewall rule; true when it ends the firewall rules. */
  private firewallRule(rule: FirewallRuleStep, items: Items): boolean {
    if (rule.paused) {
      this.trace(items, rule, false, { notRun: { reason: 'paused' } });
      return false;
    }
    if (!this.match(rule.index)) {
      this.trace(items, rule, false);
      return false;
    }
    this.matchedRule(rule.name);
    if (rule.action === 'log') {
      this.trace(items, rule, true);
    } else if (rule.action === 'bypass') {
      this.skipProducts(rule.products, rule.name);
      this.trace(items, rule, true);
    } else {
      // allow ends the firewall rules only; the others end the request.
      const endsRequest = rule.action !== 'allow';
      this.decide(rule.action as FinalAction, rule.name, endsRequest);
      this.trace(items, rule, true, { terminated: true });
      return true;
    }
    return false;
  }

  private skipProducts(products: readonly string[], by: RuleName): void {
    for (const product of products) {
      this.skipped.push({ target: product, by });
      // The previous WAF is the product `waf`; the others are not simulated (docs/engine.md).
      if (product === 'waf') this.skipStageOnce('previous_waf', by);
    }
  }

  /**
   * Runs a ruleset's rules in order and traces it as a ruleset holding them (Cloudflare Trace's phase →
   * ruleset → rule). Rules after a skip of the current ruleset are traced as skipped by it.
   */
  private ruleset(ruleset: RulesetProgram, stage: Stage, items: Items): void {
    const inner: Items = [];
    let skippedBy: RuleName | undefined;
    for (const rule of ruleset.rules) {
      if (this.ended) break;
      if (this.ruledOut(rule.index)) continue;
      if (skippedBy) {
        this.trace(inner, rule, false, { notRun: { reason: 'skipped', by: skippedBy } });
        continue;
      }
      if (!rule.enabled) {
        this.trace(inner, rule, false, { notRun: { reason: 'disabled' } });
        continue;
      }
      if (!this.match(rule.index)) {
        this.trace(inner, rule, false);
        continue;
      }
      if (rule.action === 'skip' && rule.skip) {
        this.trace(inner, rule, true);
        skippedBy = this.skip(rule, ruleset);
        continue;
      }
      if (rule.action === 'execute') {
        this.executeRule(rule, stage, inner);
        continue;
      }
      this.matchedRule(rule.name);
      if (rule.effect) {
        this.applyEffect(rule, rule.effect, inner);
        // A custom error is the response: the phase's later rules do not run.
        if (this.ended || rule.effect.kind === 'serve_error') break;
        continue;
      }
      // One request is not a rate: rate limiting rules show that they match, and never decide.
      if (ENDING.has(rule.action) && stage !== 'http_ratelimit') {
        this.decide(rule.action as FinalAction, rule.name, true);
        this.trace(inner, rule, true, { terminated: true });
        break;
      }
      this.trace(inner, rule, true);
    }
    if (this.tracing)
      items.push({
        type: 'ruleset',
        id: ruleset.id,
        ...(ruleset.name ? { name: ruleset.name } : {}),
        kind: ruleset.kind,
        trace: inner,
      });
  }

  /**
   * What a Rules product's rule does when it matches: a redirect ends the request; a rewrite gives the
   * later rules and phases the changed request; a settings rule puts its settings in effect, each key as
   * the last matching rule sets it.
   */
  private applyEffect(rule: RulesetRuleStep, effect: RuleEffect, items: Items): void {
    if (effect.kind === 'settings') {
      this.settings ??= {};
      this.settings[effect.group] = { ...this.settings[effect.group], ...effect.values };
      this.trace(items, rule, true, { settings: effect.values });
      return;
    }
    if (effect.kind === 'redirect') {
      if (!effect.target) {
        const unknown = `the entries of the Bulk Redirect list ${effect.list} are not part of the zone file: the redirect is not simulated`;
        this.trace(items, rule, true, { unknown });
        return;
      }
      const target = sourceValue(effect.target, this.context);
      if (target === undefined) {
        this.trace(items, rule, true, { unknown: 'the target URL expression has no value for this request' });
        return;
      }
      const redirect = {
        url: redirectUrl(target, this.request?.http?.query, effect.preserveQuery),
        status: effect.status,
      };
      this.redirect = redirect;
      this.decide('redirect', rule.name, true);
      this.trace(items, rule, true, { redirect, terminated: true });
      return;
    }
    const rewrite =
      this.request &&
      (effect.kind === 'serve_error'
        ? serveError(effect, this.request, this.context)
        : applyRewrite(effect, this.request, this.context));
    if (!rewrite) {
      const unknown =
        effect.kind === 'rewrite' && effect.of === 'request'
          ? 'the request has no HTTP message to rewrite'
          : 'the request gives no response';
      this.trace(items, rule, true, { unknown });
      return;
    }
    this.use(rewrite);
    const missing =
      rewrite.missing.length > 0
        ? { unknown: `no value for this request: ${rewrite.missing.join(', ')} left as they were` }
        : {};
    this.trace(items, rule, true, { changes: rewrite.changes, ...missing });
  }

  /** The request a rule changed, for the later rules: matched afresh. */
  private use(rewrite: Rewrite): void {
    if (rewrite.request === this.request) return;
    this.request = rewrite.request;
    ({
      context: this.context,
      match: this.match,
      candidates: this.candidates,
    } = this.rematch(rewrite.request));
  }

  /** Applies a skip rule that matched; the rule itself when it skips the rest of its ruleset. */
  private skip(rule: RulesetRuleStep, ruleset: RulesetProgram): RuleName | undefined {
    const skip = rule.skip as NonNullable<RulesetRuleStep['skip']>;
    this.matchedRule(rule.name);
    for (const target of skip.stages) this.skipStage(target, rule.name);
    this.skipProducts(skip.products, rule.name);
    for (const id of skip.rulesets) {
      this.skippedRulesets ??= new Map();
      this.skippedRulesets.set(id, rule.name);
      this.skipped.push({ target: id, by: rule.name });
    }
    for (const key of skip.rules) {
      this.skippedRules ??= new Map();
      this.skippedRules.set(key, rule.name);
    }
    if (!skip.currentRuleset) return undefined;
    this.skipped.push({ target: `ruleset ${ruleset.id}`, by: rule.name });
    return rule.name;
  }

  private skipStage(target: Stage, by: RuleName): void {
    this.skipStageOnce(target, by);
    this.skipped.push({ target, by });
  }

  /** The first rule to skip a stage is the one its trace names. */
  private skipStageOnce(target: Stage, by: RuleName): void {
    this.skippedStages ??= new Map();
    if (!this.skippedStages.has(target)) this.skippedStages.set(target, by);
  }

  private executeRule(rule: RulesetRuleStep, stage: Stage, items: Items): void {
    const managed = rule.executesManaged;
    const target = managed?.ruleset.id ?? rule.executesCustom?.id;
    const skippedBy = target === undefined ? undefined : this.skippedRulesets?.get(target);
    if (skippedBy) {
      this.trace(items, rule, true, { notRun: { reason: 'skipped', by: skippedBy } });
      return;
    }
    this.matchedRule(rule.name);
    const nested: Items = [];
    if (managed) this.managed(managed, nested);
    else if (rule.executesCustom) this.ruleset(rule.executesCustom, stage, nested);
    this.trace(items, rule, true, { trace: nested, ...(this.ended ? { terminated: true } : {}) });
  }

  private managed(execution: ManagedExecution, items: Items): void {
    const { ruleset } = execution;
    const inner: Items = [];
    let score = 0;
    let scoring = false;
    for (const deployed of execution.rules) {
      if (this.ended) break;
      if (this.ruledOut(deployed.index)) continue;
      const { rule } = deployed;
      const skippedBy = this.skippedRules?.get(`${ruleset.id}/${rule.id}`);
      if (skippedBy) {
        this.managedTrace(inner, deployed, false, { notRun: { reason: 'skipped', by: skippedBy } });
        continue;
      }
      if (!deployed.enabled) {
        const reason = deployed.aboveParanoiaLevel ? 'below_paranoia_level' : 'disabled';
        this.managedTrace(inner, deployed, false, { notRun: { reason } });
        continue;
      }
      if (rule.kind === 'scoring') {
        scoring = true;
        const matched = this.match(deployed.index);
        if (matched) {
          score += rule.score;
          this.matchedRule(deployed.name);
        }
        this.managedTrace(inner, deployed, matched, matched ? { score: rule.score } : {});
        continue;
      }
      // The anomaly rule matches when the score of the rules before it reaches its threshold.
      const matched =
        rule.kind === 'anomaly'
          ? score >= (deployed.scoreThreshold ?? rule.scoreThreshold) && this.match(deployed.index)
          : this.match(deployed.index);
      if (!matched) {
        this.managedTrace(inner, deployed, false);
        continue;
      }
      this.matchedRule(deployed.name);
      if (ENDING.has(deployed.action)) {
        this.decide(deployed.action as FinalAction, deployed.name, true);
        this.managedTrace(inner, deployed, true, { terminated: true });
        break;
      }
      this.managedTrace(inner, deployed, true);
    }
    if (this.tracing)
      items.push({
        type: 'ruleset',
        id: ruleset.id,
        name: ruleset.name,
        kind: ruleset.kind,
        ...(scoring ? { score } : {}),
        trace: inner,
      });
  }

  private previousWaf(items: Items): { status: StageTrace['status']; by?: RuleName } {
    const previous = this.program.previousWaf as NonNullable<ZoneProgram['previousWaf']>;
    const outcome = evaluatePreviousWaf(previous.config, previous.pageRules, this.context);
    if (outcome.offBy !== undefined) {
      const by: RuleName = { id: outcome.offBy, description: 'page rule: WAF off', stage: 'previous_waf' };
      this.skipped.push({ target: 'previous_waf', by });
      return { status: 'skipped', by };
    }
    // Turned off in the zone's settings, and no page rule turned it on for this URL.
    if (previous.config.enabled === false && outcome.trace.length === 0) return { status: 'off' };
    this.matched.push(...outcome.matched);
    if (outcome.action && outcome.decidedBy)
      this.decide(outcome.action, outcome.decidedBy, outcome.action !== 'allow');
    if (this.tracing) items.push(...outcome.trace);
    return { status: 'evaluated' };
  }

  private trace(
    items: Items,
    rule: FirewallRuleStep | RulesetRuleStep,
    matched: boolean,
    extra: Partial<RuleTrace> = {},
  ): void {
    if (!this.tracing) return;
    const { name } = rule;
    const unknownFields = extra.notRun ? [] : this.unknownFields(rule.index);
    items.push({
      type: 'rule',
      id: name.id,
      ...(name.ref ? { ref: name.ref } : {}),
      ...(name.description ? { description: name.description } : {}),
      expression: rule.expression,
      action: rule.action,
      matched,
      ...(unknownFields.length > 0 ? { unknownFields } : {}),
      ...extra,
    });
  }

  /**
   * The fields a rule read that only the edge knows (not derived from the HTTP message: the client's
   * address, bot scores, a Worker's or a Waiting Room's state…) and that the request does not give: its
   * answer rests on their being missing, which the trace says rather than leave it to be guessed.
   */
  private unknownFields(index: number): string[] {
    const request = this.request;
    const filter = this.filters[index];
    if (!request || !filter) return [];
    return filter.fields.filter((field) => !DERIVED.has(field) && fieldValue(request, field) === undefined);
  }

  private managedTrace(
    items: Items,
    deployed: DeployedManagedRule,
    matched: boolean,
    extra: Partial<RuleTrace> = {},
  ): void {
    if (!this.tracing) return;
    items.push({
      type: 'rule',
      id: deployed.rule.id,
      description: deployed.rule.description,
      expression: deployed.rule.expression,
      action: deployed.action,
      matched,
      ...extra,
    });
  }
}
