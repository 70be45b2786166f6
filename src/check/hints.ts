import { type Hint, hint, type MessageId } from '../lang/catalogue.js';

/** Friendlier explanations of literal mistakes (name suggestions for typos: src/lang/closest-name.ts). */

/** A friendlier explanation of the literal mistakes people make most, by the message and the text at fault. */
export function literalHint(id: MessageId, text: string): Hint | undefined {
  const first = text.charAt(0);
  if (first === '"' && id === 'expectedDigit') return hint('integerQuotes');
  if (first === '"' && id === 'expectedIpCharacter') return hint('ipQuotes');
  if (id === 'invalidAddress' && text.includes('/')) return hint('cidrInSet');
  if (id === 'hostBits') return hint('cidrNetwork');
  if (first === "'") return hint('doubleQuotes');
  return undefined;
}
