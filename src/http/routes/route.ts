import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import { CODES } from '../../service/errors.js';
import type { QueryParams } from '../../service/pagination.js';
import { type Envelope, failure } from '../envelope.js';

/** A handler's answer: the envelope, or `NO_CONTENT` for Cloudflare's bodiless 204 (deleting a ruleset). */
export type Handler = (request: FastifyRequest) => Envelope | typeof NO_CONTENT;
export const NO_CONTENT = Symbol('204 No Content');
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
type Method = (typeof METHODS)[number];

/**
 * Registers the handlers of one path, and a 405 (with `Allow`) for the other methods, so that a known path
 * with the wrong method is told so rather than "no route".
 */
export function resource(
  app: FastifyInstance,
  url: string,
  handlers: Partial<Record<Method, Handler>>,
): void {
  const allowed = METHODS.filter((method) => handlers[method]);
  for (const method of allowed) {
    const handler = handlers[method] as Handler;
    // Synchronous (the services are): Fastify sends what a throw carries to the error handler all the same,
    // and an `async` handler costs a promise per request.
    app.route({
      method,
      url,
      handler: (request, reply) => {
        const answer = handler(request);
        if (answer === NO_CONTENT) reply.status(204).send();
        else reply.send(answer);
      },
    });
  }
  const others = METHODS.filter((method) => !handlers[method]);
  if (others.length === 0) return;
  app.route({
    method: others as HTTPMethods[],
    url,
    handler: async (request: FastifyRequest, reply: FastifyReply) =>
      reply
        .status(405)
        .header('allow', allowed.join(', '))
        .send(
          failure([
            {
              code: CODES.methodNotAllowed,
              message: `Method ${request.method} not allowed on this path: use ${allowed.join(', ')}`,
            },
          ]),
        ),
  });
}

/** Path parameters by name. */
export const params = (request: FastifyRequest): Record<string, string> =>
  request.params as Record<string, string>;

export const query = (request: FastifyRequest): QueryParams => request.query as QueryParams;
