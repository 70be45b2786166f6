import { compile, type Filter } from '../../eval/compile.js';
import { FRAME_WIDTH, formatDiagnostic } from '../../lang/diagnostics.js';
import {
  BYPASS_PRODUCTS,
  isRulesetPhase,
  PHASE_ACTIONS,
  RULESET_PHASES,
  type RulesetPhase,
  SKIPPABLE_PHASES,
} from '../../scheme/actions.js';
import type { Phase, Plan } from '../../scheme/profile.js';
import { findManagedRuleset } from '../managed/catalogue.js';
import { compiledRules } from '../managed/evaluate.js';
import { deployedSettings, type ExecuteOverrides } from '../managed/overrides.js';
import { type RuleMatcher, ruleByRuleMatcher } from '../matcher.js';
import { RULES_PRODUCT_STAGES, type RuleName, STAGES, type Stage } from '../outcome.js';
import { checkPreviousWaf } from '../previous-waf/simulate.js';
import { indexedMatcher } from '../program/index.js';
import { compareFirewallRules } from './firewall-order.js';
import type { FirewallRuleEntry, RulesetEntry, RulesetRuleEntry, ZoneFile } from './model.js';
import { type EffectReader, readEffect } from './pipeline.js';
import {
  type FirewallRuleStep,
  type ManagedExecution,
  type RulesetProgram,
  type RulesetRuleStep,
  type SkipTargets,
  stageConfigured,
  type ZoneProgram,
} from './program.js';
import { readZone } from './read.js';
import { isObject, segment } from './shape.js';
import type { CompileZoneOptions, ZoneProblem } from './types.js';

/**
 * Compiles a zone file into a ZoneProgram: checks what the shape cannot (expressions in their plan and
 * phase, actions per phase, what execute and skip name), orders the firewall rules, resolves managed
 * overrides, and puts every expression in one list of filters for the matcher.
 */

export interface CompiledProgram {
  program: ZoneProgram;
  rules: RuleName[];
  filters: Filter[];
  matcher: RuleMatcher;
  /** What the zone holds that is not simulated (entry points of phases the engine does not run yet). */
  warnings: ZoneProblem[];
}

/** The one place that picks how rule expressions are matched (the indexed program, or rule by rule). */
export function matcherFor(
  filters: readonly Filter[],
  options: CompileZoneOptions,
  neverRun: ReadonlySet<number> = new Set(),
): RuleMatcher {
  return options.matcher === 'rule-by-rule' ? ruleByRuleMatcher(filters) : indexedMatcher(filters, neverRun);
}

/** Filter index → position among the firewall rules (-1: not a firewall rule's, or invalid). */
function positionsOf(firewallRules: readonly FirewallRuleStep[], filters: number): Int32Array {
  const positions = new Int32Array(filters).fill(-1);
  firewallRules.forEach((rule, position) => {
    if (rule.index >= 0) positions[rule.index] = position;
  });
  return positions;
}

export function compileProgram(
  json: unknown,
  options: CompileZoneOptions = {},
): { ok: true; compiled: CompiledProgram } | { ok: false; problems: ZoneProblem[] } {
  const read = readZone(json);
  if (!read.ok) return read;
  return new ZoneCompiler(read.zone, options).run();
}

/** Whose rulesets: the zone file's own (`rulesets`), or its account's (`account_rulesets`). */
interface Owner {
  key: 'rulesets' | 'account_rulesets';
  name: string;
  /** The kind of its entry points. */
  entryKind: 'zone' | 'root';
}
const ZONE: Owner = { key: 'rulesets', name: 'zone file', entryKind: 'zone' };
const ACCOUNT: Owner = { key: 'account_rulesets', name: 'account', entryKind: 'root' };
const customKey = (owner: Owner, id: string) => `${owner.key}/${id}`;

class ZoneCompiler {
  readonly problems: ZoneProblem[] = [];
  readonly warnings: ZoneProblem[] = [];
  readonly rules: RuleName[] = [];
  readonly filters: Filter[] = [];
  /**
   * The filters of rules that never run whatever the request: paused firewall rules, disabled ruleset
   * rules, managed rules the deployment leaves off (the OWASP rules above its paranoia level: 151 of 330).
   * The engine traces them without matching them, so the index leaves them out: no piece, literal or
   * candidate of theirs costs a request anything.
   */
  private readonly neverRun = new Set<number>();
  readonly plan: Plan;
  private readonly ids = new Map<string, string>();
  /** Custom rulesets by owner and id: the zone's execute its own, the account's entry points the account's. */
  private readonly customRulesets = new Map<string, { entry: RulesetEntry; path: string }>();
  /** Custom rulesets being compiled, to refuse execute cycles. */
  private readonly compiling = new Set<string>();
  /** Custom rulesets compiled, once each however many rules execute them. */
  private readonly compiledCustom = new Map<string, RulesetProgram>();
  /** The effect reader of the rule being compiled (its expressions are compiled for its phase). */
  private effectReader(phase: Phase): EffectReader {
    return {
      problem: (path, code, message) => this.problem(path, code, message),
      rewriteExpression: (source, path) => this.rewriteExpression(source, phase, path),
    };
  }

  constructor(
    readonly zone: ZoneFile,
    readonly options: CompileZoneOptions,
  ) {
    this.plan = zone.plan ?? 'enterprise';
  }

  run(): { ok: true; compiled: CompiledProgram } | { ok: false; problems: ZoneProblem[] } {
    const firewallRules = this.firewallRules();
    const accountEntryPoints = this.entryPoints(ACCOUNT);
    const entryPoints = this.entryPoints(ZONE);
    const migration = this.zone.waf_migration;
    const program: ZoneProgram = {
      // The Rules products' stages appear only when the zone has them.
      stages: STAGES.filter(
        (stage) => !RULES_PRODUCT_STAGES.has(stage) || entryPoints[stage] || accountEntryPoints[stage],
      ),
      configuredStages: [],
      firewallRules,
      firewallPositions: positionsOf(firewallRules, this.filters.length),
      firewallWords: new Uint32Array((firewallRules.length + 31) >>> 5),
      entryPoints,
      accountEntryPoints,
      newWaf: migration === undefined || migration.new_waf_status === 'enabled',
      ...(this.zone.name !== undefined ? { zoneName: this.zone.name } : {}),
    };
    const previousWafOn =
      this.zone.previous_waf !== undefined &&
      (migration === undefined || migration.old_waf_status === 'enabled');
    if (previousWafOn && this.zone.previous_waf) {
      program.previousWaf = { config: this.zone.previous_waf, pageRules: this.zone.page_rules ?? [] };
    }
    program.configuredStages = program.stages.filter((stage) => stageConfigured(program, stage));
    this.problems.push(...checkPreviousWaf(this.zone.previous_waf, this.zone.page_rules));
    if (this.problems.length > 0) return { ok: false, problems: this.problems };
    const matcher = matcherFor(this.filters, this.options, this.neverRun);
    const compiled = { program, rules: this.rules, filters: this.filters, matcher, warnings: this.warnings };
    return { ok: true, compiled };
  }

  private problem(path: string, code: string, message: string, expression?: ZoneProblem['expression']): void {
    this.problems.push({ path, code, message, ...(expression ? { expression } : {}) });
  }

  /** A rule id used twice would make test files and replay counts ambiguous. */
  private claimId(id: string | undefined, path: string): void {
    if (id === undefined || id === '') return;
    const first = this.ids.get(id);
    if (first !== undefined)
      this.problem(`${path}/id`, 'duplicate-id', `the id ${id} is also used at ${first}`);
    else this.ids.set(id, path);
  }

  /** Compiles an expression in its plan and phase; its index in the filters, or -1 when invalid. */
  private expression(source: string, phase: Phase, path: string, name: RuleName): number {
    const filter = this.compiled(source, phase, path, 'filter');
    return filter ? this.add(name, filter) : -1;
  }

  /** A rewrite expression (an action parameter's value) compiled for its phase; undefined when invalid. */
  private rewriteExpression(source: string, phase: Phase, path: string): Filter | undefined {
    return this.compiled(source, phase, path, 'rewrite');
  }

  private compiled(
    source: string,
    phase: Phase,
    path: string,
    expression: 'filter' | 'rewrite',
  ): Filter | undefined {
    const result = compile(source, {
      plan: this.plan,
      phase,
      expression,
      lints: false,
      ...(this.options.regexEngine ? { regexEngine: this.options.regexEngine } : {}),
    });
    if (!result.ok) {
      const errors = result.diagnostics.filter((d) => d.severity === 'error');
      this.problem(
        path,
        'invalid-expression',
        errors
          .map((diagnostic) => formatDiagnostic(source, diagnostic, { maxWidth: FRAME_WIDTH }))
          .join('\n'),
        { source, errors },
      );
      return undefined;
    }
    return result.filter;
  }

  private add(name: RuleName, filter: Filter): number {
    this.rules.push(name);
    this.filters.push(filter);
    return this.filters.length - 1;
  }

  private firewallRules(): FirewallRuleStep[] {
    const steps: (FirewallRuleStep & { priority: number | null; order: number })[] = [];
    (this.zone.firewall_rules ?? []).forEach((rule: FirewallRuleEntry, order) => {
      const path = `/firewall_rules/${order}`;
      this.claimId(rule.id, path);
      const name: RuleName = {
        id: rule.id ?? rule.ref ?? path,
        ...(rule.ref ? { ref: rule.ref } : {}),
        ...(rule.description ? { description: rule.description } : {}),
        stage: 'firewall_rules',
      };
      for (const [i, product] of (rule.products ?? []).entries()) {
        if (!(BYPASS_PRODUCTS as readonly string[]).includes(product))
          this.problem(
            `${path}/products/${i}`,
            'invalid-value',
            `expected one of ${BYPASS_PRODUCTS.join(', ')}`,
          );
      }
      const index = this.expression(
        rule.filter.expression,
        'firewall_rules',
        `${path}/filter/expression`,
        name,
      );
      const paused = rule.paused === true || rule.filter.paused === true;
      if (paused) this.neverRun.add(index);
      steps.push({
        index,
        name,
        expression: rule.filter.expression,
        action: rule.action,
        paused,
        products: rule.action === 'bypass' ? (rule.products ?? []) : [],
        priority: rule.priority ?? null,
        order,
      });
    });
    // Priority ascending, rules without one after; ties by action precedence, then file order.
    steps.sort((a, b) => compareFirewallRules(a, b) || a.order - b.order);
    return steps.map(({ priority: _priority, order: _order, ...step }) => step);
  }

  /** The entry points of the zone's rulesets or of its account's, and the custom rulesets they execute. */
  private entryPoints(owner: Owner): ZoneProgram['entryPoints'] {
    const rulesets = this.zone[owner.key] ?? [];
    const entries: { entry: RulesetEntry; path: string }[] = [];
    rulesets.forEach((entry, i) => {
      const path = `/${owner.key}/${i}`;
      this.claimId(entry.id, path);
      if (!isRulesetPhase(entry.phase)) {
        this.problem(
          `${path}/phase`,
          'unsupported-phase',
          `cfrules keeps rulesets of the phases ${RULESET_PHASES.join(', ')}; got ${entry.phase}`,
        );
        return;
      }
      if (entry.kind === 'custom') this.customRulesets.set(customKey(owner, entry.id), { entry, path });
      else if (entry.kind === owner.entryKind) entries.push({ entry, path });
      else
        this.problem(
          `${path}/kind`,
          'invalid-value',
          `${owner.key} holds entry points (${owner.entryKind}) and custom rulesets`,
        );
    });
    const result: ZoneProgram['entryPoints'] = {};
    for (const { entry, path } of entries) {
      const stage = entry.phase as Stage;
      if (result[stage]) {
        this.problem(
          `${path}/phase`,
          'duplicate-entry-point',
          `the ${owner.name} has two entry points for ${entry.phase}`,
        );
        this.ruleset(entry, path, owner); // checked all the same: its mistakes are reported too
        continue;
      }
      result[stage] = this.ruleset(entry, path, owner);
    }
    // Rulesets no entry point executes are checked all the same: a mistake in them is still a mistake.
    for (const [key, { entry }] of this.customRulesets)
      if (key === customKey(owner, entry.id)) this.customRuleset(owner, entry.id);
    return result;
  }

  private ruleset(entry: RulesetEntry, path: string, owner: Owner): RulesetProgram {
    return {
      id: entry.id,
      ...(entry.name ? { name: entry.name } : {}),
      kind: entry.kind,
      rules: entry.rules.map((rule, i) => this.rulesetRule(entry, rule, `${path}/rules/${i}`, owner)),
    };
  }

  private rulesetRule(
    ruleset: RulesetEntry,
    rule: RulesetRuleEntry,
    path: string,
    owner: Owner,
  ): RulesetRuleStep {
    const phase = ruleset.phase as RulesetPhase;
    this.claimId(rule.id, path);
    const name: RuleName = {
      id: rule.id ?? rule.ref ?? path,
      ...(rule.ref ? { ref: rule.ref } : {}),
      ...(rule.description ? { description: rule.description } : {}),
      ruleset: ruleset.id,
      stage: phase,
    };
    // The account's entry points deploy rulesets, as the API has them: its custom rulesets with execute
    // (and, in the managed phase, managed rulesets with execute and skip). At zone level, custom rulesets
    // run from the custom rules' entry point (the zone file's addition to what the API stores).
    const allowed: readonly string[] =
      owner === ACCOUNT
        ? ruleset.kind === 'root' && phase !== 'http_request_firewall_managed'
          ? ['execute']
          : PHASE_ACTIONS[phase]
        : phase === 'http_request_firewall_custom'
          ? [...PHASE_ACTIONS[phase], 'execute']
          : PHASE_ACTIONS[phase];
    if (!allowed.includes(rule.action)) {
      this.problem(
        `${path}/action`,
        'invalid-value',
        `the ${phase} phase allows the actions ${allowed.join(', ')}`,
      );
    }
    const index = this.expression(rule.expression, phase, `${path}/expression`, name);
    const step: RulesetRuleStep = {
      index,
      name,
      expression: rule.expression,
      action: rule.action,
      enabled: rule.enabled !== false,
    };
    if (!step.enabled) this.neverRun.add(index);
    const parameters = rule.action_parameters ?? {};
    const parametersPath = `${path}/action_parameters`;
    if (rule.action === 'skip') step.skip = this.skipTargets(parameters, parametersPath, phase);
    if (rule.action === 'execute') this.execute(step, phase, parameters, parametersPath, owner);
    const effect = allowed.includes(rule.action)
      ? readEffect(rule.action, phase, parameters, parametersPath, this.effectReader(phase))
      : undefined;
    if (effect) step.effect = effect;
    if (effect?.kind === 'redirect' && effect.list !== undefined)
      this.warnings.push({
        path: `${parametersPath}/from_list`,
        code: 'not-simulated',
        message: `the entries of the Bulk Redirect list ${effect.list} are not part of the zone file: its redirects are not simulated`,
      });
    return step;
  }

  private skipTargets(parameters: Record<string, unknown>, path: string, phase: string): SkipTargets {
    const strings = (key: string): string[] => {
      const value = parameters[key];
      if (value === undefined) return [];
      if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return value;
      this.problem(`${path}/${key}`, 'invalid-value', 'expected an array of strings');
      return [];
    };
    const rules: string[] = [];
    if (parameters.rules !== undefined) {
      if (!isObject(parameters.rules))
        this.problem(`${path}/rules`, 'invalid-value', 'expected {"<ruleset id>": ["<rule id>", …]}');
      else
        for (const [rulesetId, ids] of Object.entries(parameters.rules)) {
          if (!Array.isArray(ids))
            this.problem(
              `${path}/rules${segment(rulesetId)}`,
              'invalid-value',
              'expected an array of rule ids',
            );
          else for (const id of ids) rules.push(`${rulesetId}/${String(id)}`);
        }
    }
    // Custom rules skip what comes after them; rules of the managed phase skip managed rulesets or rules.
    const known =
      phase === 'http_request_firewall_managed'
        ? ['ruleset', 'rulesets', 'rules']
        : ['ruleset', 'phases', 'products'];
    for (const key of Object.keys(parameters)) {
      if (!known.includes(key))
        this.problem(
          `${path}${segment(key)}`,
          'unknown-key',
          `unknown key '${key}' (known: ${known.join(', ')})`,
        );
    }
    if (parameters.ruleset !== undefined && parameters.ruleset !== 'current')
      this.problem(`${path}/ruleset`, 'invalid-value', 'the only value is "current"');
    const stages = strings('phases');
    stages.forEach((stage, i) => {
      if (!(SKIPPABLE_PHASES as readonly string[]).includes(stage))
        this.problem(
          `${path}/phases/${i}`,
          'invalid-value',
          `expected one of ${SKIPPABLE_PHASES.join(', ')}`,
        );
    });
    const products = strings('products');
    products.forEach((product, i) => {
      if (!(BYPASS_PRODUCTS as readonly string[]).includes(product))
        this.problem(
          `${path}/products/${i}`,
          'invalid-value',
          `expected one of ${BYPASS_PRODUCTS.join(', ')}`,
        );
    });
    return {
      currentRuleset: parameters.ruleset === 'current',
      stages: stages as Stage[],
      products,
      rulesets: strings('rulesets'),
      rules,
    };
  }

  private execute(
    step: RulesetRuleStep,
    phase: string,
    parameters: Record<string, unknown>,
    path: string,
    owner: Owner,
  ): void {
    const id = parameters.id;
    if (typeof id !== 'string') {
      this.problem(`${path}/id`, 'missing-key', 'execute needs the id of the ruleset to run');
      return;
    }
    const managed = findManagedRuleset(id);
    if (managed) {
      if (phase !== 'http_request_firewall_managed')
        this.problem(
          `${path}/id`,
          'invalid-value',
          'managed rulesets run in the http_request_firewall_managed phase',
        );
      step.executesManaged = this.managedExecution(managed.id, parameters.overrides, `${path}/overrides`);
      return;
    }
    const custom = this.customRulesets.get(customKey(owner, id));
    if (!custom) {
      this.problem(
        `${path}/id`,
        'unknown-ruleset',
        `no custom ruleset of the ${owner.name} nor managed ruleset has the id ${id}`,
      );
      return;
    }
    if (custom.entry.phase !== phase) {
      this.problem(
        `${path}/id`,
        'invalid-value',
        `the ruleset ${id} is of the ${custom.entry.phase} phase, not ${phase}`,
      );
      return;
    }
    if (this.compiling.has(customKey(owner, id))) {
      this.problem(
        `${path}/id`,
        'execute-cycle',
        `the ruleset ${id} executes itself (through the rulesets it executes)`,
      );
      return;
    }
    step.executesCustom = this.customRuleset(owner, id);
  }

  /** A custom ruleset, compiled once however many rules execute it. */
  private customRuleset(owner: Owner, id: string): RulesetProgram | undefined {
    const key = customKey(owner, id);
    const custom = this.customRulesets.get(key);
    if (!custom) return undefined;
    let program = this.compiledCustom.get(key);
    if (!program) {
      this.compiling.add(key);
      program = this.ruleset(custom.entry, custom.path, owner);
      this.compiling.delete(key);
      this.compiledCustom.set(key, program);
    }
    return program;
  }

  private managedExecution(
    rulesetId: string,
    overrides: unknown,
    path: string,
  ): ManagedExecution | undefined {
    const ruleset = findManagedRuleset(rulesetId);
    if (!ruleset) return undefined;
    if (overrides !== undefined && !isObject(overrides)) {
      this.problem(path, 'invalid-value', 'expected an object: {action?, enabled?, categories?, rules?}');
      return undefined;
    }
    const read = (overrides ?? {}) as ExecuteOverrides;
    const knownRules = new Set(ruleset.rules.map((rule) => rule.id));
    const knownCategories = new Set(ruleset.rules.flatMap((rule) => rule.categories));
    (read.rules ?? []).forEach((override, i) => {
      if (!knownRules.has(override.id))
        this.problem(
          `${path}/rules/${i}/id`,
          'unknown-rule',
          `the ${ruleset.name} has no rule ${override.id}`,
        );
    });
    (read.categories ?? []).forEach((override, i) => {
      if (!knownCategories.has(override.category))
        this.problem(
          `${path}/categories/${i}/category`,
          'unknown-category',
          `the ${ruleset.name} has no rule in the category ${override.category}`,
        );
    });
    const rules = compiledRules(ruleset).map(({ rule, filter }) => {
      const settings = deployedSettings(rule, read);
      const name: RuleName = {
        id: rule.id,
        description: rule.description,
        ruleset: ruleset.id,
        stage: 'http_request_firewall_managed',
      };
      const index = this.add(name, filter);
      if (!settings.enabled) this.neverRun.add(index);
      return { index, name, rule, ...settings };
    });
    return { ruleset, rules };
  }
}
