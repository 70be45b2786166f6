import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Services } from '../../service/services.js';
import { success } from '../envelope.js';
import { params, productZone, query, resource } from './route.js';

export function firewallRuleRoutes(app: FastifyInstance, { auth, firewallRules: rules }: Services): void {
  const zone = productZone(auth, 'firewall_services');
  const ruleId = (request: FastifyRequest) => params(request).rule_id as string;

  resource(app, '/zones/:zone_id/firewall/rules', {
    GET: async (request) => {
      const { result, resultInfo } = await rules.list(await zone(request, 'read'), query(request));
      return success(result, resultInfo);
    },
    POST: async (request) => success(await rules.create(await zone(request, 'edit'), request.body)),
    PUT: async (request) => success(await rules.updateMany(await zone(request, 'edit'), request.body)),
    PATCH: async (request) => success(await rules.editPriorities(await zone(request, 'edit'), request.body)),
    DELETE: async (request) =>
      success(await rules.deleteMany(await zone(request, 'edit'), query(request), request.body)),
  });
  resource(app, '/zones/:zone_id/firewall/rules/:rule_id', {
    GET: async (request) => success(await rules.get(await zone(request, 'read'), ruleId(request))),
    PUT: async (request) =>
      success(await rules.update(await zone(request, 'edit'), ruleId(request), request.body)),
    PATCH: async (request) =>
      success(await rules.edit(await zone(request, 'edit'), ruleId(request), request.body)),
    DELETE: async (request) =>
      success(
        await rules.delete(await zone(request, 'edit'), ruleId(request), {
          deleteFilterIfUnused: deleteFilterIfUnused(request),
        }),
      ),
  });
}

/** `delete_filter_if_unused`, from the JSON body (as documented) or the query string. */
function deleteFilterIfUnused(request: FastifyRequest): boolean {
  const body = request.body as { delete_filter_if_unused?: unknown } | undefined;
  if (typeof body === 'object' && body !== null && body.delete_filter_if_unused === true) return true;
  const flag = query(request).delete_filter_if_unused;
  return flag === 'true' || (Array.isArray(flag) && flag.includes('true'));
}
