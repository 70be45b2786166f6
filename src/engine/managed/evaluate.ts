import type { TypedExpression } from '../../check/typed-ast.js';
import { validate } from '../../check/validate.js';
import { type CompileOptions, compile, type Filter } from '../../eval/compile.js';
import { layoutFor, RequestContext } from '../../eval/context.js';
import type { SampleRequest } from '../../request/index.js';
import type { Phase } from '../../scheme/profile.js';
import { cloudflareScheme } from '../../scheme/scheme.js';
import { type ConditionData, conditionFromData, type ValueBuilder } from '../program/condition-data.js';
import type { FilterWithCondition } from '../program/index.js';
import { cloudflareManagedRuleset, DEFAULT_SCORE_THRESHOLD, owaspCoreRuleset } from './catalogue.js';
import { catalogueConditions, catalogueValueBuilder } from './conditions.js';
import type {
  AnomalyRule,
  ManagedRule,
  ManagedRuleAction,
  ManagedRuleset,
  ParanoiaLevel,
  ScoringRule,
  SignatureRule,
} from './model.js';
import { addCatalogueRegexPlans } from './regex-plans.js';

/**
 * Runs the managed rulesets on a request the way Cloudflare documents them: the Cloudflare Managed
 * Ruleset applies the action of each matching rule (`log` goes on, any other action ends the phase), and
 * the OWASP Core Ruleset adds up the scores of the matching rules up to the chosen paranoia level and
 * blocks (or takes the anomaly rule's action) when the total reaches the threshold.
 */

/** Actions that end the evaluation of the phase: everything but `log`. */
export const isTerminating = (action: ManagedRuleAction): boolean => action !== 'log';

export interface CompiledRule<Rule extends ManagedRule> {
  readonly rule: Rule;
  readonly filter: Filter;
}

const compiledRulesets = new WeakMap<ManagedRuleset, readonly CompiledRule<ManagedRule>[]>();

/**
 * Filters by expression, shared by every ruleset of the catalogue: the Managed Ruleset reuses the detection
 * of OWASP rules (its `owasp-…` rules), and a zone that deploys both then compiles each once and matches
 * each once per request (see `rememberingLastRequest`).
 */
const filtersByExpression = new Map<string, Filter>();

/** How the catalogue's expressions are checked and compiled. */
export function catalogueOptions(phase: Phase): CompileOptions {
  // Cloudflare's own rules: the managed-only fields and functions, and no customer length limit.
  return {
    plan: 'enterprise',
    phase,
    lints: false,
    managedRuleset: true,
    maxLength: Number.POSITIVE_INFINITY,
    // The catalogue's tests check every pattern in full; every process need not parse them again.
    checkRegexes: false,
  };
}

/**
 * The rules of a ruleset with their filters, once per ruleset. Each filter is compiled the first time it
 * runs: for one request, a zone runs only the rules its index names, so a command that simulates a few
 * requests compiles a fraction of the catalogue. The index finds each rule's condition in a table worked
 * out ahead of time (./conditions.ts), so a rule's expression is not even parsed until it first runs; a
 * rule the table does not know is checked now, for the index to read its tree. An invalid expression
 * throws when it is checked, and a filter throws when it cannot be compiled: the catalogue is data shipped
 * with cfrules, and its tests check and compile every rule.
 */
export function compiledRules<Rule extends ManagedRule>(
  ruleset: ManagedRuleset<Rule>,
): readonly CompiledRule<Rule>[] {
  let compiled = compiledRulesets.get(ruleset);
  if (!compiled) {
    addCatalogueRegexPlans();
    const options = catalogueOptions(ruleset.phase);
    // The values the index tests, built from their source text once however many rules name them.
    const values = catalogueValueBuilder(options);
    compiled = ruleset.rules.map((rule) => {
      let filter = filtersByExpression.get(rule.expression);
      if (!filter) {
        const label = `${ruleset.name}: rule ${rule.id} (${rule.description})`;
        const known = catalogueConditions[rule.id];
        filter = managedFilter(
          rule.expression,
          options,
          label,
          known === undefined ? undefined : { condition: known, values },
        );
        filtersByExpression.set(rule.expression, filter);
      }
      return { rule, filter };
    });
    compiledRulesets.set(ruleset, compiled);
  }
  return compiled as readonly CompiledRule<Rule>[];
}

/**
 * A catalogue rule's filter: checked when its tree is first needed (at once without a known condition),
 * compiled on first use, and answering again for the request it matched last without matching anew (a
 * context is one request's, so the same context gets the same answer).
 */
function managedFilter(
  expression: string,
  options: CompileOptions,
  label: string,
  known: { condition: ConditionData; values: ValueBuilder } | undefined,
): Filter | FilterWithCondition {
  let ast: TypedExpression | undefined;
  const tree = (): TypedExpression => {
    if (ast) return ast;
    const checked = validate(expression, options);
    if (!checked.ok || !checked.ast) {
      const reason = checked.diagnostics.map((d) => d.message).join('; ');
      throw new Error(`${label} is invalid: ${reason}`);
    }
    ast = checked.ast;
    return ast;
  };
  if (known === undefined) tree();
  let compiled: Filter | undefined;
  const filter = (): Filter => {
    if (compiled) return compiled;
    const result = compile(tree(), options);
    if (!result.ok)
      throw new Error(`${label} does not compile: ${result.diagnostics.map((d) => d.message).join('; ')}`);
    compiled = result.filter;
    return compiled;
  };
  let lastContext: unknown;
  let lastAnswer = false;
  const managed: Filter = {
    expression: 'filter',
    get ast() {
      return tree();
    },
    get fields() {
      return filter().fields;
    },
    value: (input) => filter().value(input),
    context: (input) => filter().context(input),
    match(input) {
      if (!(input instanceof RequestContext)) return filter().match(input);
      if (input !== lastContext) {
        lastAnswer = filter().match(input);
        lastContext = input;
      }
      return lastAnswer;
    },
  };
  if (known === undefined) return managed;
  return Object.assign(managed, { knownCondition: conditionFromData(known.condition, known.values) });
}

/**
 * One request's field values, derived once and shared by every filter of the catalogue (all are compiled
 * against Cloudflare's scheme, hence one field layout).
 */
export function managedRulesContext(request: SampleRequest | RequestContext): RequestContext {
  return request instanceof RequestContext ? request : layoutFor(cloudflareScheme).context(request);
}

export interface ManagedOutcome {
  /** The action that ended the phase, if a rule with a terminating action matched. */
  readonly action?: ManagedRuleAction;
  /** The rule that took it. */
  readonly terminatingRule?: SignatureRule;
  /** Every enabled rule that matched, in order, up to and including the terminating one. */
  readonly matched: readonly SignatureRule[];
}

/** Evaluates the Cloudflare Managed Ruleset (or another signature ruleset) with its default actions. */
export function evaluateManagedRuleset(
  request: SampleRequest | RequestContext,
  ruleset: ManagedRuleset<SignatureRule> = cloudflareManagedRuleset,
): ManagedOutcome {
  const context = managedRulesContext(request);
  const matched: SignatureRule[] = [];
  for (const { rule, filter } of compiledRules(ruleset)) {
    if (!rule.enabled || !filter.match(context)) continue;
    matched.push(rule);
    if (isTerminating(rule.action)) return { action: rule.action, terminatingRule: rule, matched };
  }
  return { matched };
}

export interface OwaspSettings {
  /** Rules tagged with a higher level do not run. Default 2, as the migration sets it. */
  readonly paranoiaLevel?: ParanoiaLevel;
  /** The anomaly rule fires when the score reaches it. Default 40 ("medium"). */
  readonly scoreThreshold?: number;
  /** The anomaly rule's action. Default its own (`block`). */
  readonly action?: ManagedRuleAction;
}

export interface OwaspOutcome {
  /** Sum of the scores of the matching rules. */
  readonly score: number;
  readonly paranoiaLevel: ParanoiaLevel;
  readonly scoreThreshold: number;
  /** The scoring rules that matched, in ruleset order. */
  readonly matched: readonly ScoringRule[];
  /** The anomaly rule's action when the score reached the threshold. */
  readonly action?: ManagedRuleAction;
}

/** Scores a request with the OWASP Core Ruleset and decides as its anomaly rule does. */
export function scoreOwaspRuleset(
  request: SampleRequest | RequestContext,
  settings: OwaspSettings = {},
  ruleset: ManagedRuleset<ScoringRule | AnomalyRule> = owaspCoreRuleset,
): OwaspOutcome {
  const context = managedRulesContext(request);
  const paranoiaLevel = settings.paranoiaLevel ?? 2;
  let anomaly: AnomalyRule | undefined;
  const matched: ScoringRule[] = [];
  let score = 0;
  for (const { rule, filter } of compiledRules(ruleset)) {
    if (rule.kind === 'anomaly') {
      anomaly = rule;
    } else if (rule.paranoiaLevel <= paranoiaLevel && filter.match(context)) {
      // Setting a paranoia level turns on every rule up to it, whatever the rule's default.
      matched.push(rule);
      score += rule.score;
    }
  }
  const scoreThreshold = settings.scoreThreshold ?? anomaly?.scoreThreshold ?? DEFAULT_SCORE_THRESHOLD;
  const fires = anomaly?.enabled && score >= scoreThreshold;
  const action = fires ? (settings.action ?? anomaly?.action) : undefined;
  return { score, paranoiaLevel, scoreThreshold, matched, ...(action ? { action } : {}) };
}

export interface ManagedRulesOutcome {
  /** The action applied to the request, if any ruleset ended the phase. */
  readonly action?: ManagedRuleAction;
  readonly managed?: ManagedOutcome;
  readonly owasp?: OwaspOutcome;
}

/**
 * Both rulesets deployed in the managed phase, the Cloudflare Managed Ruleset first (the order of the
 * dashboard's default deployment): a terminating action of the first ends the phase before the second.
 * `false` leaves a ruleset out.
 */
export function evaluateManagedPhase(
  request: SampleRequest,
  deploy: { managed?: boolean; owasp?: OwaspSettings | false } = {},
): ManagedRulesOutcome {
  const context = managedRulesContext(request);
  let managed: ManagedOutcome | undefined;
  if (deploy.managed !== false) {
    managed = evaluateManagedRuleset(context);
    if (managed.action) return { action: managed.action, managed };
  }
  if (deploy.owasp === false) return managed ? { managed } : {};
  const owasp = scoreOwaspRuleset(context, deploy.owasp ?? {});
  return { ...(owasp.action ? { action: owasp.action } : {}), ...(managed ? { managed } : {}), owasp };
}
