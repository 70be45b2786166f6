import { h, replaceChildren } from '../dom.js';
import { Api } from './api.js';
import { errorBox } from './error-view.js';
import { session } from './session.js';
import { signInView } from './sign-in.js';
import { zoneView } from './zone-view.js';
import { zonesView } from './zones.js';

// The console of `cfrules serve` (docs/web.md): sign in with an API token, then the zones it may see and,
// per zone, its rules, a simulation, the WAF migration and a log replay, all through the local API. The
// address holds only where you are (`#/zones/<id>/<tab>`), never the token.

const main = h('main', { class: 'console-main', id: 'console-main' });
const signOut = h('button', { type: 'button', class: 'button', id: 'sign-out' }, 'Sign out');
const nav = h(
  'nav',
  { class: 'console-nav' },
  h('a', { href: '#/', id: 'nav-zones' }, 'Zones'),
  h('a', { href: '/playground', target: '_blank', rel: 'noopener' }, 'Playground'),
  signOut,
);
document.body.append(
  h('header', { class: 'topbar' }, h('h1', {}, h('span', { class: 'logo' }, 'cfrules'), ' console'), nav),
  main,
);

signOut.addEventListener('click', () => {
  session.signOut();
  location.hash = '#/';
  void route();
});

let generation = 0;

async function route(): Promise<void> {
  const current = ++generation;
  const token = session.token();
  nav.hidden = token === undefined;
  if (token === undefined) {
    replaceChildren(
      main,
      signInView((accepted) => {
        session.signIn(accepted);
        void route();
      }),
    );
    return;
  }
  const api = new Api(token);
  const [, what, zoneId, tab] = location.hash.split('/');
  replaceChildren(main, h('div', { class: 'loading' }, 'Loading…'));
  let view: HTMLElement;
  try {
    view =
      what === 'zones' && zoneId
        ? await zoneView(api, decodeURIComponent(zoneId), tab ?? 'rules', () => void route())
        : await zonesView(api);
  } catch (error) {
    view = h(
      'div',
      {},
      errorBox(error),
      h(
        'p',
        { class: 'muted' },
        'A token revoked or narrowed since you signed in? Sign out and sign in again.',
      ),
    );
  }
  if (current === generation) replaceChildren(main, view);
}

window.addEventListener('hashchange', () => void route());
void route();
