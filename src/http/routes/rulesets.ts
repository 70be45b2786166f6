import type { FastifyInstance, FastifyRequest } from 'fastify';
import { requirePermissions } from '../../service/auth.js';
import type { Access } from '../../service/permissions.js';
import type { RulesetTarget } from '../../service/rulesets/owner.js';
import type { RulesetService } from '../../service/rulesets/service.js';
import type { Services } from '../../service/services.js';
import { readWafMigration } from '../../service/waf-migration-hook.js';
import { success } from '../envelope.js';
import { NO_CONTENT, params, productZone, query, resource } from './route.js';

/** The Rulesets API of a zone and of an account (docs/api.md, "Rulesets"): the same routes under each. */
export function rulesetRoutes(app: FastifyInstance, { auth, rulesets }: Services): void {
  ownerRoutes(app, rulesets, '/zones/:zone_id/rulesets', productZone(auth, 'rulesets'));
  ownerRoutes(app, rulesets, '/accounts/:account_id/rulesets', (request, access) =>
    auth.account(request.principal, params(request).account_id as string, `account_rulesets:${access}`),
  );
}

/** The routes under `base`, whose owner (zone or account) `owner` resolves with the access a method needs. */
function ownerRoutes(
  app: FastifyInstance,
  rulesets: RulesetService,
  base: string,
  owner: (request: FastifyRequest, access: Access) => Promise<RulesetTarget>,
): void {
  const p = (request: FastifyRequest, name: string) => params(request)[name] as string;
  const write = (request: FastifyRequest) => ({ query: query(request) });

  resource(app, base, {
    GET: async (request) => {
      const { result, resultInfo } = await rulesets.list(await owner(request, 'read'), query(request));
      return success(result, resultInfo);
    },
    POST: async (request) =>
      success(await rulesets.create(await owner(request, 'edit'), request.body, write(request))),
  });
  resource(app, `${base}/:ruleset_id`, {
    GET: async (request) =>
      success(await rulesets.get(await owner(request, 'read'), p(request, 'ruleset_id'))),
    PUT: async (request) =>
      success(
        await rulesets.update(
          await owner(request, 'edit'),
          p(request, 'ruleset_id'),
          request.body,
          write(request),
        ),
      ),
    DELETE: async (request) => {
      await rulesets.delete(await owner(request, 'edit'), p(request, 'ruleset_id'), write(request));
      return NO_CONTENT;
    },
  });
  resource(app, `${base}/:ruleset_id/rules`, {
    POST: async (request) =>
      success(
        await rulesets.addRule(
          await owner(request, 'edit'),
          p(request, 'ruleset_id'),
          request.body,
          write(request),
        ),
      ),
  });
  resource(app, `${base}/:ruleset_id/rules/:rule_id`, {
    PATCH: async (request) =>
      success(
        await rulesets.editRule(
          await owner(request, 'edit'),
          p(request, 'ruleset_id'),
          p(request, 'rule_id'),
          request.body,
          write(request),
        ),
      ),
    DELETE: async (request) =>
      success(
        await rulesets.deleteRule(
          await owner(request, 'edit'),
          p(request, 'ruleset_id'),
          p(request, 'rule_id'),
          write(request),
        ),
      ),
  });
  resource(app, `${base}/:ruleset_id/versions`, {
    GET: async (request) =>
      success(await rulesets.versions(await owner(request, 'read'), p(request, 'ruleset_id'))),
  });
  resource(app, `${base}/:ruleset_id/versions/:version`, {
    GET: async (request) =>
      success(
        await rulesets.version(await owner(request, 'read'), p(request, 'ruleset_id'), p(request, 'version')),
      ),
    DELETE: async (request) => {
      await rulesets.deleteVersion(
        await owner(request, 'edit'),
        p(request, 'ruleset_id'),
        p(request, 'version'),
        write(request),
      );
      return NO_CONTENT;
    },
  });
  // Registered after `:ruleset_id`: Fastify prefers the static segment `phases` whatever the order.
  resource(app, `${base}/phases/:phase/entrypoint`, {
    GET: async (request) =>
      success(await rulesets.getEntryPoint(await owner(request, 'read'), p(request, 'phase'))),
    PUT: async (request) => {
      const target = await owner(request, 'edit');
      const wafMigration = readWafMigration(query(request));
      // The migration hook also turns the previous WAF off for good: it is a WAF edit as well.
      if (wafMigration) requirePermissions(request.principal, ['zone_waf:edit']);
      return success(
        await rulesets.putEntryPoint(target, p(request, 'phase'), request.body, {
          ...write(request),
          wafMigration,
        }),
      );
    },
  });
  resource(app, `${base}/phases/:phase/entrypoint/versions`, {
    GET: async (request) =>
      success(await rulesets.entryPointVersions(await owner(request, 'read'), p(request, 'phase'))),
  });
  resource(app, `${base}/phases/:phase/entrypoint/versions/:version`, {
    GET: async (request) =>
      success(
        await rulesets.entryPointVersion(
          await owner(request, 'read'),
          p(request, 'phase'),
          p(request, 'version'),
        ),
      ),
  });
}
