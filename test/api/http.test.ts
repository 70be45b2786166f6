// The HTTP contract common to every endpoint: the envelope on every response, credentials, JSON bodies,
// unknown routes and methods, body size; and the zones API.
import { describe, expect, it } from 'vitest';
import {
  ACCOUNT,
  API_KEY,
  EMAIL,
  type Envelope,
  freshHarnessPerTest,
  type Harness,
  OTHER_TOKEN,
  READ_TOKEN,
  SCOPED_TOKEN,
  ZONES,
  zonePath,
} from './harness.js';

let h: Harness;
freshHarnessPerTest(
  (fresh) => {
    h = fresh;
  },
  { bodyLimit: 64 * 1024 },
);

const expectFailure = (body: Envelope, ...codes: number[]) => {
  expect(body).toMatchObject({ success: false, result: null, messages: [] });
  expect(body.errors.map((e) => e.code)).toEqual(codes);
};

describe('credentials', () => {
  it('refuses a request without credentials: 400, 9106', async () => {
    const { status, body } = await h.call({ url: zonePath(ZONES.enterprise, '/filters'), auth: false });
    expect(status).toBe(400);
    expectFailure(body, 9106);
    expect(body.errors[0]?.message).toBe('Missing X-Auth-Key, X-Auth-Email or Authorization headers');
  });

  it('accepts the e-mail and global key, and refuses an unknown pair with 9103', async () => {
    const url = zonePath(ZONES.enterprise);
    const ok = await h.call({ url, auth: false, headers: { 'x-auth-email': EMAIL, 'x-auth-key': API_KEY } });
    expect(ok.status).toBe(200);
    expect(ok.body.result.id).toBe(ZONES.enterprise);
    const wrongKey = await h.call({
      url,
      auth: false,
      headers: { 'x-auth-email': EMAIL, 'x-auth-key': 'b'.repeat(37) },
    });
    expect(wrongKey.status).toBe(403);
    expectFailure(wrongKey.body, 9103);
    const wrongEmail = await h.call({
      url,
      auth: false,
      headers: { 'x-auth-email': 'someone@example.com', 'x-auth-key': API_KEY },
    });
    expect(wrongEmail.status).toBe(403);
    expectFailure(wrongEmail.body, 9103);
  });

  it('reports malformed credential headers as 6003 with the chain of causes', async () => {
    const { status, body } = await h.call({
      url: zonePath(ZONES.enterprise),
      auth: false,
      headers: { 'x-auth-email': 'not-an-email', 'x-auth-key': 'short' },
    });
    expect(status).toBe(400);
    expectFailure(body, 6003);
    expect(body.errors[0]?.error_chain).toEqual([
      { code: 6102, message: 'Invalid format for X-Auth-Email header' },
      { code: 6103, message: 'Invalid format for X-Auth-Key header' },
    ]);
    const bearer = await h.call({
      url: zonePath(ZONES.enterprise),
      auth: false,
      headers: { authorization: 'Bearer x' },
    });
    expect(bearer.body.errors[0]).toMatchObject({ code: 6003, error_chain: [{ code: 6111 }] });
  });

  it('refuses an unknown token with 9109', async () => {
    const { status, body } = await h.call({ url: zonePath(ZONES.enterprise), token: 'x'.repeat(40) });
    expect(status).toBe(403);
    expectFailure(body, 9109);
  });

  it('lets a credential reach only its zones, and a read-only token only read (403, 10000)', async () => {
    const other = await h.call({ url: zonePath(ZONES.enterprise), token: OTHER_TOKEN });
    expect(other.status).toBe(403);
    expectFailure(other.body, 10000);
    expect(other.body.errors[0]?.message).toBe('Authentication error');

    const scopedOk = await h.call({ url: zonePath(ZONES.enterprise, '/filters'), token: SCOPED_TOKEN });
    expect(scopedOk.status).toBe(200);
    const scopedElsewhere = await h.call({ url: zonePath(ZONES.business, '/filters'), token: SCOPED_TOKEN });
    expect(scopedElsewhere.status).toBe(403);

    const read = await h.call({ url: zonePath(ZONES.enterprise, '/filters'), token: READ_TOKEN });
    expect(read.status).toBe(200);
    const write = await h.call({
      method: 'POST',
      url: zonePath(ZONES.enterprise, '/filters'),
      token: READ_TOKEN,
      payload: [{ expression: 'ssl' }],
    });
    expect(write.status).toBe(403);
    expectFailure(write.body, 10000);
    // Nothing was written.
    expect((await h.call({ url: zonePath(ZONES.enterprise, '/filters') })).body.result).toEqual([]);
  });
});

describe('the envelope on every response', () => {
  it('answers an unknown path with 404, 7003 and 7000, even without credentials', async () => {
    const { status, body } = await h.call({ url: '/client/v4/nothing/here', auth: false });
    expect(status).toBe(404);
    expectFailure(body, 7003, 7000);
    expect(body.errors[0]?.message).toBe(
      'Could not route to /client/v4/nothing/here, perhaps your object identifier is invalid?',
    );
    expect((await h.call({ url: '/elsewhere' })).status).toBe(404);
  });

  it('answers a zone id of the wrong shape with 400 and a well-formed unknown one with 404', async () => {
    const malformed = await h.call({ url: zonePath('not-a-zone', '/filters') });
    expect(malformed.status).toBe(400);
    expectFailure(malformed.body, 7003, 7000);
    const unknown = await h.call({ url: zonePath('9'.repeat(32), '/filters') });
    expect(unknown.status).toBe(404);
    expectFailure(unknown.body, 7003, 7000);
  });

  it('answers a known path with the wrong method with 405, 7001 and Allow', async () => {
    const { status, body, headers } = await h.call({
      method: 'PATCH',
      url: zonePath(ZONES.enterprise, '/filters'),
    });
    expect(status).toBe(405);
    expectFailure(body, 7001);
    expect(headers.allow).toBe('GET, POST, PUT, DELETE');
  });

  it('answers malformed JSON with 400, 6007, and another content type with 400, 9207', async () => {
    const url = zonePath(ZONES.enterprise, '/filters');
    const bad = await h.call({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/json' },
      payload: '[{"expression": ',
    });
    expect(bad.status).toBe(400);
    expectFailure(bad.body, 6007);
    expect(bad.body.errors[0]?.message).toBe('Malformed JSON in request body');
    const form = await h.call({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'expression=ssl',
    });
    expect(form.status).toBe(400);
    expectFailure(form.body, 9207);
    expect(form.body.errors[0]?.message).toBe('Content-type must be application/json.');
  });

  it('answers a body over the limit with 413 and 7002', async () => {
    const { status, body } = await h.call({
      method: 'POST',
      url: zonePath(ZONES.enterprise, '/filters'),
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify([{ expression: `http.host eq "${'a'.repeat(100_000)}"` }]),
    });
    expect(status).toBe(413);
    expectFailure(body, 7002);
  });

  it('marks every response with the version', async () => {
    const { headers } = await h.call({ url: zonePath(ZONES.enterprise) });
    expect(headers['x-cfrules-version']).toMatch(/^\d+\.\d+\.\d+/);
  });
});

describe('zones', () => {
  it('lists the zones a credential reaches, with pagination', async () => {
    const all = await h.call({ url: '/client/v4/zones' });
    expect(all.status).toBe(200);
    expect(all.body.result.map((z: { name: string }) => z.name)).toEqual([
      'example.com',
      'business.example',
      'pro.example',
      'free.example',
    ]);
    expect(all.body.result_info).toEqual({ page: 1, per_page: 25, count: 4, total_count: 4, total_pages: 1 });
    const scoped = await h.call({ url: '/client/v4/zones', token: SCOPED_TOKEN });
    expect(scoped.body.result.map((z: { name: string }) => z.name)).toEqual(['example.com']);
    const byName = await h.call({ url: '/client/v4/zones?name=pro.example' });
    expect(byName.body.result.map((z: { id: string }) => z.id)).toEqual([ZONES.pro]);
    const page2 = await h.call({ url: '/client/v4/zones?per_page=5&page=2' });
    expect(page2.body.result).toEqual([]);
    const bad = await h.call({ url: '/client/v4/zones?per_page=1000' });
    expect(bad.status).toBe(400);
    expectFailure(bad.body, 10001);
  });

  it("shows a zone in Cloudflare's shape, plan included", async () => {
    const { body } = await h.call({ url: zonePath(ZONES.business) });
    expect(body.result).toMatchObject({
      id: ZONES.business,
      name: 'business.example',
      status: 'active',
      account: { id: ACCOUNT },
      plan: { id: 'business', legacy_id: 'business' },
    });
  });

  it('creates, changes the plan of, and deletes a zone', async () => {
    const created = await h.call({
      method: 'POST',
      url: '/client/v4/zones',
      payload: { name: 'New.Example.', account: { id: ACCOUNT }, plan: 'pro' },
    });
    expect(created.status).toBe(200);
    const zone = created.body.result;
    expect(zone).toMatchObject({ name: 'new.example', plan: { id: 'pro' } });
    expect(zone.id).toMatch(/^[0-9a-f]{32}$/);

    const duplicate = await h.call({
      method: 'POST',
      url: '/client/v4/zones',
      payload: { name: 'new.example' },
    });
    expect(duplicate.status).toBe(400);
    expectFailure(duplicate.body, 1061);
    expect(duplicate.body.errors[0]?.message).toBe('new.example already exists');

    const upgraded = await h.call({
      method: 'PATCH',
      url: zonePath(zone.id),
      payload: { plan: { id: 'business' } },
    });
    expect(upgraded.body.result.plan.id).toBe('business');
    expect((await h.call({ url: zonePath(zone.id) })).body.result.plan.id).toBe('business');

    const deleted = await h.call({ method: 'DELETE', url: zonePath(zone.id) });
    expect(deleted.body.result).toEqual({ id: zone.id });
    expect((await h.call({ url: zonePath(zone.id) })).status).toBe(404);
  });

  it('refuses bad zone input with 1099 and a pointer, and zone creation by a zone-scoped token', async () => {
    const badName = await h.call({
      method: 'POST',
      url: '/client/v4/zones',
      payload: { name: 'not a domain' },
    });
    expect(badName.status).toBe(400);
    expect(badName.body.errors[0]).toMatchObject({ code: 1099, source: { pointer: '/name' } });
    const badPlan = await h.call({
      method: 'PATCH',
      url: zonePath(ZONES.pro),
      payload: { plan: 'platinum' },
    });
    expect(badPlan.body.errors[0]).toMatchObject({ code: 1099, source: { pointer: '/plan' } });
    const scoped = await h.call({
      method: 'POST',
      url: '/client/v4/zones',
      token: SCOPED_TOKEN,
      payload: { name: 'scoped.example' },
    });
    expect(scoped.status).toBe(403);
    const readOnly = await h.call({ method: 'DELETE', url: zonePath(ZONES.pro), token: READ_TOKEN });
    expect(readOnly.status).toBe(403);
    expect((await h.call({ url: zonePath(ZONES.pro) })).status).toBe(200);
  });
});
