import type { FastifyInstance } from 'fastify';
import type { Services } from '../../service/services.js';
import { success } from '../envelope.js';
import { params, resource } from './route.js';

/**
 * `POST /zones/{zone_id}/simulate`: a cfrules extension. It reads every product's settings of the zone, so
 * it needs every product's read permission.
 */
export function simulateRoutes(app: FastifyInstance, { auth, simulate }: Services): void {
  resource(app, '/zones/:zone_id/simulate', {
    POST: async (request) => {
      const zone = await auth.zone(
        request.principal,
        params(request).zone_id as string,
        'firewall_services:read',
        'rulesets:read',
        'zone_waf:read',
        'page_rules:read',
      );
      return simulate.simulate(zone, request.body).then((result) => success(result));
    },
  });
}
