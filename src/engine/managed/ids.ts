import { sha256 } from '../../eval/functions/sha256.js';

/**
 * The id of a rule (or group, or package) that Cloudflare publishes no id for: the first 16 bytes of the
 * SHA-256 of a stable name, in hex. Deterministic, so ids never change between builds or machines, and a
 * rule keeps its id when rules around it are added or reordered.
 */
export function projectId(stableName: string): string {
  const name = `cfrules:${stableName}`;
  // Node's native hash where there is one: the catalogue names some 400 ids when it loads, which the
  // JavaScript SHA-256 made cost ~20 ms of every command's start-up. Same bytes either way (a test).
  const crypto = globalThis.process?.getBuiltinModule?.('node:crypto') as
    | typeof import('node:crypto')
    | undefined;
  if (crypto) return crypto.createHash('sha256').update(name, 'latin1').digest('hex').slice(0, 32);
  return projectIdInJavaScript(name);
}

/** `projectId` without Node: the evaluator's SHA-256 of the name's bytes (binary string). */
export function projectIdInJavaScript(name: string): string {
  let hex = '';
  for (const byte of sha256(name).slice(0, 16)) hex += byte.charCodeAt(0).toString(16).padStart(2, '0');
  return hex;
}

/** Ids of the rules engine: 32 lowercase hex characters. */
export const isRuleId = (id: string): boolean => /^[0-9a-f]{32}$/.test(id);
