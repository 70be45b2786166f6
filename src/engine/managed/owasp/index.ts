import { DEFAULT_SCORE_THRESHOLD, OWASP_ANOMALY_RULE_ID, OWASP_RULESET_ID } from '../constants.js';
import { type ScoringSpec, scoringRules } from '../define.js';
import type { AnomalyRule, ManagedRuleset, ScoringRule } from '../model.js';
import { crsScoringSpec } from './crs.js';
import { INJECTION_RULES } from './legacy-injection.js';
import { PROTOCOL_RULES } from './legacy-protocol.js';
import { XSS_SQLI_RULES } from './legacy-xss-sqli.js';
import { CRS_FAMILIES } from './rules/index.js';

const anomalyRule: AnomalyRule = {
  kind: 'anomaly',
  id: OWASP_ANOMALY_RULE_ID,
  description: '949110: Inbound Anomaly Score Exceeded',
  categories: ['paranoia-level-1'],
  action: 'block',
  enabled: true,
  // Evaluated by the engine against the running total (see AnomalyRule); every request is scored.
  expression: 'true',
  scoreThreshold: DEFAULT_SCORE_THRESHOLD,
};

/** A rule's family: the first three digits of its number (942100 → 942). */
const familyOf = (number: number) => Math.floor(number / 1000);

/**
 * The families written rule for rule after the Core Rule Set (rules/), and the project's earlier rules for
 * the others, in number order.
 */
const SPECS: ScoringSpec[] = [
  ...[...PROTOCOL_RULES, ...INJECTION_RULES, ...XSS_SQLI_RULES].filter(
    (spec) => !CRS_FAMILIES.has(familyOf(spec.number)),
  ),
  ...[...CRS_FAMILIES.values()].flat().map(crsScoringSpec),
].sort((a, b) => a.number - b.number);
const SCORING_RULES = scoringRules('owasp-core', SPECS);

/** Rule ids by rule number, for data written against numbers (the previous-WAF mapping). */
export const owaspRuleIds: ReadonlyMap<number, string> = new Map(
  SPECS.map((spec, i) => [spec.number, (SCORING_RULES[i] as ScoringRule).id]),
);

export const owaspCoreRuleset: ManagedRuleset<ScoringRule | AnomalyRule> = {
  id: OWASP_RULESET_ID,
  name: 'Cloudflare OWASP Core Ruleset',
  description:
    "Anomaly-scoring rules in the manner of OWASP's Core Rule Set, written by cfrules (see docs/managed-rules.md).",
  kind: 'managed',
  phase: 'http_request_firewall_managed',
  rules: [...SCORING_RULES, anomalyRule],
};
