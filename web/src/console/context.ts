import type { RuleJson as FirewallRuleJson } from '../../../src/service/firewall-rules.js';
import type { RuleJson, RulesetJson } from '../../../src/service/rulesets/model.js';
import type { ZoneJson } from '../../../src/service/zones.js';
import type { Api } from './api.js';

// What every view of a zone is given: the API client of the session, the zone, and a way to draw the
// view again after a change. The API's JSON types are the service's own (type imports only).

export type { FirewallRuleJson, RuleJson, RulesetJson, ZoneJson };

export interface ZoneContext {
  api: Api;
  zone: ZoneJson;
  /** The zone's plan as the validator names it. */
  plan: 'free' | 'pro' | 'business' | 'enterprise';
  /** Draws the current view again, from fresh API data. */
  refresh(): void;
}

/** `/zones/{id}` + `rest`. */
export const zonePath = (context: ZoneContext, rest = '') => `/zones/${context.zone.id}${rest}`;

/** The zone's entry point of `phase`, or undefined when it has none (404, 10003). */
export async function entryPoint(context: ZoneContext, phase: string): Promise<RulesetJson | undefined> {
  try {
    return await context.api.get<RulesetJson>(zonePath(context, `/rulesets/phases/${phase}/entrypoint`));
  } catch (error) {
    if ((error as { status?: number }).status === 404) return undefined;
    throw error;
  }
}
