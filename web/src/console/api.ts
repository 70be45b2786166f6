// The console's client of the local API (/client/v4, same origin): every call carries the session's token
// as a Bearer credential, and a failure becomes an ApiError holding the envelope's errors, which the page
// shows with their codes and messages (./error-view.ts). No DOM here: the replay's worker uses it too.

export const API_BASE = '/client/v4';

export interface ApiMessage {
  code: number;
  message: string;
  source?: { pointer?: string };
  error_chain?: ApiMessage[];
}

export interface Envelope<T> {
  result: T;
  success: boolean;
  errors: ApiMessage[];
  messages: (ApiMessage | string)[];
  result_info?: { page?: number; total_pages?: number; cursor?: string };
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly errors: ApiMessage[],
  ) {
    super(errors.map((error) => `${error.code}: ${error.message}`).join('; ') || `HTTP ${status}`);
  }
}

export class Api {
  /** `token`: the session's API token, sent as `Authorization: Bearer`. */
  constructor(readonly token: string) {}

  /** The whole envelope of a call that succeeded; throws ApiError otherwise. */
  async call<T>(method: string, path: string, body?: unknown): Promise<Envelope<T>> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.token}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    let response: Response;
    try {
      response = await fetch(API_BASE + path, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        cache: 'no-store',
        credentials: 'omit',
      });
    } catch (error) {
      throw new ApiError(0, [{ code: 0, message: `the API could not be reached: ${String(error)}` }]);
    }
    if (response.status === 204) return { result: null as T, success: true, errors: [], messages: [] };
    let envelope: Envelope<T>;
    try {
      envelope = (await response.json()) as Envelope<T>;
    } catch {
      throw new ApiError(response.status, [
        { code: 0, message: `HTTP ${response.status}: the answer is not JSON` },
      ]);
    }
    if (!envelope.success) throw new ApiError(response.status, envelope.errors ?? []);
    return envelope;
  }

  async get<T>(path: string): Promise<T> {
    return (await this.call<T>('GET', path)).result;
  }

  /** Every page of a list paged by `page` and `per_page`. */
  async all<T>(path: string, perPage = 100): Promise<T[]> {
    const items: T[] = [];
    for (let page = 1; ; page++) {
      const joiner = path.includes('?') ? '&' : '?';
      const envelope = await this.call<T[]>('GET', `${path}${joiner}page=${page}&per_page=${perPage}`);
      items.push(...envelope.result);
      if (envelope.result.length < perPage || page >= (envelope.result_info?.total_pages ?? page)) break;
    }
    return items;
  }
}

/** The messages of a successful answer (the migration's reasons, for one), as text. */
export const messageText = (message: ApiMessage | string): string =>
  typeof message === 'string' ? message : `${message.code}: ${message.message}`;
