import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { requirePeer } from '../peers.js';
import type { Principal } from '../service/auth.js';
import { type ApiMessage, CODES, ServiceError } from '../service/errors.js';
import { createServices } from '../service/services.js';
import type { SimulateOptions } from '../service/simulate.js';
import { simulationRunner } from '../service/simulate-runner.js';
import type { Store } from '../store/store.js';
import { VERSION } from '../version.js';
import { type Envelope, failure, STATUS, shownText } from './envelope.js';
import { bodyText, HttpRefusal } from './json-body.js';
import { filterRoutes } from './routes/filters.js';
import { firewallRuleRoutes } from './routes/firewall-rules.js';
import { healthRoutes } from './routes/health.js';
import { previousWafRoutes } from './routes/previous-waf.js';
import { allowedMethods, methodNotAllowed, type ResourceList } from './routes/route.js';
import { rulesetRoutes } from './routes/rulesets.js';
import { simulateRoutes } from './routes/simulate.js';
import { zoneRoutes } from './routes/zones.js';
import { answerClientError, answerUnsupportedExpectation } from './socket-answers.js';
import { webPageRoutes } from './web-pages.js';

/**
 * The HTTP face of the service: Cloudflare's v4 API under `/client/v4`. Routes are thin (read the request,
 * call a service, wrap the result in the envelope); everything else is here: JSON bodies, credentials,
 * and the envelope on every response, errors of every kind included (404, 405, 413, bad JSON, …).
 */

export const API_PREFIX = '/client/v4';
/** Request bodies above this size get 413: a thousand rules of 4,096 characters fit. */
export const BODY_LIMIT = 8 * 1024 * 1024;

/**
 * How long a client may take, in milliseconds, so that a stalled one cannot hold a connection (docs/api.md
 * §3): to send its headers, its whole request, and between two requests on a kept-alive connection; and
 * how long a connection may stay silent. An expired request gets 408 (7005), then the connection closes.
 */
export const TIMEOUTS = { headers: 10_000, request: 30_000, keepAlive: 10_000, idle: 60_000 } as const;
export type Timeouts = { [name in keyof typeof TIMEOUTS]: number };

export interface AppOptions {
  store: Store;
  bodyLimit?: number;
  /** Where unexpected errors (answered with 500) are reported; stderr by default. */
  reportError?: (error: unknown) => void;
  /** Replaces some of TIMEOUTS (milliseconds). */
  timeouts?: Partial<Timeouts>;
  /**
   * `POST /zones/{id}/simulate`: where simulations run (by default a worker thread when the built worker
   * script is there, else this thread) and the answer's budget in bytes (SIMULATE_ANSWER_BYTES).
   */
  simulate?: SimulateOptions;
  /**
   * The directory of the built browser pages (dist/web, WEB_DIRECTORY) to serve at `/` (the console) and
   * `/playground`, beside the API; none by default (`cfrules serve` serves them unless --no-console).
   */
  webPages?: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated caller (set before any route handler runs). */
    principal: Principal;
  }
}

export function buildApp(options: AppOptions): FastifyInstance {
  const services = createServices(options.store, {
    simulate: { ...options.simulate, runner: options.simulate?.runner ?? simulationRunner() },
  });
  const report = options.reportError ?? ((error: unknown) => console.error(error));
  const bodyLimit = options.bodyLimit ?? BODY_LIMIT;
  const timeouts: Timeouts = { ...TIMEOUTS, ...options.timeouts };
  const { fastify } = requirePeer<typeof import('fastify')>('fastify');
  const app = fastify({
    bodyLimit,
    logger: false,
    forceCloseConnections: 'idle',
    // A request that arrives while the service stops is answered (with Connection: close), not given
    // Fastify's own 503 body, which is not the envelope.
    return503OnClosing: false,
    // `/zones/<id>/filters/` is `/zones/<id>/filters`, not a filter with an empty id.
    routerOptions: { ignoreTrailingSlash: true },
    requestTimeout: timeouts.request,
    keepAliveTimeout: timeouts.keepAlive,
    connectionTimeout: timeouts.idle,
    // Node checks the header and request timeouts every `connectionsCheckingInterval` (30 s by default).
    http: {
      headersTimeout: timeouts.headers,
      connectionsCheckingInterval: Math.min(1000, timeouts.headers, timeouts.request),
    },
    // Fastify's answers to a path it cannot even decode (`%zz`) or to an over-long parameter.
    frameworkErrors: (error, request, reply) => {
      const answer = (reply as FastifyReply).header('x-cfrules-version', VERSION).status(400);
      if (error.code === 'FST_ERR_BAD_URL' || error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
        answer.send(cannotRoute(request.url));
      } else {
        answer.send(
          failure([{ code: CODES.malformedRequest, message: `Malformed request: ${error.message}` }]),
        );
      }
    },
    // Requests Node's HTTP parser refuses (a bad request line, conflicting lengths, headers over the limit)
    // or that time out never reach Fastify: they are answered here, in the envelope too.
    clientErrorHandler: answerClientError,
  });
  app.addHook('onClose', () => services.simulate.close());
  // An `Expect` other than 100-continue: Node would answer 417 with no body.
  app.server.on('checkExpectation', answerUnsupportedExpectation);
  const resources: ResourceList = [];
  app.decorate('cfrulesResources', resources);

  // JSON only, in UTF-8 and as sent (no Content-Encoding); an empty body is no body (clients send a JSON
  // content type on bodiless DELETEs). The bytes are read as they are and decoded strictly: a body that is
  // not UTF-8 is refused, not read with U+FFFD in place of its bad bytes.
  app.removeAllContentTypeParsers();
  const parseJson = app.getDefaultJsonParser('remove', 'remove');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    let text: string;
    try {
      text = bodyText(request.headers, body as Buffer);
    } catch (error) {
      done(error as Error);
      return;
    }
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    parseJson(request, text, (error, value) => {
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
    if (error instanceof HttpRefusal) return reply.status(error.status).send(failure([error.apiMessage]));
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
    // A method Fastify does not route (PROPFIND, …) on a path that exists: 405, as for the others.
    const allowed = allowedMethods(resources, request.url.split('?')[0] ?? request.url);
    if (allowed) {
      methodNotAllowed(request, reply, allowed);
      return;
    }
    reply.status(404).send(cannotRoute(request.url));
  });

  healthRoutes(app, options.store, API_PREFIX);
  app.decorateRequest('principal', undefined as unknown as Principal);
  app.register(
    async (api) => {
      // Nothing is reachable without valid credentials (the 404 handler above, for unknown paths, is).
      api.addHook('onRequest', (request, _reply, done) => {
        const header = (name: string) => {
          const value = request.headers[name];
          return Array.isArray(value) ? value[0] : value;
        };
        services.auth
          .authenticate({
            email: header('x-auth-email'),
            key: header('x-auth-key'),
            authorization: header('authorization'),
          })
          .then(
            (principal) => {
              request.principal = principal;
              done();
            },
            (error: Error) => done(error),
          );
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
  if (options.webPages !== undefined) webPageRoutes(app, options.webPages);
  return app;
}

/** Cloudflare's answer to a path it has no route for. */
function cannotRoute(url: string): Envelope {
  const path = shownText(url.split('?')[0] ?? url, 256);
  return failure([
    {
      code: CODES.cannotRoute,
      message: `Could not route to ${path}, perhaps your object identifier is invalid?`,
    },
    { code: CODES.noRoute, message: 'No route for that URI' },
  ]);
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
