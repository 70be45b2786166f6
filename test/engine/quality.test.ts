import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { attacks, benign, DEPLOYMENTS, measure, owaspSweepTable, ratesTable } from './measure.js';

/**
 * The catalogue's quality on the corpus, at the migration's defaults (paranoia level 2, threshold 40):
 * the share of attacks stopped and of legitimate requests stopped. docs/managed-rules.md shows the same
 * table; `UPDATE_MANAGED_RULES_DOC=1 npx vitest run test/engine/quality.test.ts` rewrites it.
 */

const DOC = new URL('../../docs/managed-rules.md', import.meta.url);
const START = '<!-- measured-rates:start -->';
const END = '<!-- measured-rates:end -->';

const rates = DEPLOYMENTS.map(measure);
const [owaspAlone, managedAlone, both] = rates as [(typeof rates)[0], (typeof rates)[0], (typeof rates)[0]];

describe('the corpus', () => {
  it('holds at least 150 attacks and 300 legitimate requests, of several kinds each', () => {
    expect(attacks.length).toBeGreaterThanOrEqual(150);
    expect(benign.length).toBeGreaterThanOrEqual(300);
    const attackKinds = new Set(attacks.map((entry) => entry.kind));
    for (const kind of [
      'sqli',
      'xss',
      'traversal',
      'rce',
      'log4shell',
      'scanner',
      'protocol',
      'probe',
      'cve',
    ])
      expect(attackKinds).toContain(kind);
    expect(new Set(benign.map((entry) => entry.kind))).toEqual(
      new Set(['page', 'search', 'api', 'form', 'upload', 'misc']),
    );
  });

  it('has unique names, so that a report points at one request', () => {
    const names = [...attacks, ...benign].map((entry) => entry.name);
    expect(new Set(names).size).toBe(names.length);
  });
});

describe('detection at the migration defaults (PL2, threshold 40)', () => {
  it('stops no legitimate request, whichever rulesets are deployed', () => {
    for (const rate of rates) expect(rate.benignStopped.map((entry) => entry.name)).toEqual([]);
  });

  it('stops at least 90% of the attacks with both rulesets', () => {
    console.log(
      `${ratesTable(rates)}\n\nMissed with both rulesets:\n${both.attacksMissed.map((e) => `  ${e.name}`).join('\n')}`,
    );
    expect(both.detectionRate).toBeGreaterThanOrEqual(0.9);
  });

  it('stops every attack either ruleset stops alone when both run', () => {
    const stoppedByBoth = new Set(both.attacksStopped);
    for (const entry of [...owaspAlone.attacksStopped, ...managedAlone.attacksStopped])
      expect(stoppedByBoth.has(entry), entry.name).toBe(true);
  });

  it('detects every attack family, not only some', () => {
    const families = new Set(attacks.map((entry) => entry.kind));
    for (const family of families) {
      const ofFamily = attacks.filter((entry) => entry.kind === family);
      const stopped = ofFamily.filter((entry) => both.attacksStopped.includes(entry));
      expect(stopped.length / ofFamily.length, family).toBeGreaterThanOrEqual(0.75);
    }
  });

  it('matches the rates written in docs/managed-rules.md', () => {
    const doc = readFileSync(DOC, 'utf8');
    const start = doc.indexOf(START);
    const end = doc.indexOf(END);
    expect(start, `docs/managed-rules.md lacks ${START}`).toBeGreaterThanOrEqual(0);
    const written = doc.slice(start + START.length, end).trim();
    const measured = `${ratesTable(rates)}\n\nThe OWASP Core Ruleset alone, attacks stopped / legitimate requests stopped:\n\n${owaspSweepTable()}`;
    if (process.env.UPDATE_MANAGED_RULES_DOC === '1' && written !== measured) {
      writeFileSync(DOC, `${doc.slice(0, start + START.length)}\n${measured}\n${doc.slice(end)}`);
      return;
    }
    expect(written, 'stale: run UPDATE_MANAGED_RULES_DOC=1 npx vitest run test/engine/quality.test.ts').toBe(
      measured,
    );
  });
});
