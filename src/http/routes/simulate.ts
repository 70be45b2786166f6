import type { FastifyInstance } from 'fastify';
import type { Services } from '../../service/services.js';
import { success } from '../envelope.js';
import { params, resource } from './route.js';

/** `POST /zones/{zone_id}/simulate`: a cfrules extension; reading the zone's configuration is enough. */
export function simulateRoutes(app: FastifyInstance, { auth, simulate }: Services): void {
  resource(app, '/zones/:zone_id/simulate', {
    POST: (request) => {
      const zone = auth.zone(request.principal, params(request).zone_id as string, 'read');
      return success(simulate.simulate(zone, request.body));
    },
  });
}
