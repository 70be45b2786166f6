import { h } from '../dom.js';
import type { Api } from './api.js';
import type { ZoneContext, ZoneJson } from './context.js';
import { migrationView } from './migration.js';
import { replayView } from './replay/view.js';
import { rulesView } from './rules.js';
import { simulateView } from './simulate.js';

// One zone: its name and plan, and a tab per task. Each tab's view reads what it shows from the API when
// it is drawn.

const TABS: { id: string; label: string; view: (context: ZoneContext) => Promise<HTMLElement> }[] = [
  { id: 'rules', label: 'Rules', view: rulesView },
  { id: 'simulate', label: 'Simulate', view: simulateView },
  { id: 'migration', label: 'WAF migration', view: migrationView },
  { id: 'replay', label: 'Replay', view: replayView },
];

export async function zoneView(
  api: Api,
  zoneId: string,
  tabId: string,
  refresh: () => void,
): Promise<HTMLElement> {
  const zone = await api.get<ZoneJson>(`/zones/${encodeURIComponent(zoneId)}`);
  const context: ZoneContext = { api, zone, plan: zone.plan.id as ZoneContext['plan'], refresh };
  const tab = TABS.find((candidate) => candidate.id === tabId) ?? (TABS[0] as (typeof TABS)[number]);
  const base = `#/zones/${encodeURIComponent(zone.id)}`;
  return h(
    'div',
    { class: 'zone-page' },
    h(
      'div',
      { class: 'zone-head' },
      h('h2', { class: 'zone-name', id: 'zone-name' }, zone.name),
      h('span', { class: 'badge' }, zone.plan.name),
      h('code', { class: 'muted' }, zone.id),
      h(
        'nav',
        { class: 'tabs zone-tabs', role: 'tablist' },
        ...TABS.map((candidate) =>
          h(
            'a',
            {
              class: 'tab',
              role: 'tab',
              href: `${base}/${candidate.id}`,
              'data-tab': candidate.id,
              'aria-selected': String(candidate === tab),
            },
            candidate.label,
          ),
        ),
      ),
    ),
    await tab.view(context),
  );
}
