import { type Phase, type Plan, parsePhase, parsePlan } from '../scheme/profile.js';

// The workspace settings the server reads: `cfrules.plan` and `cfrules.phase`, the zone's plan and where the
// expressions run. A JSON rules file that states its phase (a ruleset's `phase`, `firewall_rules` for
// filters and firewall rules) is checked for that phase instead.

export interface Settings {
  plan?: Plan;
  phase?: Phase;
}

/** The settings in a `cfrules` configuration section, and what in it was not understood. */
export function readSettings(section: unknown): { settings: Settings; problems: string[] } {
  const settings: Settings = {};
  const problems: string[] = [];
  if (typeof section !== 'object' || section === null) return { settings, problems };
  const { plan, phase } = section as { plan?: unknown; phase?: unknown };
  if (typeof plan === 'string' && plan.trim() !== '') {
    const known = parsePlan(plan);
    if (known) settings.plan = known;
    else problems.push(`cfrules.plan: unknown plan '${plan}'; expressions are checked without plan rules`);
  }
  if (typeof phase === 'string' && phase.trim() !== '') {
    const known = parsePhase(phase);
    if (known) settings.phase = known;
    else
      problems.push(`cfrules.phase: unknown phase '${phase}'; expressions are checked without phase rules`);
  }
  return { settings, problems };
}

/** The plan and phase an expression is checked for: the document's phase when it states one it knows. */
export function profileFor(settings: Settings, statedPhase: string | undefined): Settings {
  const phase = statedPhase === undefined ? undefined : parsePhase(statedPhase);
  return { plan: settings.plan, phase: phase ?? settings.phase };
}
