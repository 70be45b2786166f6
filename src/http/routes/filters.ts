import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Services } from '../../service/services.js';
import { validateExpression } from '../../service/validate-expr.js';
import { success } from '../envelope.js';
import { params, productZone, query, rawQueryString, resource } from './route.js';

export function filterRoutes(app: FastifyInstance, { auth, filters }: Services): void {
  const zone = productZone(auth, 'firewall_services');
  const filterId = (request: FastifyRequest) => params(request).filter_id as string;

  resource(app, '/zones/:zone_id/filters', {
    GET: (request) => {
      const { result, resultInfo } = filters.list(zone(request, 'read'), query(request));
      return success(result, resultInfo);
    },
    POST: (request) => success(filters.create(zone(request, 'edit'), request.body)),
    PUT: (request) => success(filters.updateMany(zone(request, 'edit'), request.body)),
    DELETE: (request) => success(filters.deleteMany(zone(request, 'edit'), query(request), request.body)),
  });
  resource(app, '/zones/:zone_id/filters/:filter_id', {
    GET: (request) => success(filters.get(zone(request, 'read'), filterId(request))),
    PUT: (request) => success(filters.update(zone(request, 'edit'), filterId(request), request.body)),
    DELETE: (request) => success(filters.delete(zone(request, 'edit'), filterId(request))),
  });
  // Not zone-scoped: checks an expression as Cloudflare's parser would.
  resource(app, '/filters/validate-expr', {
    GET: (request) => {
      validateExpression({ queryString: rawQueryString(request) });
      return success(null);
    },
    POST: (request) => {
      validateExpression({ body: request.body });
      return success(null);
    },
  });
}
