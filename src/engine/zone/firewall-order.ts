/**
 * The order in which firewall rules run: priority ascending, rules without one after; rules of equal
 * priority by their actions' precedence (Cloudflare's). The engine compiles a zone's rules in this order,
 * and the console lists them in it. A stable sort keeps rules that compare equal in their given order.
 */

/** Firewall rules of equal priority run in this order of their actions. */
export const ACTION_PRECEDENCE = [
  'log',
  'bypass',
  'allow',
  'challenge',
  'managed_challenge',
  'js_challenge',
  'block',
];

export interface OrderedFirewallRule {
  priority?: number | null;
  action: string;
}

export function compareFirewallRules(a: OrderedFirewallRule, b: OrderedFirewallRule): number {
  return (
    (a.priority ?? Number.POSITIVE_INFINITY) - (b.priority ?? Number.POSITIVE_INFINITY) ||
    ACTION_PRECEDENCE.indexOf(a.action) - ACTION_PRECEDENCE.indexOf(b.action)
  );
}
