import type { FastifyError, FastifyInstance } from 'fastify';
import { requirePeer } from '../peers.js';
import type { Principal } from '../service/auth.js';
import { type ApiMessage, CODES, ServiceError } from '../service/errors.js';
import { createServices } from '../service/services.js';
import type { Store } from '../store/store.js';
import { VERSION } from '../version.js';
import { failure, STATUS } from './envelope.js';
import { filterRoutes } from './routes/filters.js';
import { firewallRuleRoutes } from './routes/firewall-rules.js';
import { previousWafRoutes } from './routes/previous-waf.js';
import { rulesetRoutes } from './routes/rulesets.js';
import { simulateRoutes } from './routes/simulate.js';
import { zoneRoutes } from './routes/zones.js';

/**
 * The HTTP face of the service: Cloudflare's v4 API under `/client/v4`. Routes are thin (read the request,
 * call a service, wrap the result in the envelope); everything else is here: JSON bodies, credentials,
 * and the envelope on every response, errors of every kind included (404, 405, 413, bad JSON, …).
 */

export const API_PREFIX = '/client/v4';
/** Request bodies above this size get 413: a thousand rules of 4,096 characters fit. */
export const BODY_LIMIT = 8 * 1024 * 1024;

export interface AppOptions {
  store: Store;
  bodyLimit?: number;
  /** Where unexpected errors (answered with 500) are reported; stderr by default. */
  reportError?: (error: unknown) => void;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated caller (set before any route handler runs). */
    principal: Principal;
  }
}

export function buildApp(options: AppOptions): FastifyInstance {
  const services = createServices(options.store);
  const report = options.reportError ?? ((error: unknown) => console.error(error));
  const bodyLimit = options.bodyLimit ?? BODY_LIMIT;
  const { fastify } = requirePeer<typeof import('fastify')>('fastify');
  const app = fastify({ bodyLimit, logger: false, forceCloseConnections: 'idle' });

  // JSON only; an empty body is no body (clients send a JSON content type on bodiless DELETEs).
  app.removeAllContentTypeParsers();
  const parseJson = app.getDefaultJsonParser('remove', 'remove');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '' || (typeof body === 'string' && body.trim() === '')) {
      done(null, undefined);
      return;
    }
    parseJson(request, body as string, (error, value) => {
      if (error)
        done(
          new ServiceError('bad-request', {
            code: CODES.malformedJson,
            message: 'Malformed JSON in request body',
          }),
        );
      else done(null, value);
    });
  });

  // Hooks take Fastify's callback form, not `async`: a promise per hook per request is measurable on
  // small answers (bench/RESULTS.md, API section).
  app.addHook('onSend', (_request, reply, payload, done) => {
    reply.header('x-cfrules-version', VERSION);
    // The official SDK retries 5xx answers unless told not to; a local service has nothing to wait for.
    if (reply.statusCode >= 500) reply.header('x-should-retry', 'false');
    done(null, payload);
  });

  app.setErrorHandler((error: FastifyError, _request, reply) => {
    if (error instanceof ServiceError) return reply.status(STATUS[error.kind]).send(failure(error.errors));
    const known = fastifyErrors(error, bodyLimit);
    if (known) return reply.status(known.status).send(failure([known.message]));
    report(error);
    return reply
      .status(500)
      .send(
        failure([
          { code: CODES.internal, message: 'Internal server error: the failure was logged by the service' },
        ]),
      );
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? request.url;
    reply.status(404).send(
      failure([
        {
          code: CODES.cannotRoute,
          message: `Could not route to ${path}, perhaps your object identifier is invalid?`,
        },
        { code: CODES.noRoute, message: 'No route for that URI' },
      ]),
    );
  });

  app.decorateRequest('principal', undefined as unknown as Principal);
  app.register(
    async (api) => {
      // Nothing is reachable without valid credentials (the 404 handler above, for unknown paths, is).
      api.addHook('onRequest', (request, _reply, done) => {
        const header = (name: string) => {
          const value = request.headers[name];
          return Array.isArray(value) ? value[0] : value;
        };
        try {
          request.principal = services.auth.authenticate({
            email: header('x-auth-email'),
            key: header('x-auth-key'),
            authorization: header('authorization'),
          });
        } catch (error) {
          done(error as Error);
          return;
        }
        done();
      });
      zoneRoutes(api, services);
      filterRoutes(api, services);
      firewallRuleRoutes(api, services);
      previousWafRoutes(api, services);
      rulesetRoutes(api, services);
      simulateRoutes(api, services);
    },
    { prefix: API_PREFIX },
  );
  return app;
}

/** Fastify's own request errors, as API messages. */
function fastifyErrors(
  error: FastifyError,
  bodyLimit: number,
): { status: number; message: ApiMessage } | undefined {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return {
        status: 400,
        message: { code: CODES.contentType, message: 'Content-type must be application/json.' },
      };
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return {
        status: 413,
        message: {
          code: CODES.bodyTooLarge,
          message: `Request body too large: the limit is ${bodyLimit} bytes`,
        },
      };
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return {
        status: 400,
        message: { code: CODES.malformedJson, message: 'Malformed JSON in request body' },
      };
  }
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    return { status, message: { code: CODES.invalidQuery, message: `Invalid request: ${error.message}` } };
  }
  return undefined;
}
