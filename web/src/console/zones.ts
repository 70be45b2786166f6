import { h } from '../dom.js';
import type { Api } from './api.js';
import type { ZoneJson } from './context.js';

// The zones the token may see, each a link to its page.

export async function zonesView(api: Api): Promise<HTMLElement> {
  const zones = await api.all<ZoneJson>('/zones', 50);
  return h(
    'section',
    { class: 'panel', 'aria-label': 'Zones' },
    h('div', { class: 'panel-head' }, h('h2', {}, 'Zones'), h('span', { class: 'muted' }, `${zones.length}`)),
    zones.length === 0
      ? h('p', { class: 'muted' }, 'This token sees no zone.')
      : h(
          'table',
          { class: 'table', id: 'zones' },
          h('thead', {}, h('tr', {}, h('th', {}, 'Name'), h('th', {}, 'Plan'), h('th', {}, 'Id'))),
          h(
            'tbody',
            {},
            ...zones.map((zone) =>
              h(
                'tr',
                {},
                h(
                  'td',
                  {},
                  h('a', { href: `#/zones/${encodeURIComponent(zone.id)}`, class: 'zone-link' }, zone.name),
                  zone.paused && h('span', { class: 'badge' }, 'paused'),
                ),
                h('td', {}, zone.plan.name),
                h('td', {}, h('code', {}, zone.id)),
              ),
            ),
          ),
        ),
  );
}
