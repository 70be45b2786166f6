import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Access } from '../../service/permissions.js';
import type { Services } from '../../service/services.js';
import { validateExpression } from '../../service/validate-expr.js';
import { success } from '../envelope.js';
import { params, query, resource } from './route.js';

export function filterRoutes(app: FastifyInstance, { auth, filters }: Services): void {
  const zone = (request: FastifyRequest, access: Access) =>
    auth.zone(request.principal, params(request).zone_id as string, `firewall_services:${access}`);
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
      validateExpression(query(request).expression);
      return success(null);
    },
    POST: (request) => {
      const body = request.body as { expression?: unknown } | undefined;
      validateExpression(typeof body === 'object' && body !== null ? body.expression : undefined);
      return success(null);
    },
  });
}
