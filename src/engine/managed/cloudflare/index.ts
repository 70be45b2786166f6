import { CLOUDFLARE_MANAGED_RULESET_ID } from '../constants.js';
import { signatureRules } from '../define.js';
import type { ManagedRuleset, SignatureRule } from '../model.js';
import { ATTACK_RULES } from './attacks.js';
import { GENERIC_RULES } from './generic.js';
import { PROBE_RULES } from './probes.js';
import { PRODUCT_RULES } from './products.js';

// Rules naming a product or a CVE first, so that the rule that decides says the most it can.
const SPECS = [...GENERIC_RULES, ...PRODUCT_RULES, ...PROBE_RULES, ...ATTACK_RULES];
const RULES = signatureRules('cloudflare-managed', SPECS);

export const cloudflareManagedRuleset: ManagedRuleset<SignatureRule> = {
  id: CLOUDFLARE_MANAGED_RULESET_ID,
  name: 'Cloudflare Managed Ruleset',
  description:
    'Rules against common attacks and known vulnerabilities of popular software, written by cfrules (see docs/managed-rules.md).',
  kind: 'managed',
  phase: 'http_request_firewall_managed',
  rules: RULES,
};

/** Rule ids by the catalogue's stable keys, for data written against keys (the previous-WAF mapping). */
export const cloudflareManagedRuleIds: ReadonlyMap<string, string> = new Map(
  SPECS.map((spec, i) => [spec.key, (RULES[i] as SignatureRule).id]),
);
