import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Services } from '../../service/services.js';
import { success } from '../envelope.js';
import { params, productZone, query, resource } from './route.js';

export function firewallRuleRoutes(app: FastifyInstance, { auth, firewallRules: rules }: Services): void {
  const zone = productZone(auth, 'firewall_services');
  const ruleId = (request: FastifyRequest) => params(request).rule_id as string;

  resource(app, '/zones/:zone_id/firewall/rules', {
    GET: (request) => {
      const { result, resultInfo } = rules.list(zone(request, 'read'), query(request));
      return success(result, resultInfo);
    },
    POST: (request) => success(rules.create(zone(request, 'edit'), request.body)),
    PUT: (request) => success(rules.updateMany(zone(request, 'edit'), request.body)),
    PATCH: (request) => success(rules.editPriorities(zone(request, 'edit'), request.body)),
    DELETE: (request) => success(rules.deleteMany(zone(request, 'edit'), query(request), request.body)),
  });
  resource(app, '/zones/:zone_id/firewall/rules/:rule_id', {
    GET: (request) => success(rules.get(zone(request, 'read'), ruleId(request))),
    PUT: (request) => success(rules.update(zone(request, 'edit'), ruleId(request), request.body)),
    PATCH: (request) => success(rules.edit(zone(request, 'edit'), ruleId(request), request.body)),
    DELETE: (request) =>
      success(
        rules.delete(zone(request, 'edit'), ruleId(request), {
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
