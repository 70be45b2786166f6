import type { PreviousWafPackage } from '../../../src/engine/previous-waf/model.js';
import type { PageRuleJson } from '../../../src/service/page-rules.js';
import type { GroupJson } from '../../../src/service/previous-waf.js';
import { h } from '../dom.js';
import { type FirewallRuleJson, type ZoneContext, zonePath } from './context.js';

// The previous WAF settings of a zone, as the migration view shows them beside the configuration that
// replaces them.

/**
 * The previous WAF's packages and groups as the zone has set them, its URI-based overrides, and what
 * becomes the migration's skip rules: firewall rules that bypass the WAF, page rules that turn it off.
 */
export async function previousWafView(context: ZoneContext): Promise<HTMLElement> {
  const { api } = context;
  const packagesPath = zonePath(context, '/firewall/waf/packages');
  const packages = await api.all<PreviousWafPackage>(packagesPath);
  const groups = await Promise.all(
    packages.map((pkg) => api.all<GroupJson>(`${packagesPath}/${pkg.id}/groups`)),
  );
  const overrides = await api.all<unknown>(zonePath(context, '/firewall/waf/overrides'), 50);
  const bypassing = (await api.all<FirewallRuleJson>(zonePath(context, '/firewall/rules'))).filter(
    (rule) => rule.action === 'bypass' && rule.products?.includes('waf'),
  );
  const pageRules = (await api.get<PageRuleJson[]>(zonePath(context, '/pagerules'))).filter((rule) =>
    rule.actions.some((action) => action.id === 'disable_security' || action.id === 'waf'),
  );
  return h(
    'div',
    {},
    bypassing.length > 0 &&
      h(
        'div',
        { class: 'waf-bypass' },
        h('h3', {}, 'Firewall rules that bypass the WAF'),
        h(
          'ul',
          {},
          ...bypassing.map((rule) =>
            h(
              'li',
              {},
              rule.description || rule.id,
              ': ',
              h('code', {}, 'expression' in rule.filter ? rule.filter.expression : '(filter deleted)'),
            ),
          ),
        ),
      ),
    pageRules.length > 0 &&
      h(
        'div',
        { class: 'waf-page-rules' },
        h('h3', {}, 'Page rules with WAF settings'),
        h(
          'ul',
          {},
          ...pageRules.map((rule) =>
            h(
              'li',
              {},
              h('code', {}, rule.targets.map((target) => target.constraint.value).join(' ')),
              ` (${rule.status}): `,
              rule.actions
                .map((action) =>
                  action.value === undefined ? action.id : `${action.id} ${String(action.value)}`,
                )
                .join(', '),
            ),
          ),
        ),
      ),
    ...packages.map((pkg, index) => {
      const changed = (groups[index] ?? []).filter(
        (group) => group.mode === 'off' || group.modified_rules_count > 0,
      );
      return h(
        'div',
        { class: 'waf-package' },
        h('h3', {}, pkg.name),
        h(
          'div',
          { class: 'muted' },
          pkg.detection_mode === 'anomaly'
            ? `anomaly scoring: sensitivity ${pkg.sensitivity}, action ${pkg.action_mode}`
            : `${pkg.detection_mode}`,
        ),
        changed.length === 0
          ? h('p', { class: 'muted' }, `${(groups[index] ?? []).length} groups, all on, no rule changed.`)
          : h(
              'ul',
              { class: 'waf-groups' },
              ...changed.map((group) =>
                h(
                  'li',
                  {},
                  h('strong', {}, group.name),
                  ` — ${group.mode}`,
                  group.modified_rules_count > 0 ? `, ${group.modified_rules_count} rules changed` : '',
                ),
              ),
            ),
      );
    }),
    overrides.length > 0 &&
      h('p', { class: 'warn' }, `${overrides.length} URI-based overrides (they block the migration).`),
  );
}
