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
  resource(app, packages, { GET: (r) => listed(waf.listPackages(zone(r, 'read'), query(r))) });
  resource(app, `${packages}/:package_id`, {
    GET: (r) => success(waf.getPackage(zone(r, 'read'), p(r, 'package_id'))),
    PATCH: (r) => success(waf.editPackage(zone(r, 'edit'), p(r, 'package_id'), r.body)),
  });
  resource(app, `${packages}/:package_id/groups`, {
    GET: (r) => listed(waf.listGroups(zone(r, 'read'), p(r, 'package_id'), query(r))),
  });
  resource(app, `${packages}/:package_id/groups/:group_id`, {
    GET: (r) => success(waf.getGroup(zone(r, 'read'), p(r, 'package_id'), p(r, 'group_id'))),
    PATCH: (r) => success(waf.editGroup(zone(r, 'edit'), p(r, 'package_id'), p(r, 'group_id'), r.body)),
  });
  resource(app, `${packages}/:package_id/rules`, {
    GET: (r) => listed(waf.listRules(zone(r, 'read'), p(r, 'package_id'), query(r))),
  });
  resource(app, `${packages}/:package_id/rules/:rule_id`, {
    GET: (r) => success(waf.getRule(zone(r, 'read'), p(r, 'package_id'), p(r, 'rule_id'))),
    PATCH: (r) => success(waf.editRule(zone(r, 'edit'), p(r, 'package_id'), p(r, 'rule_id'), r.body)),
  });

  resource(app, '/zones/:zone_id/firewall/waf/overrides', {
    GET: (r) => listed(overrides.list(zone(r, 'read'), query(r))),
    POST: (r) => success(overrides.create(zone(r, 'edit'), r.body)),
  });
  resource(app, '/zones/:zone_id/firewall/waf/overrides/:override_id', {
    GET: (r) => success(overrides.get(zone(r, 'read'), p(r, 'override_id'))),
    PUT: (r) => success(overrides.update(zone(r, 'edit'), p(r, 'override_id'), r.body)),
    DELETE: (r) => success(overrides.delete(zone(r, 'edit'), p(r, 'override_id'))),
  });

  resource(app, '/zones/:zone_id/pagerules', {
    GET: (r) => success(pageRules.list(pageRuleZone(r, 'read'), query(r))),
    POST: (r) => success(pageRules.create(pageRuleZone(r, 'edit'), r.body)),
  });
  resource(app, '/zones/:zone_id/pagerules/:pagerule_id', {
    GET: (r) => success(pageRules.get(pageRuleZone(r, 'read'), p(r, 'pagerule_id'))),
    PUT: (r) => success(pageRules.update(pageRuleZone(r, 'edit'), p(r, 'pagerule_id'), r.body)),
    PATCH: (r) => success(pageRules.edit(pageRuleZone(r, 'edit'), p(r, 'pagerule_id'), r.body)),
    DELETE: (r) => success(pageRules.delete(pageRuleZone(r, 'edit'), p(r, 'pagerule_id'))),
  });

  resource(app, '/zones/:zone_id/waf_migration/check', {
    GET: (r) => {
      const { result, messages } = migration.check(zone(r, 'read'), query(r));
      return success(result, undefined, messages);
    },
  });
  resource(app, '/zones/:zone_id/waf_migration/config', {
    GET: (r) => {
      const { result, messages } = migration.config(zone(r, 'read'), query(r));
      return success(result, undefined, messages);
    },
  });
  resource(app, '/zones/:zone_id/waf_migration/status', {
    GET: (r) => success(migration.status(zone(r, 'read'))),
  });
}
