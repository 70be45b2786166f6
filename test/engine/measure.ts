import {
  evaluateManagedPhase,
  isTerminating,
  type ManagedRulesOutcome,
  type OwaspSettings,
} from '../../src/engine/managed/index.js';
import { formatRequestProblem, readSampleRequest, type SampleRequest } from '../../src/request/index.js';
import { attackCorpus } from './corpus/attacks.js';
import { benignCorpus } from './corpus/benign.js';
import type { Entry } from './corpus/http.js';

/** A corpus entry read as a sample request; a malformed entry is a bug of the corpus. */
export interface ReadEntry extends Omit<Entry, 'request'> {
  readonly request: SampleRequest;
}

function readAll(entries: Entry[]): ReadEntry[] {
  return entries.map((entry) => {
    const result = readSampleRequest(entry.request);
    if (!result.ok) throw new Error(`${entry.name}: ${result.problems.map(formatRequestProblem).join('; ')}`);
    return { ...entry, request: result.request };
  });
}

export const attacks: readonly ReadEntry[] = readAll(attackCorpus());
export const benign: readonly ReadEntry[] = readAll(benignCorpus());

/** Which rulesets are deployed, and the OWASP settings. */
export interface Deployment {
  readonly label: string;
  readonly managed: boolean;
  readonly owasp: OwaspSettings | false;
}

/** The migration's defaults: paranoia level 2, threshold 40 ("medium"). */
export const MIGRATION_DEFAULTS: OwaspSettings = { paranoiaLevel: 2, scoreThreshold: 40 };

export const DEPLOYMENTS: readonly Deployment[] = [
  { label: 'OWASP Core Ruleset alone', managed: false, owasp: MIGRATION_DEFAULTS },
  { label: 'Cloudflare Managed Ruleset alone', managed: true, owasp: false },
  { label: 'Both rulesets', managed: true, owasp: MIGRATION_DEFAULTS },
];

/** Whether the request was stopped: blocked or challenged (any action but `log`). */
export const stopped = (outcome: ManagedRulesOutcome): boolean =>
  outcome.action !== undefined && isTerminating(outcome.action);

export interface Rates {
  readonly deployment: Deployment;
  readonly attacksStopped: readonly ReadEntry[];
  readonly attacksMissed: readonly ReadEntry[];
  readonly benignStopped: readonly ReadEntry[];
  /** Share of attacks stopped, 0 to 1. */
  readonly detectionRate: number;
  /** Share of legitimate requests stopped, 0 to 1. */
  readonly falsePositiveRate: number;
}

export function measure(deployment: Deployment): Rates {
  const run = (entry: ReadEntry) =>
    stopped(evaluateManagedPhase(entry.request, { managed: deployment.managed, owasp: deployment.owasp }));
  const attacksStopped = attacks.filter(run);
  const benignStopped = benign.filter(run);
  return {
    deployment,
    attacksStopped,
    attacksMissed: attacks.filter((entry) => !attacksStopped.includes(entry)),
    benignStopped,
    detectionRate: attacksStopped.length / attacks.length,
    falsePositiveRate: benignStopped.length / benign.length,
  };
}

const percent = (rate: number) => `${(rate * 100).toFixed(1)}%`;

/** The table of docs/managed-rules.md. */
export function ratesTable(rates: readonly Rates[]): string {
  const rows = rates.map(
    (r) =>
      `| ${r.deployment.label} | ${r.attacksStopped.length} of ${attacks.length} (${percent(r.detectionRate)}) | ${r.benignStopped.length} of ${benign.length} (${percent(r.falsePositiveRate)}) |`,
  );
  return ['| Deployed | Attacks stopped | Legitimate requests stopped |', '|---|---|---|', ...rows].join(
    '\n',
  );
}

const SWEEP_LEVELS = [1, 2, 3, 4] as const;
const SWEEP_THRESHOLDS = [60, 40, 25] as const;

/** The OWASP ruleset alone at each paranoia level and Cloudflare's three thresholds: attacks / legitimate. */
export function owaspSweepTable(): string {
  const header = `| Paranoia level | ${SWEEP_THRESHOLDS.map((t) => `Threshold ${t}`).join(' | ')} |`;
  const rows = SWEEP_LEVELS.map((paranoiaLevel) => {
    const cells = SWEEP_THRESHOLDS.map((scoreThreshold) => {
      const rate = measure({ label: '', managed: false, owasp: { paranoiaLevel, scoreThreshold } });
      return `${percent(rate.detectionRate)} / ${percent(rate.falsePositiveRate)}`;
    });
    return `| PL${paranoiaLevel} | ${cells.join(' | ')} |`;
  });
  return [header, `|---|${SWEEP_THRESHOLDS.map(() => '---').join('|')}|`, ...rows].join('\n');
}
