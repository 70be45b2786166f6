import type { CrsRule } from '../crs.js';

/**
 * CRS 911: method enforcement. A site answers a handful of methods; anything else (WebDAV verbs, TRACE,
 * invented methods that some servers treat as GET) is a probe or an attempt to reach a handler the site
 * never meant to expose.
 */

/**
 * CRS's default policy (`tx.allowed_methods`, crs-setup rule 900200): `GET HEAD POST OPTIONS`. CRS tests the
 * method as a substring of that text, so a fragment such as `GE` would pass; a request method is a whole
 * token, so it is compared whole here.
 */
const ALLOWED_METHODS = ['GET', 'HEAD', 'POST', 'OPTIONS'];

export const METHOD_ENFORCEMENT_RULES: readonly CrsRule[] = [
  {
    id: 911100,
    description: 'Method is not allowed by policy',
    paranoiaLevel: 1,
    severity: 'critical',
    tags: ['application-multi', 'language-multi', 'platform-multi', 'attack-generic'],
    targets: 'REQUEST_METHOD',
    // Methods are case-sensitive, as in CRS (cfrules reads a hand-written method in upper case).
    test: { not: { operator: 'in', literal: `{${ALLOWED_METHODS.map((m) => `"${m}"`).join(' ')}}` } },
  },
];
