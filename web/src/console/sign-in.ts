import { h, replaceChildren } from '../dom.js';
import { Api } from './api.js';
import { errorBox } from './error-view.js';

// The sign-in form: an API token, checked by listing the zones it may see before it is kept (in the tab's
// sessionStorage only). The form never submits itself, so the token never reaches a URL.

export function signInView(accepted: (token: string) => void): HTMLElement {
  const input = h('input', {
    id: 'token',
    type: 'password',
    class: 'token-input',
    autocomplete: 'off',
    spellcheck: 'false',
    required: true,
    'aria-label': 'API token',
    placeholder: 'the token cfrules serve printed, or one of your --config',
  });
  const problem = h('div', { class: 'sign-in-problem' });
  const form = h(
    'form',
    { class: 'panel sign-in', id: 'sign-in', method: 'post', action: '#' },
    h('h2', {}, 'Sign in'),
    h(
      'p',
      { class: 'muted' },
      'Use an API token of this service. It is kept for this tab only (session storage) and sent to this ',
      'server as Authorization: Bearer; what it may see and change is what the API allows it.',
    ),
    h('label', { class: 'form-row' }, h('span', {}, 'API token'), input),
    h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'button primary' }, 'Sign in')),
    problem,
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const token = input.value.trim();
    if (token === '') return;
    replaceChildren(problem, h('span', { class: 'muted' }, 'Checking…'));
    new Api(token).call('GET', '/zones?per_page=5').then(
      () => accepted(token),
      (error) => replaceChildren(problem, errorBox(error, 'The token was refused')),
    );
  });
  queueMicrotask(() => input.focus());
  return form;
}
