import { compile, type Filter } from '../../eval/compile.js';
import type { RequestContext } from '../../eval/context.js';
import { type UrlConstraint, urlConstraintExpression, urlPatternExpression } from './url-patterns.js';

/**
 * URL patterns compiled once each (page rules and overrides of a zone repeat across requests). The cache
 * is bounded: a long replay over many zone files must not grow it without end.
 */

const MAX_CACHED = 4096;
const filters = new Map<string, Filter | null>();

/** The compiled expression, or null when it does not compile (checkPreviousWaf reports the pattern). */
export function urlFilter(expression: string): Filter | null {
  let filter = filters.get(expression);
  if (filter === undefined) {
    const result = compile(expression, {
      plan: 'enterprise',
      phase: 'http_request_firewall_custom',
      lints: false,
    });
    filter = result.ok ? result.filter : null;
    if (filters.size >= MAX_CACHED) filters.clear();
    filters.set(expression, filter);
  }
  return filter;
}

/** Whether a request's URL matches an override's pattern (`example.com/shop/*`). */
export const urlPatternMatches = (pattern: string, context: RequestContext): boolean =>
  urlFilter(urlPatternExpression(pattern))?.match(context) ?? false;

/** Whether a request's URL satisfies a page rule's target. */
export const urlConstraintMatches = (constraint: UrlConstraint, context: RequestContext): boolean =>
  urlFilter(urlConstraintExpression(constraint))?.match(context) ?? false;
