import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Services } from '../../service/services.js';
import { validateExpression } from '../../service/validate-expr.js';
import { success } from '../envelope.js';
import { params, productZone, query, rawQueryString, resource } from './route.js';

export function filterRoutes(app: FastifyInstance, { auth, filters }: Services): void {
  const zone = productZone(auth, 'firewall_services');
  const filterId = (request: FastifyRequest) => params(request).filter_id as string;

  resource(app, '/zones/:zone_id/filters', {
    GET: async (request) => {
      const { result, resultInfo } = await filters.list(await zone(request, 'read'), query(request));
      return success(result, resultInfo);
    },
    POST: async (request) => success(await filters.create(await zone(request, 'edit'), request.body)),
    PUT: async (request) => success(await filters.updateMany(await zone(request, 'edit'), request.body)),
    DELETE: async (request) =>
      success(await filters.deleteMany(await zone(request, 'edit'), query(request), request.body)),
  });
  resource(app, '/zones/:zone_id/filters/:filter_id', {
    GET: async (request) => success(await filters.get(await zone(request, 'read'), filterId(request))),
    PUT: async (request) =>
      success(await filters.update(await zone(request, 'edit'), filterId(request), request.body)),
    DELETE: async (request) => success(await filters.delete(await zone(request, 'edit'), filterId(request))),
  });
  // Not zone-scoped: checks an expression as Cloudflare's parser would.
  resource(app, '/filters/validate-expr', {
    GET: async (request) => {
      validateExpression({ queryString: rawQueryString(request) });
      return success(null);
    },
    POST: async (request) => {
      validateExpression({ body: request.body });
      return success(null);
    },
  });
}
