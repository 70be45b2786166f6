import { describe, expect, it } from 'vitest';
import { fieldValue, readSampleRequest } from '../../src/request/index.js';
import { fromLogpush, isLogpushRecord } from '../../src/request/logpush.js';
import { textOf } from '../../src/scheme/values.js';

// Logpush http_requests records read as sample requests: what cfrules replay does with each line.

const record = {
  ClientIP: '198.51.100.20',
  ClientRequestHost: 'shop.example.com',
  ClientRequestMethod: 'POST',
  ClientRequestURI: '/cart/add?item=42',
  ClientRequestScheme: 'https',
  ClientRequestProtocol: 'HTTP/2',
  ClientRequestUserAgent: 'Mozilla/5.0 (X11; Linux x86_64)',
  ClientRequestReferer: 'https://shop.example.com/',
  ClientCountry: 'fr',
  ClientASN: 64500,
  BotScore: 12,
  WAFAttackScore: 40,
  EdgeServerPort: 443,
  RayID: '8c1a2b3c4d5e6f70',
  VerifiedBotCategory: '',
};

const value = (json: Record<string, unknown>, field: string) => {
  const read = readSampleRequest(fromLogpush(json));
  if (!read.ok) throw new Error(JSON.stringify(read.problems));
  const v = fieldValue(read.request, field);
  return typeof v === 'string' ? textOf(v) : v;
};

describe('Logpush records', () => {
  it('are told from sample requests', () => {
    expect(isLogpushRecord(record)).toBe(true);
    expect(isLogpushRecord({ url: 'https://example.com/' })).toBe(false);
  });

  it('give the fields Cloudflare logged', () => {
    expect(value(record, 'http.request.method')).toBe('POST');
    expect(value(record, 'http.host')).toBe('shop.example.com');
    expect(value(record, 'http.request.uri.path')).toBe('/cart/add');
    expect(value(record, 'http.request.uri.query')).toBe('item=42');
    expect(value(record, 'http.user_agent')).toBe('Mozilla/5.0 (X11; Linux x86_64)');
    expect(value(record, 'http.referer')).toBe('https://shop.example.com/');
    expect(value(record, 'ip.src.country')).toBe('FR');
    expect(value(record, 'ip.src.asnum')).toBe(64500);
    expect(value(record, 'cf.bot_management.score')).toBe(12);
    expect(value(record, 'cf.waf.score')).toBe(40);
    expect(value(record, 'cf.ray_id')).toBe('8c1a2b3c4d5e6f70');
    expect(value(record, 'cf.bot_management.verified_bot')).toBe(false);
    expect(value(record, 'ssl')).toBe(true);
  });

  it('build the URL from the path and query when there is no URI, and leave out what was not logged', () => {
    const json = fromLogpush({
      ClientRequestHost: 'example.com',
      ClientRequestPath: '/a',
      ClientRequestQuery: '?b=1',
      ClientIP: 'none',
    });
    expect(json).toEqual({ url: 'https://example.com/a?b=1', headers: [['Host', 'example.com']] });
  });

  it('with a bad value are refused by the request reader, which names the key', () => {
    const read = readSampleRequest(fromLogpush({ ...record, ClientASN: 'many' }));
    expect(read.ok).toBe(false);
    if (!read.ok) expect(read.problems[0]?.path).toBe('edge.asn');
  });
});
