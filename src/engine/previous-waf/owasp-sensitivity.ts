import type { ManagedRuleAction, ParanoiaLevel } from '../managed/model.js';
import type { ActionMode } from './model.js';

/**
 * How the previous OWASP package's settings read in the new Cloudflare OWASP Core Ruleset: the migration
 * writes them as overrides (src/service/waf-migration-config.ts) and the simulator scores with them
 * (./simulate.ts), so both use this one table.
 */

/** `default`: the zone never changed its sensitivity (Cloudflare's migration has a row for it). */
export type OwaspSensitivityRow = 'high' | 'medium' | 'low' | 'default';

/** Old sensitivity → paranoia level and score threshold of the new OWASP ruleset. */
export const OWASP_SENSITIVITY_TABLE: Readonly<
  Record<OwaspSensitivityRow, { paranoiaLevel: Extract<ParanoiaLevel, 1 | 2>; scoreThreshold: number }>
> = {
  high: { paranoiaLevel: 2, scoreThreshold: 40 },
  medium: { paranoiaLevel: 1, scoreThreshold: 25 },
  low: { paranoiaLevel: 1, scoreThreshold: 40 },
  default: { paranoiaLevel: 2, scoreThreshold: 40 },
};

/** Old OWASP action mode → action of the anomaly rule: direct, except simulate, which becomes log. */
export const OWASP_ACTIONS: Readonly<Record<ActionMode, ManagedRuleAction>> = {
  simulate: 'log',
  block: 'block',
  challenge: 'challenge',
};

export const SENSITIVITIES = ['high', 'medium', 'low', 'off'] as const;
export const ACTION_MODES = ['simulate', 'block', 'challenge'] as const;
