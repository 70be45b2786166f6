import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compileZone, type SimulationResult } from '../../src/engine/index.js';
import {
  CLOUDFLARE_MANAGED_RULESET_ID,
  cloudflareManagedRuleset,
  compiledRules,
  evaluateManagedRuleset,
  isTerminating,
  type ManagedRuleAction,
  managedRulesContext,
  OWASP_RULESET_ID,
  type OwaspSettings,
  owaspCoreRuleset,
  type ParanoiaLevel,
  type ScoringRule,
  type SignatureRule,
  scoreOwaspRuleset,
} from '../../src/engine/managed/index.js';
import type { RequestContext } from '../../src/eval/context.js';
import { formatRequestProblem, readSampleRequest, type SampleRequest } from '../../src/request/index.js';
import type { Entry, SampleRequestJson } from './corpus/http.js';
import { BORDERLINE_KINDS, ordinaryCorpus } from './corpus/ordinary/index.js';
import { DEPLOYMENTS, type Deployment } from './measure.js';

/**
 * Ordinary traffic (test/engine/corpus/ordinary/) through the managed rulesets: the share of requests
 * stopped by each deployment of measure.ts and by a zone that deploys both rulesets without overrides (as
 * `cfrules simulate` runs a zone file), and which rules fire on ordinary requests, with examples of the
 * values they fire on. The figures are in ordinary-traffic.md beside this file;
 * `UPDATE_ORDINARY_TRAFFIC=1 npx vitest run test/engine/ordinary-traffic.test.ts` rewrites it.
 *
 * Borderline requests (kinds `borderline-*`: a developer's question about SQL injection, a script with
 * `rm -rf`) are real traffic of some sites but are counted apart: the 0.5% budget is for the rest.
 */

// ---------------------------------------------------------------------------------------------------------
// The known offenders.
//
// The budget is at most 0.5% of ordinary traffic stopped by both rulesets deployed with their defaults.
/**
 * Rules that stop ordinary requests deployed by default, with how many: none. A rule that starts to is
 * either made stricter or listed here with the requests it stops and why, so that the test fails when
 * things get worse and when an offender is fixed.
 */
const KNOWN_OFFENDERS: Readonly<Record<string, number>> = {};
// ---------------------------------------------------------------------------------------------------------

/** At most this share of ordinary (non-borderline) traffic may be stopped by both rulesets' defaults. */
const BUDGET = 0.005;

const REPORT = new URL('./ordinary-traffic.md', import.meta.url);

interface ReadEntry extends Omit<Entry, 'request'> {
  readonly json: SampleRequestJson;
  readonly request: SampleRequest;
  readonly borderline: boolean;
}

const corpus = ordinaryCorpus();
const problems: string[] = [];
const entries: ReadEntry[] = [];
for (const entry of corpus) {
  const result = readSampleRequest(entry.request);
  if (!result.ok) problems.push(`${entry.name}: ${result.problems.map(formatRequestProblem).join('; ')}`);
  else
    entries.push({
      name: entry.name,
      kind: entry.kind,
      json: entry.request,
      request: result.request,
      borderline: BORDERLINE_KINDS.has(entry.kind),
    });
}

/** Both rulesets executed in the managed phase, without overrides: each with its defaults. */
/** The OWASP rules of every paranoia level turned on (the ruleset deploys at level 1). */
const EVERY_LEVEL = {
  categories: [2, 3, 4].map((level) => ({ category: `paranoia-level-${level}`, enabled: true })),
};

const DEFAULT_ZONE = {
  plan: 'enterprise',
  rulesets: [
    {
      id: '5f0c5bb6a64e4d3e9f1b2c3d4e5f6a7b',
      name: 'Zone managed rules',
      description: 'Both managed rulesets with their defaults',
      kind: 'zone',
      phase: 'http_request_firewall_managed',
      rules: [
        {
          id: '0b6f3c2d1e0f4a5b8c7d6e5f4a3b2c1d',
          ref: 'cloudflare-managed',
          description: 'Cloudflare Managed Ruleset',
          action: 'execute',
          expression: 'true',
          enabled: true,
          action_parameters: { id: CLOUDFLARE_MANAGED_RULESET_ID },
        },
        {
          id: '9a8b7c6d5e4f4a3b2c1d0e9f8a7b6c5d',
          ref: 'owasp-core',
          description: 'Cloudflare OWASP Core Ruleset',
          action: 'execute',
          expression: 'true',
          enabled: true,
          action_parameters: { id: OWASP_RULESET_ID, overrides: EVERY_LEVEL },
        },
      ],
    },
  ],
};
const EVERY_LEVEL_ZONE_LABEL = 'Both rulesets in a zone, OWASP at every paranoia level';

/**
 * Both rulesets as a zone deploys them without overrides: the Managed Ruleset's defaults, OWASP at paranoia
 * level 1 (its rules of higher levels are off until turned on) and threshold 40.
 */
const DEFAULT_DEPLOYMENT: Deployment = {
  label: 'Both rulesets deployed without overrides',
  managed: true,
  owasp: { paranoiaLevel: 1, scoreThreshold: 40 },
};

const compiled = compileZone(DEFAULT_ZONE);
if (!compiled.ok) throw new Error(compiled.problems.map((p) => `${p.path}: ${p.message}`).join('\n'));
const zone = compiled.zone;
const withoutOverrides = compileZone({
  ...DEFAULT_ZONE,
  rulesets: DEFAULT_ZONE.rulesets.map((ruleset) => ({
    ...ruleset,
    rules: ruleset.rules.map((rule) => ({ ...rule, action_parameters: { id: rule.action_parameters.id } })),
  })),
});
if (!withoutOverrides.ok) throw new Error('the zone without overrides does not compile');
const defaultZone = withoutOverrides.zone;

/** What the rulesets make of one request: each ruleset alone (OWASP at every level), and the zone. */
interface Outcome {
  readonly entry: ReadEntry;
  readonly zone: SimulationResult;
  /** The Managed Ruleset alone, as evaluateManagedRuleset gives it. */
  readonly managed: { readonly action?: ManagedRuleAction; readonly matched: readonly SignatureRule[] };
  /** The OWASP ruleset alone with every paranoia level's rules: scores at lower levels are sums of these. */
  readonly owasp: { readonly score: number; readonly matched: readonly ScoringRule[] };
}

const signatureRules = new Map(cloudflareManagedRuleset.rules.map((rule) => [rule.id, rule]));
const scoringRules = new Map(
  owaspCoreRuleset.rules.flatMap((rule) => (rule.kind === 'scoring' ? [[rule.id, rule] as const] : [])),
);

/**
 * One simulation of the zone per request gives all three: without overrides every rule of both rulesets
 * runs (the Managed Ruleset first, then OWASP at every paranoia level), so the rules the zone matched are
 * those each ruleset matches alone, except when a Managed Ruleset rule ended the phase before OWASP ran;
 * only then is OWASP scored apart. (Evaluating each ruleset again would double the test's time; the first
 * tests below check this against evaluateManagedRuleset and scoreOwaspRuleset on a sample.)
 */
const outcomes: Outcome[] = entries.map((entry) => {
  // One context: each field is derived once.
  const context: RequestContext = managedRulesContext(entry.request);
  const result = zone.simulate(context, { trace: false });
  const signatures = result.matched.flatMap((name) => signatureRules.get(name.id) ?? []);
  const endedByManaged = result.decidedBy !== undefined && signatureRules.has(result.decidedBy.id);
  const owasp = endedByManaged
    ? scoreOwaspRuleset(context, { paranoiaLevel: 4 })
    : (() => {
        const matched = result.matched.flatMap((name) => scoringRules.get(name.id) ?? []);
        return { score: matched.reduce((sum, rule) => sum + rule.score, 0), matched };
      })();
  const terminating = signatures.find((rule) => isTerminating(rule.action));
  return {
    entry,
    zone: result,
    managed: { ...(terminating ? { action: terminating.action } : {}), matched: signatures },
    owasp,
  };
});

/** scoreOwaspRuleset at `settings`, from the matches at level 4 (a rule adds its score up to the level). */
function owaspAt(outcome: Outcome['owasp'], settings: OwaspSettings): ManagedRuleAction | undefined {
  const level = settings.paranoiaLevel ?? 2;
  const score = outcome.matched
    .filter((rule) => rule.paranoiaLevel <= level)
    .reduce((sum, r) => sum + r.score, 0);
  return score >= (settings.scoreThreshold ?? 40) ? (settings.action ?? 'block') : undefined;
}

/** What evaluateManagedPhase decides for a deployment (Managed Ruleset first, then OWASP). */
function decided(outcome: Outcome, deployment: Deployment): ManagedRuleAction | undefined {
  if (deployment.managed && outcome.managed.action) return outcome.managed.action;
  return deployment.owasp === false ? undefined : owaspAt(outcome.owasp, deployment.owasp);
}

const isStopped = (action: ManagedRuleAction | undefined) => action !== undefined && isTerminating(action);
const stoppedByZone = (outcome: Outcome) => outcome.zone.action !== 'none';

const ordinary = outcomes.filter((o) => !o.entry.borderline);
const borderline = outcomes.filter((o) => o.entry.borderline);
const stoppedByDefault = (outcome: Outcome) => isStopped(decided(outcome, DEFAULT_DEPLOYMENT));
const defaultStopped = ordinary.filter(stoppedByDefault);

/** The rule that stops a request deployed by default: a Managed Ruleset rule, or the anomaly rule. */
function deciderOf(outcome: Outcome): string {
  const signature = outcome.managed.matched.find((rule) => isTerminating(rule.action));
  return signature?.description ?? (owaspCoreRuleset.rules.at(-1)?.description as string);
}

/** The deciding rule of each ordinary request the default zone stops, counted. */
function offenders(): Map<string, Outcome[]> {
  const byRule = new Map<string, Outcome[]>();
  for (const outcome of defaultStopped) {
    const rule = deciderOf(outcome);
    byRule.set(rule, [...(byRule.get(rule) ?? []), outcome]);
  }
  return new Map([...byRule].sort((a, b) => b[1].length - a[1].length || a[0].localeCompare(b[0])));
}

// --- Examples: which part of a request makes a rule match ---------------------------------------------

const filters = new Map(
  [...compiledRules(cloudflareManagedRuleset), ...compiledRules(owaspCoreRuleset)].map(({ rule, filter }) => [
    rule.id,
    filter,
  ]),
);

function matches(ruleId: string, json: SampleRequestJson): boolean {
  const read = readSampleRequest(json);
  return read.ok && (filters.get(ruleId)?.match(managedRulesContext(read.request)) ?? false);
}

const excerpt = (text: string, max = 70): string => {
  const flat = text.replace(/\r/g, '\\r').replace(/\n/g, '\\n').replace(/\t/g, '\\t');
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

function leaves(value: unknown, path = ''): [string, string][] {
  if (typeof value === 'string') return [[path, value]];
  if (Array.isArray(value)) return value.flatMap((item, i) => leaves(item, `${path}[${i}]`));
  if (value && typeof value === 'object')
    return Object.entries(value).flatMap(([key, item]) => leaves(item, path ? `${path}.${key}` : key));
  return [];
}

/**
 * The smallest part of the request that makes the rule match on its own: a query parameter, a header, a
 * cookie, a form field or a JSON string; else the whole query, body or header; else the request as a whole
 * (rules on what is missing or on the request line).
 */
function locate(ruleId: string, json: SampleRequestJson): string {
  const url = new URL(String(json.url));
  const headers = (json.headers ?? []) as [string, string][];
  const hostHeader = headers.filter(([name]) => name.toLowerCase() === 'host');
  const base: SampleRequestJson = {
    method: json.method,
    url: `${url.protocol}//${url.host}${url.pathname}`,
    version: json.version,
    headers: hostHeader,
    clientIp: json.clientIp,
  };
  if (matches(ruleId, { ...base, url: `${url.protocol}//${url.host}/` }))
    return matches(ruleId, { ...base, url: `${url.protocol}//${url.host}/`, headers: headers })
      ? 'the request as a whole (method, version or a header it lacks)'
      : 'the request as a whole';
  if (matches(ruleId, base)) return `path \`${excerpt(url.pathname)}\``;
  const query = String(json.url).split('?')[1]?.split('#')[0];
  if (query !== undefined && matches(ruleId, { ...base, url: String(json.url) })) {
    for (const pair of query.split('&'))
      if (matches(ruleId, { ...base, url: `${base.url}?${pair}` })) return `query \`${excerpt(pair)}\``;
    return `query \`${excerpt(query)}\``;
  }
  for (const header of headers) {
    if (header[0].toLowerCase() === 'host') continue;
    if (!matches(ruleId, { ...base, headers: [...hostHeader, header] })) continue;
    if (header[0].toLowerCase() === 'cookie')
      for (const cookie of header[1].split('; '))
        if (matches(ruleId, { ...base, headers: [...hostHeader, [header[0], cookie]] }))
          return `cookie \`${excerpt(cookie)}\``;
    return `header ${header[0]}: \`${excerpt(header[1])}\``;
  }
  const body = json.body as { text?: string; base64?: string } | undefined;
  if (body !== undefined) {
    const text = body.text ?? Buffer.from(body.base64 ?? '', 'base64').toString('utf8');
    const contentType = headers.filter(([name]) => name.toLowerCase() === 'content-type');
    const withBody = (b: string) => ({
      ...base,
      headers: [...hostHeader, ...contentType],
      body: { text: b },
    });
    if (matches(ruleId, withBody(text))) {
      const type = contentType[0]?.[1] ?? '';
      if (type.startsWith('application/json')) {
        try {
          for (const [path, value] of leaves(JSON.parse(text)))
            if (matches(ruleId, withBody(JSON.stringify({ [path || 'value']: value }))))
              return `JSON \`${excerpt(path)}\`: \`${excerpt(value)}\``;
        } catch {
          // Not JSON after all: show the body.
        }
      } else if (type.startsWith('application/x-www-form-urlencoded')) {
        for (const pair of text.split('&'))
          if (matches(ruleId, withBody(pair)))
            return `form \`${excerpt(decodeURIComponent(pair.replace(/\+/g, ' ')))}\``;
      }
      return `body \`${excerpt(text)}\``;
    }
  }
  return 'several parts together';
}

// --- The report ------------------------------------------------------------------------------------------

const percent = (n: number, of: number) => `${((n / Math.max(of, 1)) * 100).toFixed(2)}%`;
const cell = (text: string) => text.replace(/\|/g, '\\|');

function counted<T>(items: readonly T[], key: (item: T) => string): [string, number][] {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}

function compositionTable(): string {
  const rows = counted(outcomes, (o) => o.entry.kind).map(
    ([kind, n]) => `| ${kind} | ${n} | ${percent(n, outcomes.length)} |`,
  );
  const methods = counted(outcomes, (o) => o.entry.request.http?.method ?? '?')
    .map(([m, n]) => `${m} ${n}`)
    .join(', ');
  const versions = counted(outcomes, (o) => o.entry.request.http?.version ?? '?')
    .map(([v, n]) => `${v} ${n}`)
    .join(', ');
  return [
    `${outcomes.length} requests (${ordinary.length} ordinary, ${borderline.length} borderline). Methods: ${methods}. Versions: ${versions}.`,
    '',
    '| Kind | Requests | Share |',
    '|---|---|---|',
    ...rows,
  ].join('\n');
}

function ratesTable(): string {
  const row = (label: string, stop: (o: Outcome) => boolean) => {
    const a = ordinary.filter(stop).length;
    const b = borderline.filter(stop).length;
    return `| ${label} | ${a} of ${ordinary.length} (${percent(a, ordinary.length)}) | ${b} of ${borderline.length} |`;
  };
  return [
    '| Deployed | Ordinary requests stopped | Borderline requests stopped |',
    '|---|---|---|',
    ...DEPLOYMENTS.map((d) =>
      row(`${d.label} (measure.ts${d.owasp ? ', PL2, threshold 40' : ''})`, (o) => isStopped(decided(o, d))),
    ),
    row(`${DEFAULT_DEPLOYMENT.label} (PL1, threshold 40)`, stoppedByDefault),
    row(`${EVERY_LEVEL_ZONE_LABEL} (threshold 40)`, stoppedByZone),
  ].join('\n');
}

function sweepTable(): string {
  const levels: ParanoiaLevel[] = [1, 2, 3, 4];
  const thresholds = [60, 40, 25];
  const rows = levels.map((paranoiaLevel) => {
    const cells = thresholds.map((scoreThreshold) => {
      const n = ordinary.filter((o) => owaspAt(o.owasp, { paranoiaLevel, scoreThreshold })).length;
      return `${n} (${percent(n, ordinary.length)})`;
    });
    return `| PL${paranoiaLevel} | ${cells.join(' | ')} |`;
  });
  return [
    `| Paranoia level | ${thresholds.map((t) => `Threshold ${t}`).join(' | ')} |`,
    '|---|---|---|---|',
    ...rows,
  ].join('\n');
}

function offendersTable(): string {
  const rows = [...offenders()].map(([rule, list]) => {
    const kinds = counted(list, (o) => o.entry.kind)
      .map(([k, n]) => `${k} ${n}`)
      .join(', ');
    const first = list[0] as Outcome;
    const signature = first.managed.matched.find((r) => isTerminating(r.action));
    const where = signature
      ? locate(signature.id, first.entry.json)
      : `score of ${first.owasp.matched.filter((r) => r.paranoiaLevel === 1).reduce((sum, r) => sum + r.score, 0)}`;
    return `| ${cell(rule)} | ${list.length} | ${kinds} | ${cell(excerpt(first.entry.name, 90))}: ${cell(where)} |`;
  });
  return ['| Deciding rule | Requests | Kinds | Example |', '|---|---|---|---|', ...rows].join('\n');
}

const numberOf = (rule: ScoringRule) => rule.description.split(':')[0] as string;

function owaspTable(limit: number): string {
  const fired = new Map<ScoringRule, Outcome[]>();
  for (const outcome of ordinary)
    for (const rule of outcome.owasp.matched) fired.set(rule, [...(fired.get(rule) ?? []), outcome]);
  const rows = [...fired]
    .sort((a, b) => b[1].length - a[1].length || numberOf(a[0]).localeCompare(numberOf(b[0])))
    .slice(0, limit)
    .map(([rule, list]) => {
      const examples = [list[0], list.find((o) => o.entry.kind !== list[0]?.entry.kind)].filter(
        (o): o is Outcome => o !== undefined,
      );
      const shown = examples.map((o) => `${o.entry.kind}: ${cell(locate(rule.id, o.entry.json))}`).join('; ');
      return `| ${numberOf(rule)} | ${cell(rule.description.slice(numberOf(rule).length + 2))} | PL${rule.paranoiaLevel} | ${rule.score} | ${list.length} (${percent(list.length, ordinary.length)}) | ${shown} |`;
    });
  return [
    '| Rule | Description | Level | Score | Ordinary requests | Examples (kind: what matched) |',
    '|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}

function managedTable(): string {
  const fired = new Map<SignatureRule, Outcome[]>();
  for (const outcome of outcomes)
    for (const rule of outcome.managed.matched) fired.set(rule, [...(fired.get(rule) ?? []), outcome]);
  const rows = [...fired]
    .sort((a, b) => b[1].length - a[1].length || a[0].description.localeCompare(b[0].description))
    .map(([rule, list]) => {
      const plain = list.filter((o) => !o.entry.borderline);
      const first = (plain[0] ?? list[0]) as Outcome;
      return `| ${cell(rule.description)} | ${rule.action} | ${plain.length} | ${list.length - plain.length} | ${first.entry.kind}: ${cell(locate(rule.id, first.entry.json))} |`;
    });
  return [
    '| Rule | Action | Ordinary requests | Borderline requests | Example (kind: what matched) |',
    '|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}

function report(): string {
  return `# Ordinary traffic through the managed rulesets

Written by \`test/engine/ordinary-traffic.test.ts\` from the corpus of \`test/engine/corpus/ordinary/\` (see its
README); \`UPDATE_ORDINARY_TRAFFIC=1 npx vitest run test/engine/ordinary-traffic.test.ts\` rewrites it. A
request counts as stopped when the phase ends with an action other than \`log\`. "What matched" is the
smallest part of the request that makes the rule match on its own.

## The corpus

${compositionTable()}

## Requests stopped

${ratesTable()}

The OWASP Core Ruleset alone, ordinary requests stopped at each paranoia level and threshold:

${sweepTable()}

## Rules that stop ordinary requests (zone without overrides)

${offendersTable()}

## OWASP rules that fire on ordinary traffic (every paranoia level, the 40 most frequent)

${owaspTable(40)}

## Managed Ruleset rules that fire

${managedTable()}
`;
}

// --- The tests -------------------------------------------------------------------------------------------

describe('the ordinary-traffic corpus', () => {
  it('is made of valid sample requests', () => {
    expect(problems).toEqual([]);
  });

  it('holds at least 5,000 requests of every kind of ordinary traffic, with unique names', () => {
    expect(entries.length).toBeGreaterThanOrEqual(5000);
    const kinds = new Set(entries.map((entry) => entry.kind));
    for (const kind of [
      'page',
      'asset',
      'search',
      'listing',
      'xhr',
      'api-write',
      'graphql',
      'webhook',
      'form',
      'upload',
      'mobile-app',
      'monitoring',
      'crawler',
      'cli',
      'preflight',
    ])
      expect(kinds).toContain(kind);
    expect(new Set(corpus.map((entry) => entry.name)).size).toBe(corpus.length);
  });
});

describe('ordinary traffic with both rulesets deployed without overrides', () => {
  it('gives each ruleset alone what evaluateManagedRuleset and scoreOwaspRuleset give (a sample)', () => {
    const settings = DEPLOYMENTS.find((d) => d.owasp !== false)?.owasp as OwaspSettings;
    const stopped = outcomes.filter((o) => o.zone.action !== 'none').slice(0, 20);
    const sample = [...outcomes.filter((_, i) => i % 100 === 0), ...stopped];
    for (const outcome of sample) {
      const context = managedRulesContext(outcome.entry.request);
      const managed = evaluateManagedRuleset(context);
      expect(
        outcome.managed.matched.map((r) => r.id),
        outcome.entry.name,
      ).toEqual(managed.matched.map((r) => r.id));
      expect(outcome.managed.action, outcome.entry.name).toBe(managed.action);
      const owasp = scoreOwaspRuleset(context, { paranoiaLevel: 4 });
      expect(
        outcome.owasp.matched.map((r) => r.id),
        outcome.entry.name,
      ).toEqual(owasp.matched.map((r) => r.id));
      expect(owaspAt(outcome.owasp, settings), outcome.entry.name).toBe(
        scoreOwaspRuleset(context, settings).action,
      );
      // The default deployment derived here is what a zone without overrides does.
      expect(decided(outcome, DEFAULT_DEPLOYMENT) ?? 'none', outcome.entry.name).toBe(
        defaultZone.simulate(context, { trace: false }).action,
      );
    }
  });

  it('stops at most 0.5% of ordinary requests, the known offenders aside', () => {
    const known = new Map(Object.entries(KNOWN_OFFENDERS));
    let excused = 0;
    for (const [rule, list] of offenders()) excused += Math.min(list.length, known.get(rule) ?? 0);
    const share = (defaultStopped.length - excused) / ordinary.length;
    expect(
      share,
      `${defaultStopped.length - excused} ordinary requests stopped beyond the known offenders`,
    ).toBeLessThanOrEqual(BUDGET);
  });

  it('stops ordinary requests through the known offenders only, as many as listed', () => {
    const measured = Object.fromEntries([...offenders()].map(([rule, list]) => [rule, list.length]));
    expect(measured).toEqual(KNOWN_OFFENDERS);
  });

  it('matches the figures written in ordinary-traffic.md', () => {
    const measured = report();
    if (process.env.UPDATE_ORDINARY_TRAFFIC === '1') {
      writeFileSync(REPORT, measured);
      return;
    }
    let written = '';
    try {
      written = readFileSync(REPORT, 'utf8');
    } catch {
      // Missing: the comparison below says so.
    }
    expect(
      written,
      'stale: run UPDATE_ORDINARY_TRAFFIC=1 npx vitest run test/engine/ordinary-traffic.test.ts',
    ).toBe(measured);
  });
});
