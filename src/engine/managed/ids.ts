import { sha256 } from '../../eval/functions/sha256.js';

/**
 * The id of a rule (or group, or package) that Cloudflare publishes no id for: the first 16 bytes of the
 * SHA-256 of a stable name, in hex. Deterministic, so ids never change between builds or machines, and a
 * rule keeps its id when rules around it are added or reordered.
 */
export function projectId(stableName: string): string {
  let hex = '';
  for (const byte of sha256(`cfrules:${stableName}`).slice(0, 16))
    hex += byte.charCodeAt(0).toString(16).padStart(2, '0');
  return hex;
}

/** Ids of the rules engine: 32 lowercase hex characters. */
export const isRuleId = (id: string): boolean => /^[0-9a-f]{32}$/.test(id);
