import type { CheckResult, StatusResult } from '../../../src/service/waf-migration.js';
import type { MigrationConfig } from '../../../src/service/waf-migration-config.js';
import { h, replaceChildren } from '../dom.js';
import { ApiError, type Envelope, messageText } from './api.js';
import { entryPoint, type RulesetJson, type ZoneContext, zonePath } from './context.js';
import { errorBox } from './error-view.js';
import { managedDeployment } from './managed-view.js';
import { previousWafView } from './previous-waf-view.js';

// The WAF migration of a zone (docs/api.md §7a): its status, whether it may migrate (check), the new
// configuration the service proposes (config) beside the previous WAF settings it replaces, and the entry
// point's update that migrates, at once (pending) or first in validation mode (Enterprise). Each part is
// read on its own, so that a refusal (a Free zone, a zone already migrated) shows where it applies.

const MANAGED_ENTRY_POINT = '/rulesets/phases/http_request_firewall_managed/entrypoint';
/** The previous WAF's endpoints once a zone has completed its migration (410). */
const MIGRATED = 10605;
/** The previous WAF's endpoints on a Free zone. */
const NO_PREVIOUS_WAF = 10600;

const hasCode = (error: unknown, code: number) =>
  error instanceof ApiError && error.errors.some((item) => item.code === code);

/** A call's envelope, or the error it ended with. */
const attempt = <T>(call: Promise<Envelope<T>>) =>
  call.then(
    (envelope) => ({ ok: true as const, envelope }),
    (error: unknown) => ({ ok: false as const, error }),
  );

export async function migrationView(context: ZoneContext): Promise<HTMLElement> {
  const { api } = context;
  const [status, check, config, rulesets] = await Promise.all([
    attempt(api.call<StatusResult>('GET', zonePath(context, '/waf_migration/status'))),
    attempt(api.call<CheckResult>('GET', zonePath(context, '/waf_migration/check?phase_two=1'))),
    attempt(api.call<MigrationConfig>('GET', zonePath(context, '/waf_migration/config?phase_two=1'))),
    api.get<RulesetJson[]>(zonePath(context, '/rulesets?per_page=500')),
  ]);
  // A Free zone never had the previous WAF: every part is the same refusal, shown once.
  if (!status.ok && hasCode(status.error, NO_PREVIOUS_WAF))
    return h(
      'section',
      { class: 'panel', 'aria-label': 'WAF migration', id: 'migration-unavailable' },
      h('div', { class: 'panel-head' }, h('h2', {}, 'WAF migration')),
      h(
        'p',
        { class: 'muted' },
        'The previous WAF, and so its migration, are for Pro, Business and Enterprise zones.',
      ),
      errorBox(status.error),
    );
  const names = new Map(rulesets.filter((r) => r.kind === 'managed').map((r) => [r.id, r.name]));
  const previous = config.ok ? await previousWafView(context) : undefined;

  return h(
    'div',
    { class: 'migration-view' },
    h(
      'div',
      { class: 'migration-top' },
      h(
        'section',
        { class: 'panel', 'aria-label': 'Status', id: 'migration-status' },
        h('div', { class: 'panel-head' }, h('h2', {}, 'Status')),
        status.ok ? statusList(status.envelope.result) : errorBox(status.error),
      ),
      h(
        'section',
        { class: 'panel', 'aria-label': 'Eligibility', id: 'migration-check' },
        h('div', { class: 'panel-head' }, h('h2', {}, 'Eligibility (check)')),
        check.ok ? checkView(check.envelope) : errorBox(check.error),
      ),
    ),
    config.ok
      ? h(
          'div',
          { class: 'side-by-side' },
          h(
            'section',
            { class: 'panel', 'aria-label': 'Previous WAF', id: 'previous-waf' },
            h(
              'div',
              { class: 'panel-head' },
              h('h2', {}, 'Previous WAF'),
              h('span', { class: 'muted' }, 'the settings the configuration replaces'),
            ),
            previous ?? h('p', { class: 'muted' }, 'Not available.'),
          ),
          h(
            'section',
            { class: 'panel', 'aria-label': 'Proposed configuration', id: 'migration-config' },
            h(
              'div',
              { class: 'panel-head' },
              h('h2', {}, 'Proposed configuration (config)'),
              h('span', { class: 'muted' }, `managed entry point "${config.envelope.result.name}"`),
            ),
            managedDeployment({ rules: config.envelope.result.rules } as unknown as RulesetJson, names),
            messagesList(config.envelope.messages, 'Not carried over'),
            migrateControls(context, config.envelope.result),
          ),
        )
      : await noConfiguration(context, config.error, names),
  );
}

/** Why there is no configuration to propose; once migrated (10605), what the zone deploys instead. */
async function noConfiguration(
  context: ZoneContext,
  error: unknown,
  names: ReadonlyMap<string, string>,
): Promise<HTMLElement> {
  const migrated = hasCode(error, MIGRATED);
  const deployed = migrated ? await entryPoint(context, 'http_request_firewall_managed') : undefined;
  return h(
    'section',
    { class: 'panel', 'aria-label': 'Proposed configuration', id: 'migration-config' },
    h(
      'div',
      { class: 'panel-head' },
      h('h2', {}, migrated ? 'Deployed configuration' : 'Proposed configuration (config)'),
      migrated &&
        h(
          'span',
          { class: 'muted' },
          'the managed entry point, as the migration left it or as changed since',
        ),
    ),
    migrated
      ? h(
          'div',
          { id: 'migration-deployed' },
          h(
            'p',
            { class: 'muted' },
            'The zone has migrated: the previous WAF and its configuration endpoint are gone (10605).',
          ),
          deployed
            ? managedDeployment(deployed, names)
            : h('p', { class: 'muted' }, 'No managed entry point.'),
        )
      : errorBox(error, 'No configuration to propose'),
  );
}

function statusList(status: StatusResult): HTMLElement {
  const row = (label: string, value: string, id?: string) =>
    h('div', { class: 'fact' }, h('span', { class: 'muted' }, label), h('strong', { id }, value));
  return h(
    'div',
    { class: 'facts' },
    row('State', status.migration_state, 'migration-state'),
    row('Previous WAF', status.old_waf_status),
    row('New WAF', status.new_waf_status),
    row('Since', status.created),
  );
}

function checkView(envelope: Envelope<CheckResult>): HTMLElement {
  const { compatible } = envelope.result;
  return h(
    'div',
    {},
    h(
      'div',
      { class: `verdict verdict-${compatible}`, id: 'migration-compatible' },
      compatible ? 'Compatible: the zone may migrate' : 'Not compatible',
    ),
    messagesList(envelope.messages, 'Reasons'),
  );
}

function messagesList(messages: Envelope<unknown>['messages'], title: string): HTMLElement | null {
  if (messages.length === 0) return null;
  return h(
    'div',
    { class: 'messages' },
    h('h3', {}, title),
    h('ul', {}, ...messages.map((message) => h('li', {}, messageText(message)))),
  );
}

/** The entry point's update that migrates the zone, with the proposed configuration as its body. */
function migrateControls(context: ZoneContext, config: MigrationConfig): HTMLElement {
  const answer = h('div', { id: 'migrate-answer', 'aria-live': 'polite' });
  const migrate = (mode: 'pending' | 'validation') => async () => {
    const question =
      mode === 'pending'
        ? 'Migrate now? The previous WAF is turned off for good.'
        : 'Start validation? Both WAFs run, the new one first.';
    if (!window.confirm(question)) return;
    replaceChildren(answer, h('span', { class: 'muted' }, 'Updating the managed entry point…'));
    try {
      await context.api.call(
        'PUT',
        zonePath(context, `${MANAGED_ENTRY_POINT}?waf_migration=${mode}&phase_two=1`),
        { name: config.name, rules: config.rules },
      );
      context.refresh();
    } catch (error) {
      replaceChildren(answer, errorBox(error, 'The migration was refused'));
    }
  };
  return h(
    'div',
    { class: 'migrate' },
    h(
      'p',
      { class: 'muted' },
      'Writes this configuration to the http_request_firewall_managed entry point with the migration mode: ',
      'pending completes the migration at once; validation (Enterprise) runs both WAFs first.',
    ),
    h(
      'div',
      { class: 'actions' },
      h(
        'button',
        { type: 'button', class: 'button primary', id: 'migrate-pending', onclick: migrate('pending') },
        'Migrate (pending)',
      ),
      h(
        'button',
        { type: 'button', class: 'button', id: 'migrate-validation', onclick: migrate('validation') },
        'Start validation mode',
      ),
    ),
    answer,
  );
}
