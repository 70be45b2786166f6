import { compareFirewallRules } from '../../../src/engine/zone/firewall-order.js';
import { isWafPhase, RULESET_PHASES } from '../../../src/scheme/actions.js';
import { h, replaceChildren } from '../dom.js';
import {
  type FirewallRuleJson,
  type RuleJson,
  type RulesetJson,
  type ZoneContext,
  zonePath,
} from './context.js';
import { managedDeployment } from './managed-view.js';
import { type EditedRule, ruleEditor } from './rule-editor.js';

// The zone's rules: its firewall rules in the order they run, then its rulesets by phase (the entry point
// of each, and the custom rulesets), the managed phase drawn as the deployment of the managed rulesets
// with their overrides. Custom rules (and firewall rules) can be created here, custom rules edited.

const CUSTOM_PHASE = 'http_request_firewall_custom';
const MANAGED_PHASE = 'http_request_firewall_managed';

export async function rulesView(context: ZoneContext): Promise<HTMLElement> {
  const { api } = context;
  const [firewallRules, rulesets] = await Promise.all([
    api.all<FirewallRuleJson>(zonePath(context, '/firewall/rules')),
    api.get<RulesetJson[]>(zonePath(context, '/rulesets?per_page=500')),
  ]);
  // The list has no rules: read each of the zone's own rulesets (the managed ones are only named).
  const own = await Promise.all(
    rulesets
      .filter((ruleset) => ruleset.kind !== 'managed')
      .map((ruleset) => api.get<RulesetJson>(zonePath(context, `/rulesets/${ruleset.id}`))),
  );
  const managedNames = new Map(
    rulesets.filter((ruleset) => ruleset.kind === 'managed').map((ruleset) => [ruleset.id, ruleset.name]),
  );
  const editorSlot = h('div', { class: 'editor-slot', id: 'editor-slot' });
  const customEntry = own.find((ruleset) => ruleset.kind === 'zone' && ruleset.phase === CUSTOM_PHASE);

  const openEditor = (edited: EditedRule) => {
    replaceChildren(
      editorSlot,
      ruleEditor(context, edited, {
        done: () => context.refresh(),
        cancel: () => replaceChildren(editorSlot),
      }),
    );
    editorSlot.scrollIntoView({ block: 'nearest' });
  };
  const newButton = (label: string, id: string, edited: EditedRule) =>
    h('button', { type: 'button', class: 'button small', id, onclick: () => openEditor(edited) }, label);

  // The WAF's phases always; the Rules products' phases when the zone has rulesets there.
  const shown = RULESET_PHASES.filter(
    (phase) => isWafPhase(phase) || own.some((ruleset) => ruleset.phase === phase),
  );
  const phases = shown.map((phase) => {
    const entry = own.find((ruleset) => ruleset.kind === 'zone' && ruleset.phase === phase);
    const custom = own.filter((ruleset) => ruleset.kind === 'custom' && ruleset.phase === phase);
    return h(
      'section',
      { class: 'panel phase', 'data-phase': phase, 'aria-label': phase },
      h(
        'div',
        { class: 'panel-head' },
        h('h2', {}, phase),
        entry && h('span', { class: 'muted' }, `entry point ${entry.name}, version ${entry.version}`),
        phase === CUSTOM_PHASE &&
          newButton('New custom rule', 'new-custom-rule', { kind: 'custom', entryPoint: customEntry }),
      ),
      !entry && custom.length === 0 && h('p', { class: 'muted' }, 'No ruleset in this phase.'),
      entry &&
        (phase === MANAGED_PHASE
          ? managedDeployment(entry, managedNames)
          : rulesTable(
              entry.rules ?? [],
              phase === CUSTOM_PHASE
                ? (rule) => openEditor({ kind: 'custom', entryPoint: entry, rule })
                : undefined,
            )),
      ...custom.map((ruleset) =>
        h(
          'div',
          { class: 'custom-ruleset' },
          h('h3', {}, `Custom ruleset ${ruleset.name}`, h('code', { class: 'muted' }, ` ${ruleset.id}`)),
          rulesTable(ruleset.rules ?? []),
        ),
      ),
    );
  });

  return h(
    'div',
    { class: 'rules-view' },
    editorSlot,
    h(
      'section',
      { class: 'panel', 'aria-label': 'Firewall rules' },
      h(
        'div',
        { class: 'panel-head' },
        h('h2', {}, 'Firewall rules'),
        h('span', { class: 'muted' }, 'in evaluation order: priority, then action'),
        newButton('New firewall rule', 'new-firewall-rule', { kind: 'firewall' }),
      ),
      firewallTable(firewallRules),
    ),
    ...phases,
  );
}

function firewallTable(rules: FirewallRuleJson[]): HTMLElement {
  if (rules.length === 0) return h('p', { class: 'muted' }, 'No firewall rules.');
  const ordered = [...rules].sort(compareFirewallRules);
  return h(
    'table',
    { class: 'table', id: 'firewall-rules' },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        h('th', {}, '#'),
        h('th', {}, 'Priority'),
        h('th', {}, 'Action'),
        h('th', {}, 'Description'),
        h('th', {}, 'Expression'),
      ),
    ),
    h(
      'tbody',
      {},
      ...ordered.map((rule, index) => {
        const filter = 'expression' in rule.filter ? rule.filter : undefined;
        const paused = rule.paused || filter?.paused === true;
        return h(
          'tr',
          { class: paused ? 'is-off' : '', 'data-rule': rule.id },
          h('td', {}, String(index + 1)),
          h('td', {}, rule.priority === null ? '—' : String(rule.priority)),
          h(
            'td',
            {},
            h('span', { class: `action action-${rule.action}` }, rule.action),
            rule.products?.length ? h('div', { class: 'muted' }, rule.products.join(', ')) : null,
            paused && h('span', { class: 'badge' }, 'paused'),
          ),
          h('td', { class: 'description' }, rule.description),
          h('td', {}, filter ? h('code', { class: 'expression' }, filter.expression) : '(filter deleted)'),
        );
      }),
    ),
  );
}

/** A ruleset's rules in order; `edit`, when given, adds an Edit button to each. */
export function rulesTable(rules: RuleJson[], edit?: (rule: RuleJson) => void): HTMLElement {
  if (rules.length === 0) return h('p', { class: 'muted' }, 'No rules.');
  return h(
    'table',
    { class: 'table ruleset-rules' },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        h('th', {}, '#'),
        h('th', {}, 'Action'),
        h('th', {}, 'Description'),
        h('th', {}, 'Expression'),
        edit && h('th', {}, ''),
      ),
    ),
    h(
      'tbody',
      {},
      ...rules.map((rule, index) =>
        h(
          'tr',
          { class: rule.enabled ? '' : 'is-off', 'data-rule': rule.id },
          h('td', {}, String(index + 1)),
          h(
            'td',
            {},
            h('span', { class: `action action-${rule.action}` }, rule.action),
            !rule.enabled && h('span', { class: 'badge' }, 'disabled'),
          ),
          h('td', { class: 'description' }, rule.description),
          h('td', {}, h('code', { class: 'expression' }, rule.expression)),
          edit &&
            h(
              'td',
              {},
              h(
                'button',
                { type: 'button', class: 'button small edit-rule', onclick: () => edit(rule) },
                'Edit',
              ),
            ),
        ),
      ),
    ),
  );
}
