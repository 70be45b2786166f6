import { PHASES, type Phase, PLANS, type Plan, parsePhase, parsePlan } from '../scheme/profile.js';
import { UsageError } from './command.js';

/** `--plan` and `--phase`, shared by the commands that check expressions. */
export function planOption(text: string | undefined): Plan | undefined {
  if (text === undefined) return undefined;
  const plan = parsePlan(text);
  if (!plan) throw new UsageError(`unknown plan '${text}': expected one of ${PLANS.join(', ')}`);
  return plan;
}

export function phaseOption(text: string | undefined): Phase | undefined {
  if (text === undefined) return undefined;
  const phase = parsePhase(text);
  if (!phase) throw new UsageError(`unknown phase '${text}': expected one of ${PHASES.join(', ')}`);
  return phase;
}
