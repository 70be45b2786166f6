import type { Type } from '../scheme/types.js';
import type { Value } from '../scheme/values.js';
import { asciiUpper } from '../scheme/values.js';
import { describe, entriesOf, isRecord, keyPath, type Problems, unknownKeyMessage } from './json.js';
import { readTypedValue } from './typed-value.js';

/**
 * The `edge` object of a sample request: what Cloudflare knows about a request besides the message itself
 * (geolocation, bot management, WAF scores, TLS, edge port…), under short camelCase keys that each set one
 * field. Values are checked against the range Cloudflare can produce, since a typo there (a bot score of
 * 500) would make a simulation silently meaningless; `fields` accepts any value of the type.
 */

interface EdgeKey {
  field: string;
  type: Type;
  min?: number;
  max?: number;
  /** Upper-cased before use (country and continent codes are upper case in rules). */
  upper?: boolean;
  values?: readonly string[];
  /** Also accept a JSON number, written as text (latitude, longitude). */
  numberAsText?: boolean;
}

const CONTINENTS = ['AF', 'AN', 'AS', 'EU', 'NA', 'OC', 'SA', 'T1'];
const WAF_CLASSES = ['attack', 'likely_attack', 'likely_clean', 'clean'];

export const EDGE_KEYS: Readonly<Record<string, EdgeKey>> = {
  country: { field: 'ip.src.country', type: 'Bytes', upper: true },
  continent: { field: 'ip.src.continent', type: 'Bytes', upper: true, values: CONTINENTS },
  asn: { field: 'ip.src.asnum', type: 'Int', min: 0, max: 4294967295 },
  city: { field: 'ip.src.city', type: 'Bytes' },
  region: { field: 'ip.src.region', type: 'Bytes' },
  regionCode: { field: 'ip.src.region_code', type: 'Bytes' },
  subdivision1: { field: 'ip.src.subdivision_1_iso_code', type: 'Bytes' },
  subdivision2: { field: 'ip.src.subdivision_2_iso_code', type: 'Bytes' },
  postalCode: { field: 'ip.src.postal_code', type: 'Bytes' },
  metroCode: { field: 'ip.src.metro_code', type: 'Bytes' },
  latitude: { field: 'ip.src.lat', type: 'Bytes', numberAsText: true },
  longitude: { field: 'ip.src.lon', type: 'Bytes', numberAsText: true },
  timezone: { field: 'ip.src.timezone.name', type: 'Bytes' },
  inEuropeanUnion: { field: 'ip.src.is_in_european_union', type: 'Bool' },
  botScore: { field: 'cf.bot_management.score', type: 'Int', min: 1, max: 99 },
  verifiedBot: { field: 'cf.bot_management.verified_bot', type: 'Bool' },
  verifiedBotCategory: { field: 'cf.verified_bot_category', type: 'Bytes' },
  staticResource: { field: 'cf.bot_management.static_resource', type: 'Bool' },
  jsDetectionPassed: { field: 'cf.bot_management.js_detection.passed', type: 'Bool' },
  detectionIds: { field: 'cf.bot_management.detection_ids', type: { array: 'Int' } },
  corporateProxy: { field: 'cf.bot_management.corporate_proxy', type: 'Bool' },
  signedAgent: { field: 'cf.bot_management.signed_agent', type: 'Bool' },
  ja3Hash: { field: 'cf.bot_management.ja3_hash', type: 'Bytes' },
  ja4: { field: 'cf.bot_management.ja4', type: 'Bytes' },
  threatScore: { field: 'cf.threat_score', type: 'Int', min: 0, max: 100 },
  tlsVersion: { field: 'cf.tls_version', type: 'Bytes' },
  tlsCipher: { field: 'cf.tls_cipher', type: 'Bytes' },
  serverIp: { field: 'cf.edge.server_ip', type: 'Ip' },
  serverPort: { field: 'cf.edge.server_port', type: 'Int', min: 1, max: 65535 },
  clientPort: { field: 'cf.edge.client_port', type: 'Int', min: 1, max: 65535 },
  wafScore: { field: 'cf.waf.score', type: 'Int', min: 1, max: 100 },
  wafSqliScore: { field: 'cf.waf.score.sqli', type: 'Int', min: 1, max: 99 },
  wafXssScore: { field: 'cf.waf.score.xss', type: 'Int', min: 1, max: 99 },
  wafRceScore: { field: 'cf.waf.score.rce', type: 'Int', min: 1, max: 99 },
  wafScoreClass: { field: 'cf.waf.score.class', type: 'Bytes', values: WAF_CLASSES },
  colo: { field: 'cf.colo.name', type: 'Bytes' },
  rayId: { field: 'cf.ray_id', type: 'Bytes' },
  zoneName: { field: 'cf.zone.name', type: 'Bytes' },
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
    let value = readTypedValue(json, spec.type, path, problems);
    if (value === undefined) continue;
    if (spec.upper && typeof value === 'string') value = asciiUpper(value);
    if (typeof value === 'number' && ((spec.min ?? value) > value || (spec.max ?? value) < value)) {
      problems.add(path, `${value} is out of range (${spec.min} to ${spec.max})`);
      continue;
    }
    if (spec.values && !spec.values.includes(value as string)) {
      problems.add(path, `expected one of ${spec.values.join(', ')}, got ${describe(json)}`);
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
