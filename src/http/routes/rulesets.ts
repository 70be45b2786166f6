import type { FastifyInstance, FastifyRequest } from 'fastify';
import { requirePermissions } from '../../service/auth.js';
import type { Services } from '../../service/services.js';
import { readWafMigration } from '../../service/waf-migration-hook.js';
import { success } from '../envelope.js';
import { NO_CONTENT, params, productZone, query, resource } from './route.js';

/** The Rulesets API of a zone (docs/api.md, "Rulesets"). */
export function rulesetRoutes(app: FastifyInstance, { auth, rulesets }: Services): void {
  const zone = productZone(auth, 'rulesets');
  const p = (request: FastifyRequest, name: string) => params(request)[name] as string;
  const write = (request: FastifyRequest) => ({ query: query(request) });
  const base = '/zones/:zone_id/rulesets';

  resource(app, base, {
    GET: (request) => {
      const { result, resultInfo } = rulesets.list(zone(request, 'read'), query(request));
      return success(result, resultInfo);
    },
    POST: (request) => success(rulesets.create(zone(request, 'edit'), request.body, write(request))),
  });
  resource(app, `${base}/:ruleset_id`, {
    GET: (request) => success(rulesets.get(zone(request, 'read'), p(request, 'ruleset_id'))),
    PUT: (request) =>
      success(rulesets.update(zone(request, 'edit'), p(request, 'ruleset_id'), request.body, write(request))),
    DELETE: (request) => {
      rulesets.delete(zone(request, 'edit'), p(request, 'ruleset_id'), write(request));
      return NO_CONTENT;
    },
  });
  resource(app, `${base}/:ruleset_id/rules`, {
    POST: (request) =>
      success(
        rulesets.addRule(zone(request, 'edit'), p(request, 'ruleset_id'), request.body, write(request)),
      ),
  });
  resource(app, `${base}/:ruleset_id/rules/:rule_id`, {
    PATCH: (request) =>
      success(
        rulesets.editRule(
          zone(request, 'edit'),
          p(request, 'ruleset_id'),
          p(request, 'rule_id'),
          request.body,
          write(request),
        ),
      ),
    DELETE: (request) =>
      success(
        rulesets.deleteRule(
          zone(request, 'edit'),
          p(request, 'ruleset_id'),
          p(request, 'rule_id'),
          write(request),
        ),
      ),
  });
  resource(app, `${base}/:ruleset_id/versions`, {
    GET: (request) => success(rulesets.versions(zone(request, 'read'), p(request, 'ruleset_id'))),
  });
  resource(app, `${base}/:ruleset_id/versions/:version`, {
    GET: (request) =>
      success(rulesets.version(zone(request, 'read'), p(request, 'ruleset_id'), p(request, 'version'))),
    DELETE: (request) => {
      rulesets.deleteVersion(
        zone(request, 'edit'),
        p(request, 'ruleset_id'),
        p(request, 'version'),
        write(request),
      );
      return NO_CONTENT;
    },
  });
  // Registered after `:ruleset_id`: Fastify prefers the static segment `phases` whatever the order.
  resource(app, `${base}/phases/:phase/entrypoint`, {
    GET: (request) => success(rulesets.getEntryPoint(zone(request, 'read'), p(request, 'phase'))),
    PUT: (request) => {
      const target = zone(request, 'edit');
      const wafMigration = readWafMigration(query(request));
      // The migration hook also turns the previous WAF off for good: it is a WAF edit as well.
      if (wafMigration) requirePermissions(request.principal, ['zone_waf:edit']);
      return success(
        rulesets.putEntryPoint(target, p(request, 'phase'), request.body, {
          ...write(request),
          wafMigration,
        }),
      );
    },
  });
  resource(app, `${base}/phases/:phase/entrypoint/versions`, {
    GET: (request) => success(rulesets.entryPointVersions(zone(request, 'read'), p(request, 'phase'))),
  });
  resource(app, `${base}/phases/:phase/entrypoint/versions/:version`, {
    GET: (request) =>
      success(rulesets.entryPointVersion(zone(request, 'read'), p(request, 'phase'), p(request, 'version'))),
  });
}
