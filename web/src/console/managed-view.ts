import { h } from '../dom.js';
import type { RuleJson, RulesetJson } from './context.js';

// The managed phase's entry point as a deployment: each managed ruleset it executes, with the overrides
// of the whole ruleset, of its categories (tags) and of single rules; and what its skip rules leave out.

type Overrides = {
  action?: string;
  enabled?: boolean;
  sensitivity_level?: string;
  categories?: { category: string; action?: string; enabled?: boolean; sensitivity_level?: string }[];
  rules?: {
    id: string;
    action?: string;
    enabled?: boolean;
    score_threshold?: number;
    sensitivity_level?: string;
  }[];
};

/** `action block · disabled · threshold 25`: what an override sets. */
function settings(override: {
  action?: string;
  enabled?: boolean;
  score_threshold?: number;
  sensitivity_level?: string;
}): string {
  const parts: string[] = [];
  if (override.action !== undefined) parts.push(`action ${override.action}`);
  if (override.enabled !== undefined) parts.push(override.enabled ? 'enabled' : 'disabled');
  if (override.score_threshold !== undefined) parts.push(`score threshold ${override.score_threshold}`);
  if (override.sensitivity_level !== undefined) parts.push(`sensitivity ${override.sensitivity_level}`);
  return parts.join(' · ');
}

function overridesList(overrides: Overrides | undefined): HTMLElement {
  if (!overrides) return h('p', { class: 'muted' }, 'No overrides: the ruleset as Cloudflare configures it.');
  const items: HTMLElement[] = [];
  const whole = settings(overrides);
  if (whole) items.push(h('li', {}, h('strong', {}, 'Whole ruleset: '), whole));
  for (const category of overrides.categories ?? [])
    items.push(
      h(
        'li',
        { class: 'override-category' },
        'Tag ',
        h('code', {}, category.category),
        `: ${settings(category)}`,
      ),
    );
  for (const rule of overrides.rules ?? [])
    items.push(h('li', { class: 'override-rule' }, 'Rule ', h('code', {}, rule.id), `: ${settings(rule)}`));
  return h('ul', { class: 'overrides' }, ...items);
}

function skipText(parameters: Record<string, unknown> | undefined): string {
  if (!parameters) return 'skips nothing';
  const parts: string[] = [];
  if (parameters.ruleset === 'current') parts.push('the rest of this phase');
  if (Array.isArray(parameters.rulesets)) parts.push(`rulesets ${parameters.rulesets.join(', ')}`);
  if (parameters.rules && typeof parameters.rules === 'object')
    for (const [ruleset, ids] of Object.entries(parameters.rules as Record<string, string[]>))
      parts.push(`rules ${ids.join(', ')} of ${ruleset}`);
  return `skips ${parts.join('; ') || 'nothing'}`;
}

function deploymentItem(rule: RuleJson, names: ReadonlyMap<string, string>): HTMLElement {
  const parameters = rule.action_parameters as
    | { id?: string; version?: string; overrides?: Overrides; [key: string]: unknown }
    | undefined;
  const head =
    rule.action === 'execute'
      ? [
          h('span', { class: 'action action-execute' }, 'execute'),
          ' ',
          h('strong', { class: 'managed-name' }, names.get(parameters?.id ?? '') ?? parameters?.id ?? '?'),
          parameters?.version ? h('span', { class: 'muted' }, ` version ${parameters.version}`) : null,
        ]
      : [h('span', { class: 'action action-skip' }, rule.action), ` ${skipText(parameters)}`];
  return h(
    'li',
    { class: `deployment-item${rule.enabled ? '' : ' is-off'}`, 'data-rule': rule.id },
    h(
      'div',
      { class: 'deployment-head' },
      ...head,
      !rule.enabled && h('span', { class: 'badge' }, 'disabled'),
      rule.description && h('span', { class: 'description' }, ` — ${rule.description}`),
    ),
    h('div', {}, 'when ', h('code', { class: 'expression' }, rule.expression)),
    rule.action === 'execute' && overridesList(parameters?.overrides),
  );
}

export function managedDeployment(entry: RulesetJson, names: ReadonlyMap<string, string>): HTMLElement {
  const rules = entry.rules ?? [];
  if (rules.length === 0) return h('p', { class: 'muted' }, 'The entry point deploys nothing.');
  return h(
    'ol',
    { class: 'deployment', id: 'managed-deployment' },
    ...rules.map((rule) => deploymentItem(rule, names)),
  );
}
