// Every answer of the service is the envelope, with a code and the version header: also for what Fastify and
// Node answer themselves (an undecodable path, an over-long parameter, a request Node's parser refuses, an
// unsupported Expect, a timeout), for methods Fastify routes or not, and for a path with a trailing slash.
import { type AddressInfo, connect } from 'node:net';
import { gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp, type Timeouts } from '../../src/http/app.js';
import { applyConfig, readConfig } from '../../src/service/setup.js';
import { openSqliteStore } from '../../src/store/sqlite.js';
import type { Store } from '../../src/store/store.js';
import { CONFIG, type Envelope, TOKEN, ZONES, zonePath } from './harness.js';

const open: { app: FastifyInstance; store: Store; errors: unknown[] }[] = [];
afterEach(async () => {
  for (const { app, store, errors } of open.splice(0)) {
    await app.close();
    await store.close();
    expect(errors).toEqual([]);
  }
});

async function service(timeouts?: Partial<Timeouts>): Promise<FastifyInstance> {
  const store = openSqliteStore(':memory:');
  await applyConfig(store, readConfig(CONFIG));
  const errors: unknown[] = [];
  const app = buildApp({ store, reportError: (error) => errors.push(error), timeouts });
  open.push({ app, store, errors });
  return app;
}

async function listening(timeouts?: Partial<Timeouts>): Promise<number> {
  const app = await service(timeouts);
  await app.listen({ port: 0, host: '127.0.0.1' });
  return (app.server.address() as AddressInfo).port;
}

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: Envelope;
}

/** Writes `text` on a new connection and reads the one answer until the service closes the connection. */
function raw(port: number, text: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(text));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const answer = Buffer.concat(chunks).toString('utf8');
      const end = answer.indexOf('\r\n\r\n');
      const [statusLine = '', ...lines] = answer.slice(0, end).split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
      }
      const body = answer.slice(end + 4);
      // The answer is complete: its length is the one announced.
      expect(Buffer.byteLength(body)).toBe(Number(headers['content-length']));
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: JSON.parse(body) });
    });
  });
}

const expectEnvelope = (answer: { headers: Record<string, unknown>; body: Envelope }, ...codes: number[]) => {
  expect(answer.body).toMatchObject({ success: false, result: null, messages: [] });
  expect(answer.body.errors.map((e) => e.code)).toEqual(codes);
  expect(answer.headers['x-cfrules-version']).toMatch(/^\d+\.\d+\.\d+/);
  expect(answer.headers['content-type']).toMatch(/^application\/json/);
};

const auth = { authorization: `Bearer ${TOKEN}` };
const AUTH = `Authorization: Bearer ${TOKEN}\r\n`;

describe('paths Fastify cannot route', () => {
  it('answers an undecodable path (%zz) and an over-long parameter as an unroutable id: 400, 7003, 7000', async () => {
    const app = await service();
    for (const url of [
      zonePath('%zz'),
      zonePath('a'.repeat(101)),
      zonePath(ZONES.enterprise, '/filters/%zz'),
    ]) {
      const answer = await app.inject({ url, headers: auth });
      expect(answer.statusCode, url).toBe(400);
      const body = answer.json() as Envelope;
      expectEnvelope({ headers: answer.headers, body }, 7003, 7000);
      expect(body.errors[0]?.message).toMatch(/^Could not route to \/client\/v4\/zones\//);
    }
  });

  it('treats a trailing slash as the path without it, not as an empty id', async () => {
    const app = await service();
    const list = await app.inject({ url: zonePath(ZONES.enterprise, '/filters/'), headers: auth });
    expect(list.statusCode).toBe(200);
    expect(list.json()).toMatchObject({ success: true, result: [] });
    const zone = await app.inject({ url: zonePath(ZONES.enterprise, '/'), headers: auth });
    expect(zone.statusCode).toBe(200);
    expect(zone.json().result.id).toBe(ZONES.enterprise);
    const created = await app.inject({
      method: 'POST',
      url: zonePath(ZONES.enterprise, '/filters/'),
      headers: auth,
      payload: [{ expression: 'ssl' }],
    });
    expect(created.statusCode).toBe(200);
  });
});

describe('methods', () => {
  it('answers OPTIONS and TRACE on a known path with 405, 7001 and Allow', async () => {
    const app = await service();
    for (const method of ['OPTIONS', 'TRACE'] as const) {
      const answer = await app.inject({ method, url: zonePath(ZONES.enterprise, '/filters'), headers: auth });
      expect(answer.statusCode, method).toBe(405);
      expect(answer.headers.allow).toBe('GET, POST, PUT, DELETE');
      expectEnvelope({ headers: answer.headers, body: answer.json() }, 7001);
    }
  });

  it('keeps HEAD where there is a GET, and answers it 405 where there is none', async () => {
    const app = await service();
    const head = await app.inject({
      method: 'HEAD',
      url: zonePath(ZONES.enterprise, '/filters'),
      headers: auth,
    });
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
    const simulate = await app.inject({
      method: 'HEAD',
      url: zonePath(ZONES.enterprise, '/simulate'),
      headers: auth,
    });
    expect(simulate.statusCode).toBe(405);
    expect(simulate.headers.allow).toBe('POST');
  });

  it('answers a method Fastify does not route (PROPFIND) on a known path with 405, and on another with 404', async () => {
    const port = await listening();
    const known = await raw(
      port,
      `PROPFIND ${zonePath(ZONES.enterprise, '/filters/')} HTTP/1.1\r\nHost: localhost\r\n${AUTH}Connection: close\r\n\r\n`,
    );
    expect(known.status).toBe(405);
    expect(known.headers.allow).toBe('GET, POST, PUT, DELETE');
    expectEnvelope(known, 7001);
    const unknown = await raw(
      port,
      `PROPFIND /client/v4/nowhere HTTP/1.1\r\nHost: localhost\r\n${AUTH}Connection: close\r\n\r\n`,
    );
    expect(unknown.status).toBe(404);
    expectEnvelope(unknown, 7003, 7000);
  });
});

describe('requests Node refuses before Fastify sees them', () => {
  const cases: [string, string, number, RegExp][] = [
    ['a bad request line', 'HELLO\r\n\r\n', 400, /^Malformed HTTP request: /],
    [
      'Content-Length with Transfer-Encoding',
      `POST ${zonePath(ZONES.enterprise, '/filters')} HTTP/1.1\r\nHost: localhost\r\n${AUTH}` +
        'Content-Type: application/json\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
      400,
      /^Malformed HTTP request: .*Content-Length/,
    ],
    [
      '20 KB of headers',
      `GET /client/v4/zones HTTP/1.1\r\nHost: localhost\r\nX-Padding: ${'a'.repeat(20_000)}\r\n\r\n`,
      431,
      /^Request headers too large: the limit is 16 KiB$/,
    ],
    [
      'an Expect other than 100-continue',
      `GET /client/v4/zones HTTP/1.1\r\nHost: localhost\r\n${AUTH}Expect: bogus\r\n\r\n`,
      417,
      /^Expectation not supported: Expect: bogus/,
    ],
  ];
  for (const [what, text, status, message] of cases) {
    it(`answers ${what} with ${status} and the envelope, then closes the connection`, async () => {
      const port = await listening();
      const answer = await raw(port, text);
      expect(answer.status).toBe(status);
      expectEnvelope(answer, 7004);
      expect(answer.body.errors[0]?.message).toMatch(message);
      expect(answer.headers.connection).toBe('close');
    });
  }
});

describe('timeouts', () => {
  it('answers a client that sends nothing, or stops half-way, with 408 and 7005, and closes', async () => {
    const port = await listening({ headers: 200, request: 400 });
    const silent = await raw(port, '');
    expect(silent.status).toBe(408);
    expectEnvelope(silent, 7005);
    const partialHeaders = await raw(port, 'GET /client/v4/zones HTTP/1.1\r\nHost: localhost\r\n');
    expect(partialHeaders.status).toBe(408);
    expectEnvelope(partialHeaders, 7005);
    const partialBody = await raw(
      port,
      `POST ${zonePath(ZONES.enterprise, '/filters')} HTTP/1.1\r\nHost: localhost\r\n${AUTH}` +
        'Content-Type: application/json\r\nContent-Length: 100\r\n\r\n[{"expr',
    );
    expect(partialBody.status).toBe(408);
    expectEnvelope(partialBody, 7005);
  });
});

describe('request bodies, byte for byte', () => {
  const url = zonePath(ZONES.enterprise, '/filters');
  const post = async (payload: Buffer, headers: Record<string, string> = {}) =>
    (await service()).inject({
      method: 'POST',
      url,
      headers: { ...auth, 'content-type': 'application/json', ...headers },
      payload,
    });
  const bytes = (...parts: (string | number[])[]) =>
    Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part) : Buffer.from(part))));

  it('refuses a body that is not UTF-8 with 400, 6007, instead of reading U+FFFD', async () => {
    for (const bad of [[0xff], [0xc3], [0xed, 0xa0, 0x80], [0xc0, 0xaf]]) {
      const answer = await post(bytes('[{"expression": "http.host eq \\"', bad, '\\""}]'));
      expect(answer.statusCode, String(bad)).toBe(400);
      expectEnvelope({ headers: answer.headers, body: answer.json() }, 6007);
      expect(answer.json().errors[0].message).toBe('Malformed JSON in request body: it is not valid UTF-8');
    }
  });

  it('keeps UTF-8 text as sent, with or without a byte order mark', async () => {
    const expression = 'http.host eq "é😀.example"';
    const plain = await post(Buffer.from(JSON.stringify([{ expression }])));
    expect(plain.statusCode).toBe(200);
    expect(plain.json().result[0].expression).toBe(expression);
    const withBom = await post(bytes([0xef, 0xbb, 0xbf], JSON.stringify([{ expression }])));
    expect(withBom.statusCode).toBe(200);
    expect(withBom.json().result[0].expression).toBe(expression);
  });

  it('refuses a Content-Encoding it does not decode with 415, 7006; identity is no encoding', async () => {
    const json = JSON.stringify([{ expression: 'ssl' }]);
    for (const encoding of ['gzip', 'br', 'deflate, gzip']) {
      const answer = await post(gzipSync(json), { 'content-encoding': encoding });
      expect(answer.statusCode, encoding).toBe(415);
      expectEnvelope({ headers: answer.headers, body: answer.json() }, 7006);
      expect(answer.json().errors[0].message).toMatch(
        /^Unsupported Content-Encoding: .*send the body uncompressed$/,
      );
    }
    const identity = await post(Buffer.from(json), { 'content-encoding': 'identity' });
    expect(identity.statusCode).toBe(200);
  });

  it('refuses a charset other than UTF-8 with 415, 7006, and reads UTF-8 however it is spelt', async () => {
    const json = JSON.stringify([{ expression: 'ssl' }]);
    for (const charset of ['utf-16', 'UTF-16LE', 'iso-8859-1', '"latin1"']) {
      const answer = await post(Buffer.from(json, charset === 'utf-16' ? 'utf16le' : 'latin1'), {
        'content-type': `application/json; charset=${charset}`,
      });
      expect(answer.statusCode, charset).toBe(415);
      expectEnvelope({ headers: answer.headers, body: answer.json() }, 7006);
      expect(answer.json().errors[0].message).toMatch(/^Unsupported charset: .*; the body must be UTF-8$/);
    }
    for (const [index, charset] of ['utf-8', 'UTF-8', '"utf-8"', 'utf8'].entries()) {
      const answer = await post(Buffer.from(JSON.stringify([{ expression: `http.host eq "${index}"` }])), {
        'content-type': `application/json;charset=${charset}`,
      });
      expect(answer.statusCode, charset).toBe(200);
    }
  });
});
