import { escapeControlCharacters } from '../../lang/escape.js';
import type { RulesetJson } from '../../service/rulesets/model.js';
import {
  customRulesetsIn,
  ExportError,
  type ExportedRulesets,
  type ExportOwner,
  isObjectId,
  nothingToExport,
} from './source.js';

/**
 * Reads a zone's entry points, or an account's rulesets, from a running API (`cfrules serve`, or any with
 * Cloudflare's v4 shape).
 */

export interface ApiConnection {
  /** The base URL, up to and including `/client/v4`. */
  api: string;
  token: string;
  /** The zone (its id, or a name to look up) or the account (its id) read. */
  owner: ExportOwner;
  /** How long one request may take. */
  timeoutMs?: number;
}

export interface ApiSource extends ApiConnection {
  phases: readonly string[];
}

interface Envelope {
  success: boolean;
  result: unknown;
  result_info?: { page?: number; total_pages?: number };
  errors?: { code?: number; message?: string }[];
}

export interface Answer {
  status: number;
  envelope: Envelope;
}

/** Cloudflare's codes for credentials that are missing, malformed, unknown or not allowed on the zone. */
const CREDENTIAL_CODES = new Set([6003, 9103, 9106, 9109, 10000]);
/** "No route" / "no such zone". */
const ZONE_NOT_FOUND_CODES = new Set([7000, 7003]);
const ENTRY_POINT_NOT_FOUND = 10003;

/** What `export terraform` writes: the zone's entry points, or the account's entry points and custom rulesets. */
export async function readRulesetsFromApi(source: ApiSource): Promise<ExportedRulesets> {
  if (source.owner.scope === 'account') return readAccountRulesets(source);
  const { id: zoneId } = await resolveZone(source);
  const owner: ExportOwner = { scope: 'zone', id: zoneId };
  const rulesets = await entryPointsFromApi(source, `/zones/${zoneId}`, source.phases);
  if (rulesets.length === 0) throw nothingToExport(owner, source.phases);
  const customRulesets = customRulesetsIn(await listRulesets(source, `/zones/${zoneId}`), source.phases);
  return { owner, rulesets, customRulesets };
}

/** An account's root entry points, then its custom rulesets, of the phases asked for. */
async function readAccountRulesets(source: ApiSource): Promise<ExportedRulesets> {
  const at = `/accounts/${source.owner.id}`;
  const rulesets = await entryPointsFromApi(source, at, source.phases);
  for (const { id } of customRulesetsIn(await listRulesets(source, at), source.phases))
    rulesets.push(await getResult<RulesetJson>(source, `${at}/rulesets/${id}`));
  if (rulesets.length === 0) throw nothingToExport(source.owner, source.phases);
  return { owner: source.owner, rulesets, customRulesets: [] };
}

/** Every ruleset `GET <owner>/rulesets` lists (without their rules), page after page by cursor. */
async function listRulesets(source: ApiConnection, owner: string): Promise<RulesetJson[]> {
  const rulesets: RulesetJson[] = [];
  for (let cursor = ''; ; ) {
    const path = `${owner}/rulesets?per_page=500${cursor && `&cursor=${encodeURIComponent(cursor)}`}`;
    const answer = await call(source, path);
    if (!answer.envelope.success) throw failure(source, path, answer);
    rulesets.push(...(answer.envelope.result as RulesetJson[]));
    const next = (answer.envelope.result_info as { cursor?: string } | undefined)?.cursor;
    if (!next || next === cursor) return rulesets;
    cursor = next;
  }
}

/** The entry points of these phases (those there are) of the zone or account at `owner` (`/zones/<id>`). */
export async function entryPointsFromApi(
  source: ApiConnection,
  owner: string,
  phases: readonly string[],
): Promise<RulesetJson[]> {
  const rulesets: RulesetJson[] = [];
  for (const phase of phases) {
    const path = `${owner}/rulesets/phases/${phase}/entrypoint`;
    const answer = await call(source, path);
    if (answer.envelope.success) rulesets.push(answer.envelope.result as RulesetJson);
    else if (answer.status !== 404 || !hasCode(answer, ENTRY_POINT_NOT_FOUND))
      throw failure(source, path, answer);
  }
  return rulesets;
}

/** Whether the credential may read `path`: false when the API refuses it (401, 403), else true. */
export async function mayRead(source: ApiConnection, path: string): Promise<boolean> {
  const answer = await call(source, path);
  return answer.status !== 401 && answer.status !== 403;
}

/** The result of a GET that must succeed. */
export async function getResult<T>(source: ApiConnection, path: string): Promise<T> {
  const answer = await call(source, path);
  if (!answer.envelope.success) throw failure(source, path, answer);
  return answer.envelope.result as T;
}

/** Every item of a paginated list (`page`, `per_page` 100), page after page. */
export async function getAllPages<T>(source: ApiConnection, path: string): Promise<T[]> {
  const items: T[] = [];
  const separator = path.includes('?') ? '&' : '?';
  for (let page = 1; ; page++) {
    const pagePath = `${path}${separator}page=${page}&per_page=100`;
    const answer = await call(source, pagePath);
    if (!answer.envelope.success) throw failure(source, pagePath, answer);
    items.push(...(answer.envelope.result as T[]));
    if (page >= (answer.envelope.result_info?.total_pages ?? 1)) return items;
  }
}

/** The zone as `GET /zones/{id}` shows it (what an export needs of it). */
export interface ZoneSummary {
  id: string;
  name?: string;
  account?: { id?: string };
  plan?: { id?: string; legacy_id?: string };
}

/** Checks the zone exists and the token reaches it, so that the error says so rather than "no entry point". */
export async function resolveZone(source: ApiConnection): Promise<ZoneSummary> {
  const zone = source.owner.id;
  if (isObjectId(zone)) {
    const path = `/zones/${zone}`;
    const answer = await call(source, path);
    if (answer.status === 404 && [...ZONE_NOT_FOUND_CODES].some((code) => hasCode(answer, code))) {
      // Cloudflare says "no route" for an unknown zone and for a wrong path alike: a path that always
      // exists tells which. Only on this failure, so a good export costs no extra request.
      const list = await call(source, '/zones?per_page=5');
      if (!list.envelope.success && list.status === 404)
        throw new ExportError(
          `${source.api} is not Cloudflare's v4 API: it has no route for /zones (check --api, which ends with /client/v4)`,
        );
      throw new ExportError(`zone ${zone} not found (HTTP 404: ${apiErrors(answer)})`);
    }
    if (!answer.envelope.success) throw failure(source, path, answer);
    return answer.envelope.result as ZoneSummary;
  }
  const path = `/zones?name=${encodeURIComponent(zone)}`;
  const answer = await call(source, path);
  if (!answer.envelope.success) throw failure(source, path, answer);
  const zones = answer.envelope.result as ZoneSummary[];
  const found = zones[0];
  if (found === undefined) {
    throw new ExportError(
      `no zone named '${escapeControlCharacters(zone)}' that this token reaches (--zone takes a zone id or name)`,
    );
  }
  return found;
}

async function call(source: ApiConnection, path: string): Promise<Answer> {
  const url = `${source.api}${path}`;
  let response: Response;
  try {
    response = await fetch(url, {
      headers: { authorization: `Bearer ${source.token}`, accept: 'application/json' },
      signal: AbortSignal.timeout(source.timeoutMs ?? 30_000),
    });
  } catch (error) {
    throw new ExportError(
      `cannot reach the API at ${source.api}: ${networkReason(error)} (check --api; is 'cfrules serve' running?)`,
    );
  }
  const text = await response.text();
  let envelope: Envelope | undefined;
  try {
    envelope = JSON.parse(text) as Envelope;
  } catch {}
  if (typeof envelope !== 'object' || envelope === null || typeof envelope.success !== 'boolean') {
    throw new ExportError(
      `${source.api} is not Cloudflare's v4 API: GET ${path} answered HTTP ${response.status} without its JSON envelope (check --api, which ends with /client/v4)`,
    );
  }
  return { status: response.status, envelope };
}

function networkReason(error: unknown): string {
  const { name, message, cause } = error as Error & { cause?: { code?: string; message?: string } };
  if (name === 'TimeoutError') return 'no answer in time';
  return cause?.code ?? cause?.message ?? message;
}

const hasCode = (answer: Answer, code: number): boolean =>
  (answer.envelope.errors ?? []).some((error) => error.code === code);

/** The API's own errors, as it wrote them: `9109 Invalid access token`. */
function apiErrors(answer: Answer): string {
  const errors = (answer.envelope.errors ?? []).map((e) => `${e.code ?? '?'} ${e.message ?? ''}`.trim());
  return escapeControlCharacters(errors.join('; ') || 'no error given');
}

export function failure(source: ApiConnection, path: string, answer: Answer): ExportError {
  const said = `HTTP ${answer.status}: ${apiErrors(answer)}`;
  const { scope, id } = source.owner;
  const named = `${scope} ${escapeControlCharacters(id)}`;
  // An unknown account is a routing error, as Cloudflare answers it (a zone is found first: resolveZone).
  if (
    scope === 'account' &&
    answer.status === 404 &&
    [...ZONE_NOT_FOUND_CODES].some((c) => hasCode(answer, c))
  )
    return new ExportError(`${named} not found (${said})`);
  if (
    answer.status === 401 ||
    answer.status === 403 ||
    (answer.envelope.errors ?? []).some((error) => CREDENTIAL_CODES.has(error.code ?? 0))
  ) {
    return new ExportError(
      `the API refused the token for ${named} (${said}); check --token or CLOUDFLARE_API_TOKEN, and that the token may read the ${scope}${scope === 'account' ? "'s rulesets (account_rulesets:read, on a token for every zone of the account)" : ''}`,
    );
  }
  return new ExportError(`GET ${path} failed (${said})`);
}
