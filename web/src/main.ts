import { ExpressionSyntaxError, format } from '../../src/lang/source.js';
import { PHASES, PLANS, planNames } from '../../src/scheme/profile.js';
import { analyse } from './analysis.js';
import { h, replaceChildren, select } from './dom.js';
import { expressionEditor, profileChanged } from './editor/expression-editor.js';
import { DEFAULT_REQUEST, EXAMPLE_ZONE } from './presets.js';
import { regexUnavailable } from './regex-loading.js';
import { requestForm } from './request-form.js';
import { expressionResult, zoneResult } from './results.js';
import { type Mode, type PlaygroundState, readFragment, writeFragment } from './state.js';

// The playground page: the expression editor or the zone file on the left, the sample request and the
// result on the right, every input mirrored into the URL fragment. All of it runs the library in the page.

const DEFAULTS: PlaygroundState = {
  mode: 'expression',
  plan: 'enterprise',
  phase: 'http_request_firewall_custom',
  expression:
    '(http.request.uri.path contains "/admin" or lower(http.user_agent) contains "bot")\nand not ip.src in {192.0.2.0/24}',
  request: JSON.stringify(DEFAULT_REQUEST),
  zone: EXAMPLE_ZONE,
};

const state = readFragment(location.hash, DEFAULTS);

// --- the top bar ---------------------------------------------------------------------------------------
const modeTabs = (['expression', 'zone'] as const).map((mode) =>
  h(
    'button',
    { type: 'button', class: 'tab', 'data-mode': mode, role: 'tab' },
    mode === 'expression' ? 'Expression' : 'Zone',
  ),
);
const planSelect = select(
  { id: 'plan', 'aria-label': 'Plan' },
  PLANS.map((plan) => [plan, planNames[plan]] as const),
  state.plan,
);
const phaseSelect = select(
  { id: 'phase', 'aria-label': 'Phase' },
  PHASES.map((phase) => [phase, phase] as const),
  state.phase,
);
// The plan and phase apply to the expression; a zone file names its own plan, and each rule its phase.
const profileControls = h(
  'div',
  { class: 'controls' },
  h('label', { class: 'control' }, 'Plan ', planSelect),
  h('label', { class: 'control' }, 'Phase ', phaseSelect),
);
const formatButton = h('button', { type: 'button', id: 'format', class: 'button' }, 'Format');
const linkButton = h('button', { type: 'button', id: 'copy-link', class: 'button' }, 'Copy link');
const status = h('span', { class: 'status', role: 'status' });

// --- the left column --------------------------------------------------------------------------------------
const editorHost = h('div', { id: 'expression-editor', class: 'editor' });
const diagnosticsList = h('div', { id: 'diagnostics', class: 'diagnostics', 'aria-live': 'polite' });
const expressionPanel = h(
  'section',
  { class: 'panel expression-panel', 'aria-label': 'Expression' },
  h('div', { class: 'panel-head' }, h('h2', {}, 'Expression'), formatButton),
  editorHost,
  diagnosticsList,
);
const zoneInput = h('textarea', {
  id: 'zone-input',
  class: 'zone-input',
  spellcheck: 'false',
  'aria-label': 'Zone file (JSON)',
});
zoneInput.value = state.zone;
const zonePanel = h(
  'section',
  { class: 'panel zone-panel', 'aria-label': 'Zone file' },
  h(
    'div',
    { class: 'panel-head' },
    h('h2', {}, 'Zone file'),
    h('span', { class: 'muted' }, 'as for cfrules simulate -z (JSON)'),
  ),
  zoneInput,
);

// --- the right column -------------------------------------------------------------------------------------
const form = requestForm((json) => {
  state.request = json;
  changed();
});
form.load(state.request);
const resultBody = h('div', { id: 'result', class: 'result-body' });
const resultPanel = h(
  'section',
  { class: 'panel result-panel', 'aria-label': 'Result' },
  h('div', { class: 'panel-head' }, h('h2', {}, 'Result')),
  resultBody,
);

document.body.append(
  h(
    'header',
    { class: 'topbar' },
    h('h1', {}, h('span', { class: 'logo' }, 'cfrules'), ' playground'),
    h('nav', { class: 'tabs', role: 'tablist' }, ...modeTabs),
    profileControls,
    linkButton,
    status,
  ),
  h(
    'main',
    { class: 'layout' },
    h('div', { class: 'column' }, expressionPanel, zonePanel),
    h('div', { class: 'column' }, form.element, resultPanel),
  ),
);

const profile = () => ({ plan: state.plan, phase: state.phase });
const view = expressionEditor({
  parent: editorHost,
  text: state.expression,
  profile,
  analyse: (source) => analyse(source, state.plan, state.phase),
  onChange: (text) => {
    state.expression = text;
    changed();
  },
});

// --- reacting to changes ------------------------------------------------------------------------------------
let timer: ReturnType<typeof setTimeout> | undefined;
let generation = 0;

function changed(): void {
  history.replaceState(null, '', writeFragment(state));
  clearTimeout(timer);
  timer = setTimeout(() => void refresh(), 200);
}

function showMode(): void {
  expressionPanel.hidden = state.mode !== 'expression';
  zonePanel.hidden = state.mode !== 'zone';
  profileControls.hidden = state.mode !== 'expression';
  for (const tab of modeTabs) tab.setAttribute('aria-selected', String(tab.dataset.mode === state.mode));
}

/** Replaces `from`–`to` of the expression (a quick fix). */
const applyFix = (from: number, to: number, text: string) =>
  view.dispatch({ changes: { from, to, insert: text } });

async function refresh(): Promise<void> {
  const current = ++generation;
  try {
    const rendered =
      state.mode === 'expression'
        ? await expressionResult(state, diagnosticsList, applyFix)
        : await zoneResult(state, (loading) => {
            status.textContent = loading ?? '';
          });
    if (current === generation) replaceChildren(resultBody, ...rendered);
  } catch (error) {
    // The one expected failure is a regex to run without RE2 (a page opened from disk); say so plainly.
    const message = regexUnavailable() ?? `Unexpected error: ${String(error)}`;
    if (current === generation)
      replaceChildren(resultBody, h('div', { class: 'error-box', id: 'result-error' }, message));
  }
}

// --- controls -------------------------------------------------------------------------------------------------
for (const tab of modeTabs)
  tab.addEventListener('click', () => {
    state.mode = tab.dataset.mode as Mode;
    showMode();
    changed();
  });
const profileSelected = () => {
  state.plan = planSelect.value as PlaygroundState['plan'];
  state.phase = phaseSelect.value as PlaygroundState['phase'];
  view.dispatch({ effects: profileChanged.of(null) });
  changed();
};
planSelect.addEventListener('change', profileSelected);
phaseSelect.addEventListener('change', profileSelected);
zoneInput.addEventListener('input', () => {
  state.zone = zoneInput.value;
  changed();
});
formatButton.addEventListener('click', () => {
  try {
    const formatted = format(state.expression);
    view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: formatted } });
  } catch (error) {
    status.textContent =
      error instanceof ExpressionSyntaxError ? 'Format: fix the errors first' : String(error);
  }
});
linkButton.addEventListener('click', () => {
  const link = location.href.split('#')[0] + writeFragment(state);
  navigator.clipboard?.writeText(link).then(
    () => {
      status.textContent = 'Link copied';
    },
    () => {
      status.textContent = 'The address bar holds the link';
    },
  );
});
window.addEventListener('hashchange', () => {
  const next = readFragment(location.hash, DEFAULTS);
  if (writeFragment(next) === writeFragment(state)) return;
  Object.assign(state, next);
  planSelect.value = state.plan;
  phaseSelect.value = state.phase;
  zoneInput.value = state.zone;
  form.load(state.request);
  view.dispatch({
    changes: { from: 0, to: view.state.doc.length, insert: state.expression },
    effects: profileChanged.of(null),
  });
  showMode();
  void refresh();
});

showMode();
void refresh();
