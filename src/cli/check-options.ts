import { LINTS } from '../check/lints.js';
import type { ValidateOptions } from '../check/validate.js';
import { PHASES, type Phase, PLANS, type Plan, parsePhase, parsePlan } from '../scheme/profile.js';
import { UsageError } from './command.js';

/** The options that say how expressions are checked, the same in validate and eval. */
export const checkOptions = {
  plan: { type: 'string' },
  phase: { type: 'string' },
  rewrite: { type: 'boolean' },
  'max-length': { type: 'string' },
  'no-lint': { type: 'boolean' },
  'disable-lint': { type: 'string', multiple: true },
} as const;

interface CheckValues {
  plan?: string;
  phase?: string;
  rewrite?: boolean;
  'max-length'?: string;
  'no-lint'?: boolean;
  'disable-lint'?: string[];
}

export type CheckSettings = Pick<ValidateOptions, 'plan' | 'phase' | 'maxLength' | 'lints'> & {
  expression: 'filter' | 'rewrite';
};

export function readCheckOptions(values: CheckValues): CheckSettings {
  const settings: CheckSettings = { expression: values.rewrite ? 'rewrite' : 'filter' };
  const plan = planOption(values.plan);
  if (plan) settings.plan = plan;
  const phase = phaseOption(values.phase);
  if (phase) settings.phase = phase;
  if (values['max-length'] !== undefined) settings.maxLength = count('--max-length', values['max-length'], 1);
  if (values['no-lint']) settings.lints = false;
  else if (values['disable-lint']) settings.lints = disabledLints(values['disable-lint']);
  return settings;
}

function planOption(text: string | undefined): Plan | undefined {
  if (text === undefined) return undefined;
  const plan = parsePlan(text);
  if (!plan) throw new UsageError(`unknown plan '${text}': expected one of ${PLANS.join(', ')}`);
  return plan;
}

function phaseOption(text: string | undefined): Phase | undefined {
  if (text === undefined) return undefined;
  const phase = parsePhase(text);
  if (!phase) throw new UsageError(`unknown phase '${text}': expected one of ${PHASES.join(', ')}`);
  return phase;
}

/** `--disable-lint` values, each a code or a comma-separated list of codes. */
function disabledLints(options: string[]): Record<string, boolean> {
  const lints: Record<string, boolean> = {};
  for (const code of options.flatMap((codes) => codes.split(','))) {
    const name = code.trim();
    if (!name) continue;
    if (!(name in LINTS))
      throw new UsageError(`unknown lint '${name}': expected one of ${Object.keys(LINTS).join(', ')}`);
    lints[name] = false;
  }
  return lints;
}

/** A whole number option, at least `minimum`. */
export function count(option: string, text: string, minimum: number): number {
  const value = /^\d+$/.test(text.trim()) ? Number(text.trim()) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < minimum)
    throw new UsageError(
      `${option} expects ${minimum === 0 ? 'a whole number' : 'a positive whole number'}, got '${text}'`,
    );
  return value;
}
