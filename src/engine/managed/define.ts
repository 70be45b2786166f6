import { projectId } from './ids.js';
import {
  type ManagedRuleAction,
  type ParanoiaLevel,
  paranoiaTag,
  type ScoringRule,
  SEVERITY_SCORES,
  type Severity,
  type SignatureRule,
} from './model.js';

/** A Managed Ruleset rule as written in the catalogue; ids and defaults are filled in by `signatureRules`. */
export interface SignatureSpec {
  /** Stable name, unique in its ruleset: the project's id derives from it, so never rename one. */
  readonly key: string;
  /** Cloudflare's published id, where there is one. */
  readonly id?: string;
  readonly description: string;
  readonly categories: readonly string[];
  /** Default `block`. */
  readonly action?: ManagedRuleAction;
  /** Default true. */
  readonly enabled?: boolean;
  readonly expression: string;
}

export function signatureRules(rulesetKey: string, specs: readonly SignatureSpec[]): SignatureRule[] {
  return specs.map((spec) => ({
    kind: 'signature',
    id: spec.id ?? projectId(`${rulesetKey}:${spec.key}`),
    description: spec.description,
    categories: spec.categories,
    action: spec.action ?? 'block',
    enabled: spec.enabled ?? true,
    expression: spec.expression,
  }));
}

/** An OWASP scoring rule as written in the catalogue. */
export interface ScoringSpec {
  /**
   * The rule's number, shown first in its description as Cloudflare does. Numbers follow the Core Rule
   * Set's numbering by attack family (920 protocol, 930 LFI, 941 XSS, 942 SQLi…); the rules are ours.
   */
  readonly number: number;
  readonly description: string;
  /** Attack categories; the paranoia-level tag is added. */
  readonly categories: readonly string[];
  readonly paranoiaLevel: ParanoiaLevel;
  readonly severity: Severity;
  readonly expression: string;
}

export function scoringRules(rulesetKey: string, specs: readonly ScoringSpec[]): ScoringRule[] {
  return specs.map((spec) => ({
    kind: 'scoring',
    id: projectId(`${rulesetKey}:${spec.number}`),
    description: `${spec.number}: ${spec.description}`,
    categories: [paranoiaTag(spec.paranoiaLevel), ...spec.categories],
    action: 'log',
    // Cloudflare deploys the ruleset at paranoia level 1: the rules of higher levels are off until a
    // category override (`paranoia-level-2`…) turns them on.
    enabled: spec.paranoiaLevel === 1,
    severity: spec.severity,
    score: SEVERITY_SCORES[spec.severity],
    paranoiaLevel: spec.paranoiaLevel,
    expression: spec.expression,
  }));
}
