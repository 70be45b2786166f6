import { cloudflareManagedRuleset, OWASP_RULESET_ID } from '../src/engine/managed/index.js';
import { attackCorpus } from '../test/engine/corpus/attacks.js';
import { ordinaryCorpus } from '../test/engine/corpus/ordinary/index.js';

/** A zone deploying both managed rulesets in the managed phase, as the managed benchmarks measure it. */
export const managedZone = {
  plan: 'enterprise',
  rulesets: [
    {
      id: 'ep',
      name: 'Zone managed rules',
      kind: 'zone',
      phase: 'http_request_firewall_managed',
      rules: [cloudflareManagedRuleset.id, OWASP_RULESET_ID].map((id, i) => ({
        id: `deploy-${i}`,
        action: 'execute',
        expression: 'true',
        action_parameters: { id },
      })),
    },
  ],
};

/** Mixed traffic: the ordinary-traffic corpus, then the attack corpus. */
export const mixedTraffic = () => [...ordinaryCorpus(), ...attackCorpus()];
