import type { FastifyInstance } from 'fastify';
import type { Services } from '../../service/services.js';
import { success } from '../envelope.js';
import { params, query, resource } from './route.js';

export function zoneRoutes(app: FastifyInstance, { zones }: Services): void {
  resource(app, '/zones', {
    GET: (request) => {
      const { result, resultInfo } = zones.list(request.principal, query(request));
      return success(result, resultInfo);
    },
    POST: (request) => success(zones.create(request.principal, request.body)),
  });
  resource(app, '/zones/:zone_id', {
    GET: (request) => success(zones.get(request.principal, params(request).zone_id as string)),
    PATCH: (request) =>
      success(zones.edit(request.principal, params(request).zone_id as string, request.body)),
    DELETE: (request) => success(zones.delete(request.principal, params(request).zone_id as string)),
  });
}
