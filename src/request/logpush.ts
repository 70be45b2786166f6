/**
 * Cloudflare Logpush `http_requests` records as sample requests (docs/request.md, "Logpush records"), so
 * that `cfrules replay` can answer "what would this rule have done to yesterday's traffic?". A record
 * holds what the edge logged, not the whole request: headers other than the user agent and the referer,
 * cookies and bodies are not in it, and fields derived from them are missing.
 */

/** Record keys that set an `edge` key of the sample request, and how to read them. */
const EDGE_FROM_LOGPUSH: readonly [logpush: string, edge: string, read?: (value: unknown) => unknown][] = [
  ['ClientCountry', 'country', (value) => (typeof value === 'string' ? value.toUpperCase() : value)],
  ['ClientASN', 'asn'],
  ['ClientCity', 'city'],
  ['ClientRegionCode', 'regionCode'],
  ['ClientLatitude', 'latitude'],
  ['ClientLongitude', 'longitude'],
  ['ClientSrcPort', 'clientPort'],
  ['EdgeServerIP', 'serverIp'],
  ['EdgeColoCode', 'colo'],
  ['RayID', 'rayId'],
  ['BotScore', 'botScore'],
  ['VerifiedBotCategory', 'verifiedBotCategory'],
  ['JA3Hash', 'ja3Hash'],
  ['JA4', 'ja4'],
  ['WAFAttackScore', 'wafScore'],
  ['WAFSQLiAttackScore', 'wafSqliScore'],
  ['WAFXSSAttackScore', 'wafXssScore'],
  ['WAFRCEAttackScore', 'wafRceScore'],
  ['ClientSSLProtocol', 'tlsVersion'],
  ['ClientSSLCipher', 'tlsCipher'],
];

/** Logpush writes `none` or an empty string where it has no value. */
const absent = (value: unknown): boolean =>
  value === undefined || value === null || value === '' || value === 'none';

/** Whether a JSON object is a Logpush record rather than a sample request. */
export function isLogpushRecord(json: unknown): json is Record<string, unknown> {
  return typeof json === 'object' && json !== null && ('ClientRequestHost' in json || 'ClientIP' in json);
}

/**
 * The sample request a Logpush record describes. Values are passed on as they are: the request reader
 * checks them and reports a bad one by its sample-request key (`edge.asn`), which replay prints with the
 * line number.
 */
export function fromLogpush(record: Record<string, unknown>): Record<string, unknown> {
  const request: Record<string, unknown> = {};
  if (!absent(record.ClientRequestMethod)) request.method = record.ClientRequestMethod;
  const host = record.ClientRequestHost;
  if (!absent(host)) {
    const scheme = absent(record.ClientRequestScheme) ? 'https' : String(record.ClientRequestScheme);
    const target = !absent(record.ClientRequestURI)
      ? String(record.ClientRequestURI)
      : `${absent(record.ClientRequestPath) ? '/' : String(record.ClientRequestPath)}${absent(record.ClientRequestQuery) ? '' : `?${String(record.ClientRequestQuery).replace(/^\?/, '')}`}`;
    request.url = `${scheme}://${String(host)}${target.startsWith('/') ? target : `/${target}`}`;
  }
  if (!absent(record.ClientRequestProtocol)) request.version = record.ClientRequestProtocol;
  const headers: [string, unknown][] = [];
  if (!absent(host)) headers.push(['Host', host]);
  if (!absent(record.ClientRequestUserAgent)) headers.push(['User-Agent', record.ClientRequestUserAgent]);
  if (!absent(record.ClientRequestReferer)) headers.push(['Referer', record.ClientRequestReferer]);
  if (headers.length > 0) request.headers = headers;
  if (!absent(record.ClientIP)) request.clientIp = record.ClientIP;
  const edge: Record<string, unknown> = {};
  for (const [key, edgeKey, read] of EDGE_FROM_LOGPUSH) {
    const value = record[key];
    if (!absent(value)) edge[edgeKey] = read ? read(value) : value;
  }
  if (!absent(record.EdgeServerPort)) edge.serverPort = record.EdgeServerPort;
  if (record.VerifiedBotCategory !== undefined) edge.verifiedBot = !absent(record.VerifiedBotCategory);
  if (Object.keys(edge).length > 0) request.edge = edge;
  return request;
}
