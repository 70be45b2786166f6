import type { Entry, Headers, SampleRequestJson } from '../http.js';
import type { Version } from './clients.js';
import type { Random } from './random.js';

/** The corpus being built: entries with unique names that say what each request is. */
export class CorpusBuilder {
  readonly entries: Entry[] = [];
  private readonly counts = new Map<string, number>();

  constructor(readonly random: Random) {}

  add(kind: string, label: string, request: SampleRequestJson): void {
    const n = (this.counts.get(kind) ?? 0) + 1;
    this.counts.set(kind, n);
    const short = label.length > 140 ? `${label.slice(0, 137)}...` : label;
    this.entries.push({ name: `${kind} ${n}: ${short}`, kind, request });
  }

  /** A client address in the documentation ranges, a fifth of them IPv6. */
  ip(): string {
    const random = this.random;
    if (random.chance(0.2))
      return `2001:db8:${random.hex(4).replace(/^0+(?=.)/, '')}::${random.hex(3).replace(/^0+(?=.)/, '')}`;
    const prefix = random.pick(['203.0.113', '198.51.100', '192.0.2']);
    return `${prefix}.${random.int(1, 254)}`;
  }
}

export interface Send {
  readonly method: string;
  readonly host: string;
  /** Path and query. */
  readonly target: string;
  readonly version: Version;
  readonly headers: Headers;
  readonly clientIp: string;
  /** A text body (UTF-8), or exact bytes. */
  readonly body?: string | { base64: string };
  readonly edge?: Record<string, unknown>;
  readonly scheme?: 'http' | 'https';
}

/** The sample request (docs/request.md) for a message: the body as sent, the headers as written. */
export function message(send: Send): SampleRequestJson {
  return {
    method: send.method,
    url: `${send.scheme ?? 'https'}://${send.host}${send.target}`,
    version: send.version,
    headers: send.headers,
    clientIp: send.clientIp,
    ...(send.body === undefined
      ? {}
      : { body: typeof send.body === 'string' ? { text: send.body } : send.body }),
    ...(send.edge === undefined ? {} : { edge: send.edge }),
  };
}

/** Header names lower-cased over HTTP/2 and HTTP/3, as those clients send them. */
export const forVersion = (version: Version, headers: Headers): Headers =>
  version === 'HTTP/1.1'
    ? headers
    : headers.map(([name, value]): [string, string] => [name.toLowerCase(), value]);

/** `Content-Length` of a text body in bytes. */
export const lengthOf = (body: string): string => String(Buffer.byteLength(body));
