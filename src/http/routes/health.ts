import type { FastifyInstance } from 'fastify';
import { CODES } from '../../service/errors.js';
import type { Store } from '../../store/store.js';
import { success } from '../envelope.js';
import { HttpRefusal } from '../json-body.js';
import { resource } from './route.js';

/**
 * `GET /client/v4/health`, for a load balancer or a supervisor: no credentials, 200 while the database
 * answers a read, 503 when it does not (and, from Fastify, while the instance is stopping). A cfrules
 * extension: Cloudflare's API has no such path.
 */
export function healthRoutes(app: FastifyInstance, store: Store, prefix: string): void {
  resource(app, `${prefix}/health`, {
    GET: async () => {
      try {
        await store.transaction((tx) => tx.accounts.count());
      } catch (error) {
        throw new HttpRefusal(503, {
          code: CODES.unavailable,
          message: `the database does not answer: ${(error as Error).message}`,
        });
      }
      return success({ status: 'ok', database: store.kind });
    },
  });
}
