import type { FastifyInstance } from 'fastify';
import type { Services } from '../../service/services.js';
import { success } from '../envelope.js';
import { params, query, resource } from './route.js';

export function zoneRoutes(app: FastifyInstance, { zones }: Services): void {
  resource(app, '/zones', {
    GET: async (request) => {
      const { result, resultInfo } = await zones.list(request.principal, query(request));
      return success(result, resultInfo);
    },
    POST: async (request) => success(await zones.create(request.principal, request.body)),
  });
  resource(app, '/zones/:zone_id', {
    GET: async (request) => success(await zones.get(request.principal, params(request).zone_id as string)),
    PATCH: async (request) =>
      success(await zones.edit(request.principal, params(request).zone_id as string, request.body)),
    DELETE: async (request) =>
      success(await zones.delete(request.principal, params(request).zone_id as string)),
  });
}
