import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Services } from '../../service/services.js';
import { success } from '../envelope.js';
import { params, productZone, query, resource } from './route.js';

/** The previous WAF (packages, groups, rules, URI-based overrides), page rules and the WAF migration. */
export function previousWafRoutes(app: FastifyInstance, services: Services): void {
  const { auth, previousWaf: waf, wafOverrides: overrides, pageRules, wafMigration: migration } = services;
  const zone = productZone(auth, 'zone_waf');
  const pageRuleZone = productZone(auth, 'page_rules');
  const p = (request: FastifyRequest, name: string) => params(request)[name] as string;
  const listed = ({ result, resultInfo }: { result: unknown; resultInfo?: unknown }) =>
    success(result, resultInfo);

  const packages = '/zones/:zone_id/firewall/waf/packages';
  resource(app, packages, {
    GET: async (r) => listed(await waf.listPackages(await zone(r, 'read'), query(r))),
  });
  resource(app, `${packages}/:package_id`, {
    GET: async (r) => success(await waf.getPackage(await zone(r, 'read'), p(r, 'package_id'))),
    PATCH: async (r) => success(await waf.editPackage(await zone(r, 'edit'), p(r, 'package_id'), r.body)),
  });
  resource(app, `${packages}/:package_id/groups`, {
    GET: async (r) => listed(await waf.listGroups(await zone(r, 'read'), p(r, 'package_id'), query(r))),
  });
  resource(app, `${packages}/:package_id/groups/:group_id`, {
    GET: async (r) =>
      success(await waf.getGroup(await zone(r, 'read'), p(r, 'package_id'), p(r, 'group_id'))),
    PATCH: async (r) =>
      success(await waf.editGroup(await zone(r, 'edit'), p(r, 'package_id'), p(r, 'group_id'), r.body)),
  });
  resource(app, `${packages}/:package_id/rules`, {
    GET: async (r) => listed(await waf.listRules(await zone(r, 'read'), p(r, 'package_id'), query(r))),
  });
  resource(app, `${packages}/:package_id/rules/:rule_id`, {
    GET: async (r) => success(await waf.getRule(await zone(r, 'read'), p(r, 'package_id'), p(r, 'rule_id'))),
    PATCH: async (r) =>
      success(await waf.editRule(await zone(r, 'edit'), p(r, 'package_id'), p(r, 'rule_id'), r.body)),
  });

  resource(app, '/zones/:zone_id/firewall/waf/overrides', {
    GET: async (r) => listed(await overrides.list(await zone(r, 'read'), query(r))),
    POST: async (r) => success(await overrides.create(await zone(r, 'edit'), r.body)),
  });
  resource(app, '/zones/:zone_id/firewall/waf/overrides/:override_id', {
    GET: async (r) => success(await overrides.get(await zone(r, 'read'), p(r, 'override_id'))),
    PUT: async (r) => success(await overrides.update(await zone(r, 'edit'), p(r, 'override_id'), r.body)),
    DELETE: async (r) => success(await overrides.delete(await zone(r, 'edit'), p(r, 'override_id'))),
  });

  resource(app, '/zones/:zone_id/pagerules', {
    GET: async (r) => success(await pageRules.list(await pageRuleZone(r, 'read'), query(r))),
    POST: async (r) => success(await pageRules.create(await pageRuleZone(r, 'edit'), r.body)),
  });
  resource(app, '/zones/:zone_id/pagerules/:pagerule_id', {
    GET: async (r) => success(await pageRules.get(await pageRuleZone(r, 'read'), p(r, 'pagerule_id'))),
    PUT: async (r) =>
      success(await pageRules.update(await pageRuleZone(r, 'edit'), p(r, 'pagerule_id'), r.body)),
    PATCH: async (r) =>
      success(await pageRules.edit(await pageRuleZone(r, 'edit'), p(r, 'pagerule_id'), r.body)),
    DELETE: async (r) => success(await pageRules.delete(await pageRuleZone(r, 'edit'), p(r, 'pagerule_id'))),
  });

  resource(app, '/zones/:zone_id/waf_migration/check', {
    GET: async (r) => {
      const { result, messages } = await migration.check(await zone(r, 'read'), query(r));
      return success(result, undefined, messages);
    },
  });
  resource(app, '/zones/:zone_id/waf_migration/config', {
    GET: async (r) => {
      const { result, messages } = await migration.config(await zone(r, 'read'), query(r));
      return success(result, undefined, messages);
    },
  });
  resource(app, '/zones/:zone_id/waf_migration/status', {
    GET: async (r) => success(await migration.status(await zone(r, 'read'))),
  });
}
