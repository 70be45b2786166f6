import { describe, expect, it } from 'vitest';
import { layoutFor } from '../../src/eval/context.js';
import { readSampleRequest } from '../../src/request/index.js';
import { jsonArguments, xmlText } from '../../src/request/waf-targets.js';
import { cloudflareScheme } from '../../src/scheme/scheme.js';

/** The value of a `waf.*` field for a sample request, as managed rules see it. */
function field(request: unknown, name: string) {
  const read = readSampleRequest(request);
  if (!read.ok) throw new Error(JSON.stringify(read.problems));
  const layout = layoutFor(cloudflareScheme);
  const context = layout.context(read.request);
  return context.get(layout.slotOf(name));
}

describe('what managed rules inspect (waf.* fields)', () => {
  it('decodes query arguments once, as a server does, and keeps them in order', () => {
    const request = { method: 'GET', url: 'https://example.com/a?q=1+or%201%3D1&x=%2527&bad=%zz&flag' };
    expect(field(request, 'waf.args.names')).toEqual(['q', 'x', 'bad', 'flag']);
    expect(field(request, 'waf.args.values')).toEqual(['1 or 1=1', '%27', '%zz', '']);
    expect(field(request, 'waf.args.get.values')).toEqual(['1 or 1=1', '%27', '%zz', '']);
    expect(field(request, 'waf.args.post.values')).toEqual([]);
  });

  it('adds the body by its Content-Type: url-encoded, JSON leaves by path, multipart fields', () => {
    const form = {
      method: 'POST',
      url: 'https://example.com/?a=1',
      contentType: 'application/x-www-form-urlencoded',
      body: 'user=bob&comment=%3Cb%3Ehi',
    };
    expect(field(form, 'waf.args.names')).toEqual(['a', 'user', 'comment']);
    expect(field(form, 'waf.args.post.values')).toEqual(['bob', '<b>hi']);
    const json = {
      method: 'POST',
      url: 'https://example.com/api',
      body: { json: { a: { b: [1, 'x'] }, c: null } },
    };
    expect(field(json, 'waf.args.names')).toEqual(['json.a.b.0', 'json.a.b.1', 'json.c']);
    expect(field(json, 'waf.args.values')).toEqual(['1', 'x', '']);
    expect(field(json, 'waf.request.body.processor')).toBe('JSON');
    const multipart = {
      method: 'POST',
      url: 'https://example.com/upload',
      contentType: 'multipart/form-data; boundary=XX',
      body: '--XX\r\nContent-Disposition: form-data; name="title"\r\n\r\nHello\r\n--XX\r\nContent-Disposition: form-data; name="file"; filename="shell.php"\r\nContent-Type: text/plain\r\n\r\n<?php\r\n--XX--\r\n',
    };
    expect(field(multipart, 'waf.args.names')).toEqual(['title']);
    expect(field(multipart, 'waf.args.values')).toEqual(['Hello']);
    expect(field(multipart, 'waf.files.names')).toEqual(['shell.php']);
    expect(field(multipart, 'waf.files.fields')).toEqual(['file']);
  });

  it('keeps the raw body (REQUEST_BODY) for a form or an unread type, not for JSON, XML or multipart', () => {
    const post = (contentType: string, body: string) => ({
      method: 'POST',
      url: 'https://example.com/',
      contentType,
      body,
    });
    expect(field(post('application/x-www-form-urlencoded', 'a=1'), 'waf.request.body')).toBe('a=1');
    expect(field(post('application/octet-stream', 'raw'), 'waf.request.body')).toBe('raw');
    expect(field(post('application/json', '{"a":1}'), 'waf.request.body')).toBe('');
    expect(field(post('application/xml', '<java.lang.Runtime/>'), 'waf.request.body')).toBe('');
    const multipart = post(
      'multipart/form-data; boundary=XX',
      '--XX\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--XX--\r\n',
    );
    expect(field(multipart, 'waf.request.body')).toBe('');
  });

  it('reads nothing from a body whose type says nothing, and from JSON that does not parse', () => {
    const plain = { method: 'POST', url: 'https://example.com/', contentType: 'text/plain', body: 'a=1' };
    expect(field(plain, 'waf.args.values')).toEqual([]);
    expect(field(plain, 'waf.request.body')).toBe('a=1');
    expect(field(plain, 'waf.request.body.processor')).toBe('');
    expect(jsonArguments('{"a": ')).toEqual([]);
  });

  it('gives cookies as sent, and a map for exclusions by name', () => {
    const request = {
      method: 'GET',
      url: 'https://example.com/',
      headers: [['Cookie', '__utma=1.2.3; sid=a%20b; flag']],
    };
    expect(field(request, 'waf.cookies.names')).toEqual(['__utma', 'sid', 'flag']);
    expect(field(request, 'waf.cookies.values')).toEqual(['1.2.3', 'a%20b', '']);
    expect(field(request, 'waf.cookies')).toEqual(
      new Map([
        ['__utma', ['1.2.3']],
        ['sid', ['a%20b']],
        ['flag', ['']],
      ]),
    );
  });

  it('names the path, its last segment, the request line and every header', () => {
    const request = {
      method: 'GET',
      url: 'https://example.com/app/..%2fetc/passwd.php?x=1',
      version: 'HTTP/1.1',
      headers: [['User-Agent', 'curl/8']],
    };
    expect(field(request, 'waf.request.filename')).toBe('/app/..%2fetc/passwd.php');
    expect(field(request, 'waf.request.basename')).toBe('passwd.php');
    expect(field(request, 'waf.request.uri')).toBe('/app/..%2fetc/passwd.php?x=1');
    expect(field(request, 'waf.request.line')).toBe('GET /app/..%2fetc/passwd.php?x=1 HTTP/1.1');
    expect(field(request, 'waf.headers.names')).toEqual(['User-Agent']);
    expect(field(request, 'waf.headers.values')).toEqual(['curl/8']);
  });

  it('reads the text and attribute values of an XML body, entities decoded', () => {
    expect(
      xmlText('<?xml version="1.0"?><a x="1 &lt; 2"><!-- no --><b>t&amp;t</b><![CDATA[<raw>]]></a>'),
    ).toEqual(['1 < 2', 't&t', '<raw>']);
    const request = {
      method: 'POST',
      url: 'https://example.com/soap',
      contentType: 'text/xml',
      body: '<q>union select</q>',
    };
    expect(field(request, 'waf.xml.values')).toEqual(['union select']);
  });
});
