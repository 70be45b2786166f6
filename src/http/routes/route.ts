import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import type { AuthService } from '../../service/auth.js';
import { CODES } from '../../service/errors.js';
import type { QueryParams } from '../../service/pagination.js';
import type { Access, Product } from '../../service/permissions.js';
import type { ZoneRecord } from '../../store/store.js';
import { type Envelope, failure } from '../envelope.js';

/** A handler's answer: the envelope, or `NO_CONTENT` for Cloudflare's bodiless 204 (deleting a ruleset). */
export type Handler = (request: FastifyRequest) => Promise<Envelope | typeof NO_CONTENT>;
export const NO_CONTENT = Symbol('204 No Content');
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
type Method = (typeof METHODS)[number];
/** The other methods Fastify routes; HEAD is answered as GET where there is a GET (Fastify's default). */
const OTHER_METHODS = ['HEAD', 'OPTIONS', 'TRACE'] as const;

/** The paths registered with `resource`, for the 405 of methods Fastify does not route (PROPFIND…). */
export type ResourceList = { pattern: RegExp; allowed: readonly string[] }[];

declare module 'fastify' {
  interface FastifyInstance {
    /** Set by buildApp (src/http/app.ts); absent when `resource` is used on another instance. */
    cfrulesResources?: ResourceList;
  }
}

/** The methods of the registered path that `path` (no query) is, if any; a trailing slash is ignored. */
export function allowedMethods(resources: ResourceList, path: string): readonly string[] | undefined {
  const bare = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  return resources.find((resource) => resource.pattern.test(bare))?.allowed;
}

/** `/zones/:zone_id/filters` as a regular expression: a parameter is one non-empty segment. */
const patternOf = (url: string): RegExp =>
  new RegExp(
    `^${url
      .split('/')
      .map((part) => (part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('/')}$`,
  );

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
  app.cfrulesResources?.push({ pattern: patternOf(`${app.prefix}${url}`), allowed });
  for (const method of allowed) {
    const handler = handlers[method] as Handler;
    app.route({
      method,
      url,
      // Not an `async` handler: Fastify would then also look at its returned promise. What a rejection
      // carries goes to the error handler, as a throw would.
      handler: (request, reply) => {
        handler(request).then(
          (answer) => (answer === NO_CONTENT ? reply.status(204).send() : reply.send(answer)),
          (error) => reply.send(error),
        );
      },
    });
  }
  const others: string[] = METHODS.filter((method) => !handlers[method]);
  for (const method of OTHER_METHODS) if (method !== 'HEAD' || !handlers.GET) others.push(method);
  app.route({
    method: others as HTTPMethods[],
    url,
    handler: async (request: FastifyRequest, reply: FastifyReply) =>
      methodNotAllowed(request, reply, allowed),
  });
}

/** 405 with `Allow`: the path exists, the method does not. */
export function methodNotAllowed(request: FastifyRequest, reply: FastifyReply, allowed: readonly string[]) {
  return reply
    .status(405)
    .header('allow', allowed.join(', '))
    .send(
      failure([
        {
          code: CODES.methodNotAllowed,
          message: `Method ${request.method} not allowed on this path: use ${allowed.join(', ')}`,
        },
      ]),
    );
}

/**
 * The zone a request's path names, for a product's routes: `zone(request, 'read')` needs the product's read
 * permission, `'edit'` its edit permission (docs/api.md, "Permissions").
 */
export const productZone =
  (auth: AuthService, product: Product) =>
  (request: FastifyRequest, access: Access): Promise<ZoneRecord> =>
    auth.zone(request.principal, params(request).zone_id as string, `${product}:${access}`);

/** Path parameters by name. */
export const params = (request: FastifyRequest): Record<string, string> =>
  request.params as Record<string, string>;

export const query = (request: FastifyRequest): QueryParams => request.query as QueryParams;

/**
 * The query string as sent (the text after `?`, still percent-encoded), for a reader that decodes it
 * strictly: `query` is Fastify's reading, which keeps a value that does not decode as its raw text.
 */
export function rawQueryString(request: FastifyRequest): string {
  const mark = request.url.indexOf('?');
  return mark === -1 ? '' : request.url.slice(mark + 1);
}
