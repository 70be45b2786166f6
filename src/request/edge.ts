import { cloudflareScheme, type FieldDefinition } from '../scheme/scheme.js';
import type { Value } from '../scheme/values.js';
import { asciiUpper } from '../scheme/values.js';
import { describe, entriesOf, isRecord, keyPath, type Problems, unknownKeyMessage } from './json.js';
import { readTypedValue } from './typed-value.js';

/**
 * The `edge` object of a sample request: what Cloudflare knows about a request besides the message itself
 * (geolocation, bot management, WAF scores, TLS, edge port…), under short camelCase keys that each set one
 * field. Values are checked against the range Cloudflare can produce, since a typo there (a bot score of
 * 500) would make a simulation silently meaningless; `fields` accepts any value of the type. The ranges,
 * allowed values and letter case are the field catalogue's (`domain` in src/scheme/fields.json), which the
 * lints read too: one statement of what a field can hold.
 */

/** An edge key sets one field of Cloudflare's catalogue, read with that field's type and domain. */
interface EdgeKey {
  field: string;
  /** Also accept a JSON number, written as text (latitude, longitude). */
  numberAsText?: boolean;
}

export const EDGE_KEYS: Readonly<Record<string, EdgeKey>> = {
  country: { field: 'ip.src.country' },
  continent: { field: 'ip.src.continent' },
  asn: { field: 'ip.src.asnum' },
  city: { field: 'ip.src.city' },
  region: { field: 'ip.src.region' },
  regionCode: { field: 'ip.src.region_code' },
  subdivision1: { field: 'ip.src.subdivision_1_iso_code' },
  subdivision2: { field: 'ip.src.subdivision_2_iso_code' },
  postalCode: { field: 'ip.src.postal_code' },
  metroCode: { field: 'ip.src.metro_code' },
  latitude: { field: 'ip.src.lat', numberAsText: true },
  longitude: { field: 'ip.src.lon', numberAsText: true },
  timezone: { field: 'ip.src.timezone.name' },
  inEuropeanUnion: { field: 'ip.src.is_in_european_union' },
  botScore: { field: 'cf.bot_management.score' },
  verifiedBot: { field: 'cf.bot_management.verified_bot' },
  verifiedBotCategory: { field: 'cf.verified_bot_category' },
  staticResource: { field: 'cf.bot_management.static_resource' },
  jsDetectionPassed: { field: 'cf.bot_management.js_detection.passed' },
  detectionIds: { field: 'cf.bot_management.detection_ids' },
  corporateProxy: { field: 'cf.bot_management.corporate_proxy' },
  signedAgent: { field: 'cf.bot_management.signed_agent' },
  ja3Hash: { field: 'cf.bot_management.ja3_hash' },
  ja4: { field: 'cf.bot_management.ja4' },
  threatScore: { field: 'cf.threat_score' },
  tlsVersion: { field: 'cf.tls_version' },
  tlsCipher: { field: 'cf.tls_cipher' },
  serverIp: { field: 'cf.edge.server_ip' },
  serverPort: { field: 'cf.edge.server_port' },
  clientPort: { field: 'cf.edge.client_port' },
  wafScore: { field: 'cf.waf.score' },
  wafSqliScore: { field: 'cf.waf.score.sqli' },
  wafXssScore: { field: 'cf.waf.score.xss' },
  wafRceScore: { field: 'cf.waf.score.rce' },
  wafScoreClass: { field: 'cf.waf.score.class' },
  colo: { field: 'cf.colo.name' },
  rayId: { field: 'cf.ray_id' },
  zoneName: { field: 'cf.zone.name' },
};

/** Keys of `edge` that configure the simulation rather than set a field. */
export const EDGE_SETTINGS = ['bodyLimit'] as const;

const KNOWN_KEYS: readonly string[] = [...Object.keys(EDGE_KEYS), ...EDGE_SETTINGS];

/** Cloudflare's bands of the global WAF attack score (1–99; 100 means "not scored" and has no class). */
export function wafScoreClass(score: number): string | undefined {
  if (score >= 1 && score <= 20) return 'attack';
  if (score <= 50 && score > 20) return 'likely_attack';
  if (score <= 80 && score > 50) return 'likely_clean';
  if (score <= 99 && score > 80) return 'clean';
  return undefined;
}

/** Reads `edge`; the values go to `into` by field name. */
export function readEdge(
  json: unknown,
  problems: Problems,
  into: Map<string, Value>,
): { bodyLimit?: number } {
  const settings: { bodyLimit?: number } = {};
  if (!isRecord(json)) {
    problems.add('edge', `expected an object, got ${describe(json)}`);
    return settings;
  }
  for (const [key, raw] of entriesOf(json)) {
    const path = keyPath('edge', key);
    if (key === 'bodyLimit') {
      if (typeof raw === 'number' && Number.isSafeInteger(raw) && raw >= 0) settings.bodyLimit = raw;
      else problems.add(path, `expected a number of bytes (an integer ≥ 0), got ${describe(raw)}`);
      continue;
    }
    const spec = Object.hasOwn(EDGE_KEYS, key) ? EDGE_KEYS[key] : undefined;
    if (!spec) {
      problems.add(path, `${unknownKeyMessage('edge key', key, KNOWN_KEYS)}; set other fields in "fields"`);
      continue;
    }
    const json = spec.numberAsText && typeof raw === 'number' && Number.isFinite(raw) ? String(raw) : raw;
    const definition = cloudflareScheme.fields.get(spec.field) as FieldDefinition;
    let value = readTypedValue(json, definition.type, path, problems);
    if (value === undefined) continue;
    const domain = definition.domain ?? {};
    if (domain.case === 'upper' && typeof value === 'string') value = asciiUpper(value);
    const { min, max } = domain;
    if (typeof value === 'number' && ((min ?? value) > value || (max ?? value) < value)) {
      problems.add(path, `${value} is out of range (${min} to ${max})`);
      continue;
    }
    if (domain.values && !domain.values.includes(value as string)) {
      problems.add(path, `expected one of ${domain.values.join(', ')}, got ${describe(json)}`);
      continue;
    }
    into.set(spec.field, value);
  }
  // The class is a function of the global score; derive it unless given, as Cloudflare would.
  const score = into.get('cf.waf.score');
  if (typeof score === 'number' && !into.has('cf.waf.score.class')) {
    const band = wafScoreClass(score);
    if (band) into.set('cf.waf.score.class', band);
  }
  return settings;
}
