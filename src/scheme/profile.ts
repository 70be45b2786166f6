/**
 * Where an expression will run: the zone's plan and the phase (or legacy product). Availability of fields,
 * functions and `matches` depends on both; see docs/language.md, "Plans and phases".
 */
export const PLANS = ['free', 'pro', 'business', 'enterprise'] as const;
export type Plan = (typeof PLANS)[number];

export const planNames: Record<Plan, string> = {
  free: 'Free',
  pro: 'Pro',
  business: 'Business',
  enterprise: 'Enterprise',
};

/** True when `plan` includes everything `required` offers. */
export const planAtLeast = (plan: Plan, required: Plan): boolean =>
  PLANS.indexOf(plan) >= PLANS.indexOf(required);

/**
 * Phases of the Rulesets engine where expressions run, plus `firewall_rules`: the legacy Firewall Rules /
 * Filters product (also accepted as `filters`).
 */
export const REQUEST_PHASES = [
  'firewall_rules',
  'http_request_dynamic_redirect',
  'http_request_redirect',
  'http_request_transform',
  'http_request_origin',
  'http_request_cache_settings',
  'http_config_settings',
  'http_request_firewall_custom',
  'http_ratelimit',
  'http_request_firewall_managed',
  'http_request_sbfm',
  'http_request_late_transform',
  'ddos_l7',
] as const;

export const RESPONSE_PHASES = [
  'http_response_headers_transform',
  'http_custom_errors',
  'http_response_compression',
  'http_log_custom_fields',
  'http_response_firewall_managed',
] as const;

export const NETWORK_PHASES = ['magic_transit', 'magic_transit_managed', 'ddos_l4'] as const;

/**
 * Not a phase of the Rulesets engine but a product with its own short list of fields: the conditions of
 * Load Balancing rules (a load balancer's `rules[].condition`).
 */
export const LOAD_BALANCING = 'load_balancing';

export const PHASES = [...REQUEST_PHASES, ...RESPONSE_PHASES, ...NETWORK_PHASES, LOAD_BALANCING] as const;
export type Phase = (typeof PHASES)[number];

/** Alternative spellings users write for a phase. */
const phaseAliases: Record<string, Phase> = {
  filters: 'firewall_rules',
  firewall: 'firewall_rules',
  load_balancer: LOAD_BALANCING,
  lb: LOAD_BALANCING,
};

/** Reads a plan name case-insensitively; undefined when unknown. */
export function parsePlan(text: string): Plan | undefined {
  const lower = text.trim().toLowerCase();
  return (PLANS as readonly string[]).includes(lower) ? (lower as Plan) : undefined;
}

/** Reads a phase name (or alias); undefined when unknown. */
export function parsePhase(text: string): Phase | undefined {
  const lower = text.trim().toLowerCase();
  if ((PHASES as readonly string[]).includes(lower)) return lower as Phase;
  return phaseAliases[lower];
}

/**
 * Groups of phases in which a field or function exists. A field's catalogue entry names one group.
 * - `http`: every HTTP phase, request and response (request data stays visible to response phases);
 * - `body`: phases that inspect the request body (WAF custom and managed rules, rate limiting, legacy
 *   firewall rules);
 * - `response`: response phases (and rate limiting, which may count on response data);
 * - `transform`: Transform Rules phases;
 * - `custom`: WAF custom rules only;
 * - `response_transform`: response header Transform Rules and custom error rules;
 * - `network`: Cloudflare Network Firewall (Magic Firewall) phases;
 * - `shared`: both HTTP and Network Firewall phases (`ip.src` and its geolocation);
 * - `load_balancing`: Load Balancing rules only (`cf.load_balancer.*`, `dns.*`);
 * - `managed`: the WAF managed rules phase (the `waf.*` fields of Cloudflare's managed rulesets).
 * Load Balancing rules are the exception to groups: they accept only the fields marked `loadBalancing` in the
 * catalogue, whatever their group (see `isFieldAvailableIn`).
 */
export type Availability =
  | 'http'
  | 'body'
  | 'response'
  | 'transform'
  | 'custom'
  | 'response_transform'
  | 'network'
  | 'shared'
  | 'load_balancing'
  | 'managed';

const HTTP_PHASES: readonly Phase[] = [...REQUEST_PHASES, ...RESPONSE_PHASES];

export const availabilityPhases: Record<Availability, readonly Phase[]> = {
  http: HTTP_PHASES,
  body: ['firewall_rules', 'http_request_firewall_custom', 'http_request_firewall_managed', 'http_ratelimit'],
  response: [...RESPONSE_PHASES, 'http_ratelimit'],
  transform: ['http_request_transform', 'http_request_late_transform', 'http_response_headers_transform'],
  custom: ['http_request_firewall_custom'],
  response_transform: ['http_response_headers_transform', 'http_custom_errors'],
  network: NETWORK_PHASES,
  shared: PHASES,
  load_balancing: [LOAD_BALANCING],
  managed: ['http_request_firewall_managed'],
};

/** Whether a field of the catalogue exists in a phase. */
export const isFieldAvailableIn = (
  field: { availability?: Availability; loadBalancing?: boolean },
  phase: Phase,
): boolean =>
  phase === LOAD_BALANCING
    ? field.loadBalancing === true
    : availabilityPhases[field.availability ?? 'http'].includes(phase);
