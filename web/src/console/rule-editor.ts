import { PHASE_ACTIONS } from '../../../src/scheme/actions.js';
import type { Phase } from '../../../src/scheme/profile.js';
import { analyse } from '../analysis.js';
import { showDiagnostics } from '../diagnostic-view.js';
import { h, replaceChildren, select } from '../dom.js';
import { expressionEditor } from '../editor/expression-editor.js';
import { type RuleJson, type RulesetJson, type ZoneContext, zonePath } from './context.js';
import { errorBox } from './error-view.js';

// Creating or editing a rule: the playground's expression editor, checked live for the zone's plan and
// the rule's phase (the same underlines, diagnostics and quick fixes), and the API's answer when saved —
// the API checks everything again, with its own permissions, and its refusal is shown with its codes.

export type EditedRule =
  /** A custom rule of the zone's http_request_firewall_custom entry point (made on first save). */
  | { kind: 'custom'; entryPoint?: RulesetJson; rule?: RuleJson }
  /** A new firewall rule, created with its filter in one call. */
  | { kind: 'firewall' };

const FIREWALL_ACTIONS = ['block', 'challenge', 'js_challenge', 'managed_challenge', 'allow', 'log'];
// `skip` needs parameters the form has no field for.
const CUSTOM_ACTIONS = PHASE_ACTIONS.http_request_firewall_custom.filter((action) => action !== 'skip');

export function ruleEditor(
  context: ZoneContext,
  edited: EditedRule,
  on: { done: () => void; cancel: () => void },
): HTMLElement {
  const existing = edited.kind === 'custom' ? edited.rule : undefined;
  const phase: Phase = edited.kind === 'custom' ? 'http_request_firewall_custom' : 'firewall_rules';
  const actions = edited.kind === 'custom' ? CUSTOM_ACTIONS : FIREWALL_ACTIONS;
  const description = h('input', {
    id: 'rule-description',
    class: 'wide',
    'aria-label': 'Description',
    spellcheck: 'false',
  });
  description.value = existing?.description ?? '';
  const action = select(
    { id: 'rule-action', 'aria-label': 'Action' },
    actions.map((name) => [name, name] as const),
    existing?.action ?? 'block',
  );
  const enabled = h('input', { type: 'checkbox', id: 'rule-enabled', checked: existing?.enabled ?? true });
  const editorHost = h('div', { class: 'editor', id: 'rule-expression' });
  const diagnostics = h('div', { class: 'diagnostics', id: 'rule-diagnostics', 'aria-live': 'polite' });
  const answer = h('div', { id: 'rule-answer', 'aria-live': 'polite' });
  const save = h('button', { type: 'button', class: 'button primary', id: 'rule-save' }, 'Save');
  const cancel = h('button', { type: 'button', class: 'button', id: 'rule-cancel' }, 'Cancel');

  let expression = existing?.expression ?? '';
  let timer: ReturnType<typeof setTimeout> | undefined;
  const check = async () => {
    const source = expression;
    const result = await analyse(source, context.plan, phase);
    if (source === expression) showDiagnostics(diagnostics, source, result.diagnostics, applyFix);
  };
  const view = expressionEditor({
    parent: editorHost,
    text: expression,
    profile: () => ({ plan: context.plan, phase }),
    analyse: (source) => analyse(source, context.plan, phase),
    onChange: (text) => {
      expression = text;
      clearTimeout(timer);
      timer = setTimeout(() => void check(), 200);
    },
  });
  const applyFix = (from: number, to: number, text: string) =>
    view.dispatch({ changes: { from, to, insert: text } });
  void check();

  save.addEventListener('click', async () => {
    save.disabled = true;
    replaceChildren(answer, h('span', { class: 'muted' }, 'Saving…'));
    try {
      await submit(context, edited, {
        action: action.value,
        expression,
        description: description.value,
        enabled: enabled.checked,
      });
      on.done();
    } catch (error) {
      replaceChildren(answer, errorBox(error, 'The API refused the rule'));
    } finally {
      save.disabled = false;
    }
  });
  cancel.addEventListener('click', on.cancel);
  const remove =
    edited.kind === 'custom' && edited.entryPoint && existing
      ? h('button', { type: 'button', class: 'button danger', id: 'rule-delete' }, 'Delete')
      : undefined;
  remove?.addEventListener('click', async () => {
    if (edited.kind !== 'custom' || !edited.entryPoint || !existing) return;
    if (!window.confirm('Delete this rule?')) return;
    try {
      await context.api.call(
        'DELETE',
        zonePath(context, `/rulesets/${edited.entryPoint.id}/rules/${existing.id}`),
      );
      on.done();
    } catch (error) {
      replaceChildren(answer, errorBox(error, 'The API refused to delete the rule'));
    }
  });

  const title =
    edited.kind === 'firewall' ? 'New firewall rule' : existing ? 'Edit custom rule' : 'New custom rule';
  return h(
    'section',
    { class: 'panel rule-editor', 'aria-label': title },
    h(
      'div',
      { class: 'panel-head' },
      h('h2', {}, title),
      h('span', { class: 'muted' }, `checked for the ${context.zone.plan.name} plan, phase ${phase}`),
    ),
    h('label', { class: 'form-row' }, h('span', {}, 'Description'), description),
    h(
      'div',
      { class: 'form-line' },
      h('label', { class: 'control' }, 'Action ', action),
      h('label', { class: 'control' }, enabled, ' Enabled'),
    ),
    h('div', { class: 'form-label' }, 'Expression'),
    editorHost,
    diagnostics,
    h('div', { class: 'actions' }, save, cancel, remove),
    answer,
  );
}

interface RuleFields {
  action: string;
  expression: string;
  description: string;
  enabled: boolean;
}

async function submit(context: ZoneContext, edited: EditedRule, fields: RuleFields): Promise<void> {
  const { api } = context;
  if (edited.kind === 'firewall') {
    await api.call('POST', zonePath(context, '/firewall/rules'), [
      {
        action: fields.action,
        description: fields.description,
        paused: !fields.enabled,
        filter: { expression: fields.expression },
      },
    ]);
    return;
  }
  const { entryPoint, rule } = edited;
  if (entryPoint && rule)
    await api.call('PATCH', zonePath(context, `/rulesets/${entryPoint.id}/rules/${rule.id}`), fields);
  else if (entryPoint) await api.call('POST', zonePath(context, `/rulesets/${entryPoint.id}/rules`), fields);
  else
    await api.call('PUT', zonePath(context, '/rulesets/phases/http_request_firewall_custom/entrypoint'), {
      rules: [fields],
    });
}
