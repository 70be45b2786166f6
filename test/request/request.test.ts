import { readdirSync, readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_BODY_LIMIT,
  DERIVED_FIELDS,
  EDGE_KEYS,
  fieldDeriver,
  fieldValue,
  formatRequestProblem,
  type RequestProblem,
  readSampleRequest,
  type SampleRequest,
} from '../../src/request/index.js';
import { formatIp, type IpAddress, parseIpAddress } from '../../src/scheme/ip.js';
import { cloudflareScheme, defineScheme, type Scheme } from '../../src/scheme/scheme.js';
import type { Type } from '../../src/scheme/types.js';
import { asciiLower, bytesOf, textOf, type Value } from '../../src/scheme/values.js';

/** Reads a request that must be valid. */
function read(json: unknown, scheme?: Scheme): SampleRequest {
  const result = readSampleRequest(json, scheme);
  if (!result.ok) throw new Error(result.problems.map(formatRequestProblem).join('\n'));
  return result.request;
}

/** The problems of a request that must be invalid. */
function problems(json: unknown, scheme?: Scheme): RequestProblem[] {
  const result = readSampleRequest(json, scheme);
  if (result.ok) throw new Error('expected problems, the request was valid');
  return result.problems;
}

/** One field of a request given as JSON. */
const field = (json: unknown, name: string) => fieldValue(read(json), name);

const ip = (text: string) => parseIpAddress(text) as IpAddress;

describe('the request as a whole', () => {
  it('accepts an empty request, in which every field is missing', () => {
    const request = read({});
    for (const name of cloudflareScheme.fields.keys()) {
      if (name !== 'true') expect(fieldValue(request, name), name).toBeUndefined();
    }
  });

  it('keeps the name for reports and ignores the description', () => {
    expect(read({ name: 'R1', description: 'a page view' }).name).toBe('R1');
  });

  it('leaves fields missing that the request does not give, rather than making up defaults', () => {
    const request = read({ url: 'https://example.com/' });
    expect(fieldValue(request, 'http.request.method')).toBeUndefined();
    expect(fieldValue(request, 'http.request.version')).toBeUndefined();
    expect(fieldValue(request, 'ip.src')).toBeUndefined();
    expect(fieldValue(request, 'ip.src.country')).toBeUndefined();
    expect(fieldValue(request, 'cf.bot_management.score')).toBeUndefined();
    expect(fieldValue(request, 'http.request.timestamp.sec')).toBeUndefined();
  });

  it('gives the always-true pseudo-field', () => {
    expect(field({}, 'true')).toBe(true);
  });

  it('offers a deriver per field that gives the same values as fieldValue', () => {
    const request = read({ url: 'https://example.com/a.txt?x=1', fields: { 'cf.waf.score': 5 } });
    for (const name of ['http.request.uri.path.extension', 'cf.waf.score', 'http.request.uri.args']) {
      expect(fieldDeriver(name)(request)).toEqual(fieldValue(request, name));
    }
    expect(fieldDeriver('http.host')).toBe(fieldDeriver('http.host'));
  });
});

describe('URL fields', () => {
  const url = (text: string, name: string) => field({ url: text }, name);

  it('splits an absolute URL into uri, path and query, dropping the fragment', () => {
    const request = read({ url: 'https://example.com/a/b.php?x=1&y=2#top' });
    expect(fieldValue(request, 'http.request.full_uri')).toBe('https://example.com/a/b.php?x=1&y=2');
    expect(fieldValue(request, 'http.request.uri')).toBe('/a/b.php?x=1&y=2');
    expect(fieldValue(request, 'http.request.uri.path')).toBe('/a/b.php');
    expect(fieldValue(request, 'http.request.uri.query')).toBe('x=1&y=2');
    expect(fieldValue(request, 'http.request.uri.path.extension')).toBe('php');
  });

  it('keeps the URL as written: no decoding, no normalisation, original case', () => {
    const request = read({ url: 'https://Example.COM/A/../%2e%2E/B?Q=%41' });
    expect(fieldValue(request, 'http.request.uri.path')).toBe('/A/../%2e%2E/B');
    expect(fieldValue(request, 'http.request.uri.query')).toBe('Q=%41');
    expect(fieldValue(request, 'http.request.full_uri')).toBe('https://Example.COM/A/../%2e%2E/B?Q=%41');
  });

  it('holds non-ASCII text as its UTF-8 bytes', () => {
    expect(url('https://example.com/café', 'http.request.uri.path')).toBe(bytesOf('/café'));
    expect(url('https://example.com/café', 'http.request.uri.path')).toBe('/caf\xc3\xa9');
  });

  it('gives the path / to a URL without one, as a client sends it', () => {
    expect(url('https://example.com', 'http.request.uri')).toBe('/');
    expect(url('https://example.com?a=1', 'http.request.uri')).toBe('/?a=1');
    expect(url('https://example.com', 'http.request.full_uri')).toBe('https://example.com/');
  });

  it('tells an empty query from none in uri, not in query', () => {
    expect(url('https://example.com/a?', 'http.request.uri')).toBe('/a?');
    expect(url('https://example.com/a?', 'http.request.uri.query')).toBe('');
    expect(url('https://example.com/a', 'http.request.uri')).toBe('/a');
    expect(url('https://example.com/a', 'http.request.uri.query')).toBe('');
  });

  it('keeps an explicit port in full_uri and http.host', () => {
    const request = read({ url: 'http://example.com:8080/x' });
    expect(fieldValue(request, 'http.request.full_uri')).toBe('http://example.com:8080/x');
    expect(fieldValue(request, 'http.host')).toBe('example.com:8080');
    expect(fieldValue(request, 'cf.edge.server_port')).toBe(8080);
  });

  it('reads IPv6 hosts in brackets', () => {
    const request = read({ url: 'https://[2001:db8::1]:8443/' });
    expect(fieldValue(request, 'http.host')).toBe('[2001:db8::1]:8443');
    expect(fieldValue(request, 'cf.edge.server_port')).toBe(8443);
  });

  it('derives the extension from the last segment, lower-cased, without the dot', () => {
    const cases: [string, string][] = [
      ['/a/b.JPG', 'jpg'],
      ['/a.b/c', ''],
      ['/archive.tar.gz', 'gz'],
      ['/foo', ''],
      ['/.mp3', ''],
      ['/foo.', ''],
      ['/', ''],
      ['/dir.d/', ''],
      // ASCII letters only: bytes of other characters are left alone.
      ['/x.ÜNï', bytesOf('Ünï')],
    ];
    for (const [path, extension] of cases) {
      expect(field({ path }, 'http.request.uri.path.extension'), path).toBe(extension);
    }
  });

  it('splits query arguments on & and the first =, without decoding, keeping repeats in order', () => {
    const request = read({ url: 'https://example.com/?a=1&B=x%20y&a=2&flag&&c==d&=e' });
    expect(fieldValue(request, 'http.request.uri.args')).toEqual(
      new Map([
        ['a', ['1', '2']],
        ['B', ['x%20y']],
        ['flag', ['']],
        ['c', ['=d']],
        ['', ['e']],
      ]),
    );
    expect(fieldValue(request, 'http.request.uri.args.names')).toEqual(['a', 'B', 'a', 'flag', 'c', '']);
    expect(fieldValue(request, 'http.request.uri.args.values')).toEqual(['1', 'x%20y', '2', '', '=d', 'e']);
  });

  it('gives the response fields from the response the request gives, none without one', () => {
    const request = read({
      url: 'https://example.com/',
      response: {
        status: 404,
        headers: [
          ['Content-Type', 'Text/HTML; charset=utf-8'],
          ['Set-Cookie', 'a=1'],
        ],
      },
    });
    expect(fieldValue(request, 'http.response.code')).toBe(404);
    expect(fieldValue(request, 'http.response.content_type.media_type')).toBe('text/html');
    expect(fieldValue(request, 'http.response.headers')).toEqual(
      new Map([
        ['content-type', ['Text/HTML; charset=utf-8']],
        ['set-cookie', ['a=1']],
      ]),
    );
    expect(fieldValue(request, 'http.response.headers.names')).toEqual(['Content-Type', 'Set-Cookie']);
    expect(fieldValue(read({ url: 'https://example.com/' }), 'http.response.code')).toBeUndefined();
  });

  it('refuses a response without a status code in range, or with bad headers, at their paths', () => {
    const problems = (response: unknown) => {
      const result = readSampleRequest({ url: 'https://example.com/', response });
      return result.ok ? [] : result.problems.map((problem) => problem.path);
    };
    expect(problems({ status: 99 })).toEqual(['response.status']);
    expect(problems({ headers: {} })).toEqual(['response.status']);
    expect(problems({ status: 200, headers: [['bad name', 'x']] })).toEqual(['response.headers[0][0]']);
    expect(problems({ status: 200, body: 'x' })).toEqual(['response.body']);
    expect(problems('200')).toEqual(['response']);
  });

  it('gives empty arguments for a URL without a query', () => {
    const request = read({ url: 'https://example.com/' });
    expect(fieldValue(request, 'http.request.uri.args')).toEqual(new Map());
    expect(fieldValue(request, 'http.request.uri.args.names')).toEqual([]);
    expect(fieldValue(request, 'http.request.uri.args.values')).toEqual([]);
  });

  it('gives the raw.* copies the same values (a sample request is untransformed)', () => {
    const request = read({
      url: 'https://example.com/a.gif?x=1',
      headers: { Accept: '*/*' },
      response: { status: 200, headers: { 'Content-Type': 'image/gif' } },
    });
    for (const name of DERIVED_FIELDS.filter((n) => n.startsWith('raw.'))) {
      expect(fieldValue(request, name), name).toEqual(fieldValue(request, name.slice(4)));
      expect(fieldValue(request, name), name).toBeDefined();
    }
  });

  it('builds the URL from scheme, host, path and query', () => {
    const request = read({ scheme: 'HTTPS', host: 'example.com:444', path: '/p', query: '?a=1' });
    expect(fieldValue(request, 'http.request.full_uri')).toBe('https://example.com:444/p?a=1');
    expect(fieldValue(request, 'ssl')).toBe(true);
    expect(fieldValue(request, 'cf.edge.server_port')).toBe(444);
    expect(field({ query: 'a=1' }, 'http.request.uri')).toBe('/?a=1');
  });

  it('takes the host of full_uri from the Host header when the URL has none', () => {
    const request = read({ url: '/login?next=/', scheme: 'https', headers: { Host: 'shop.example.com' } });
    expect(fieldValue(request, 'http.request.full_uri')).toBe('https://shop.example.com/login?next=/');
    expect(fieldValue(request, 'http.request.uri')).toBe('/login?next=/');
  });

  it('has no full_uri without a scheme or a host', () => {
    expect(field({ url: '/login', headers: { Host: 'a.example' } }, 'http.request.full_uri')).toBeUndefined();
    expect(field({ url: '/login', scheme: 'https' }, 'http.request.full_uri')).toBeUndefined();
    expect(field({ headers: { Host: 'a.example' } }, 'http.request.uri')).toBeUndefined();
    expect(field({ headers: { Host: 'a.example' } }, 'http.request.uri.args')).toBeUndefined();
  });
});

describe('method, version, ssl and port', () => {
  it('upper-cases the method', () => {
    expect(field({ method: 'get' }, 'http.request.method')).toBe('GET');
    expect(field({ method: 'PROPFIND' }, 'http.request.method')).toBe('PROPFIND');
  });

  it('normalises the version', () => {
    const cases: [string, string][] = [
      ['HTTP/1.1', 'HTTP/1.1'],
      ['1.0', 'HTTP/1.0'],
      ['http/2', 'HTTP/2'],
      ['HTTP/2.0', 'HTTP/2'],
      ['3', 'HTTP/3'],
    ];
    for (const [given, version] of cases)
      expect(field({ version: given }, 'http.request.version')).toBe(version);
  });

  it('derives ssl and the edge port from the scheme', () => {
    expect(field({ url: 'https://a.example/' }, 'ssl')).toBe(true);
    expect(field({ url: 'http://a.example/' }, 'ssl')).toBe(false);
    expect(field({ url: 'https://a.example/' }, 'cf.edge.server_port')).toBe(443);
    expect(field({ url: 'http://a.example/' }, 'cf.edge.server_port')).toBe(80);
    expect(field({ url: '/' }, 'ssl')).toBeUndefined();
    expect(field({ url: '/' }, 'cf.edge.server_port')).toBeUndefined();
  });

  it('lets edge.serverPort win over the URL', () => {
    expect(field({ url: 'https://a.example:8443/', edge: { serverPort: 2053 } }, 'cf.edge.server_port')).toBe(
      2053,
    );
  });
});

describe('headers', () => {
  const pairs = [
    ['Host', 'example.com'],
    ['User-Agent', 'curl/8.5.0'],
    ['X-Forwarded-For', '198.51.100.1'],
    ['Accept', 'text/html'],
    ['x-forwarded-for', ' 10.0.0.1 '],
    ['Referer', 'https://example.com/start'],
  ];

  it('gives the map with lower-cased names, and names (original case) and values in order', () => {
    const request = read({ headers: pairs });
    expect(fieldValue(request, 'http.request.headers')).toEqual(
      new Map([
        ['host', ['example.com']],
        ['user-agent', ['curl/8.5.0']],
        ['x-forwarded-for', ['198.51.100.1', '10.0.0.1']],
        ['accept', ['text/html']],
        ['referer', ['https://example.com/start']],
      ]),
    );
    expect(fieldValue(request, 'http.request.headers.names')).toEqual(pairs.map(([name]) => name));
    expect(fieldValue(request, 'http.request.headers.values')).toEqual(
      pairs.map(([, value]) => value?.trim()),
    );
    expect(fieldValue(request, 'http.request.headers.truncated')).toBe(false);
  });

  it('accepts an object, with an array for a repeated header', () => {
    const request = read({ headers: { Accept: 'a', 'X-Tag': ['1', '2'], accept: 'b' } });
    expect(fieldValue(request, 'http.request.headers.names')).toEqual(['Accept', 'X-Tag', 'X-Tag', 'accept']);
    expect(fieldValue(request, 'http.request.headers')).toEqual(
      new Map([
        ['accept', ['a', 'b']],
        ['x-tag', ['1', '2']],
      ]),
    );
  });

  it('lower-cases names over HTTP/2 and HTTP/3, as those clients must send them', () => {
    const request = read({ version: 'HTTP/2', headers: { 'User-Agent': 'x' }, contentType: 'text/plain' });
    expect(fieldValue(request, 'http.request.headers.names')).toEqual(['user-agent', 'content-type']);
  });

  it('derives the single-header fields, joining repeats of X-Forwarded-For and Cookie', () => {
    const request = read({ headers: [...pairs, ['Cookie', 'a=1'], ['cookie', 'b=2']] });
    expect(fieldValue(request, 'http.host')).toBe('example.com');
    expect(fieldValue(request, 'http.user_agent')).toBe('curl/8.5.0');
    expect(fieldValue(request, 'http.referer')).toBe('https://example.com/start');
    expect(fieldValue(request, 'http.x_forwarded_for')).toBe('198.51.100.1, 10.0.0.1');
    expect(fieldValue(request, 'http.cookie')).toBe('a=1; b=2');
  });

  it('gives empty text for an absent header in an HTTP request', () => {
    const request = read({ method: 'GET' });
    for (const name of ['http.user_agent', 'http.referer', 'http.cookie', 'http.x_forwarded_for']) {
      expect(fieldValue(request, name), name).toBe('');
    }
    expect(fieldValue(request, 'http.request.headers')).toEqual(new Map());
    expect(fieldValue(request, 'http.request.headers.names')).toEqual([]);
    expect(fieldValue(request, 'http.host')).toBeUndefined();
  });

  it('takes http.host from the Host header first, then from the URL', () => {
    expect(field({ url: 'https://a.example/', headers: { Host: 'b.example' } }, 'http.host')).toBe(
      'b.example',
    );
    expect(field({ url: 'https://a.example/' }, 'http.host')).toBe('a.example');
  });

  it('holds header values as UTF-8 bytes', () => {
    expect(field({ headers: { 'X-Name': 'José' } }, 'http.request.headers.values')).toEqual(['Jos\xc3\xa9']);
  });

  it('adds the contentType and cookies conveniences after the headers', () => {
    const request = read({ headers: { Host: 'h' }, contentType: 'text/plain', cookies: [['a', '1']] });
    expect(fieldValue(request, 'http.request.headers.names')).toEqual(['Host', 'Content-Type', 'Cookie']);
    expect(fieldValue(request, 'http.request.headers.values')).toEqual(['h', 'text/plain', 'a=1']);
  });
});

describe('cookies', () => {
  it('parses the Cookie header: URL-decoded names, values as sent, same names merged in order', () => {
    const request = read({
      headers: [['Cookie', 'sid=a%20b; theme=dark;  sid=2 ;x%5Fy=1; flag; =v; empty=']],
    });
    expect(fieldValue(request, 'http.request.cookies')).toEqual(
      new Map([
        ['sid', ['a%20b', '2']],
        ['theme', ['dark']],
        ['x_y', ['1']],
        ['empty', ['']],
      ]),
    );
    expect(fieldValue(request, 'http.cookie')).toBe(
      'sid=a%20b; theme=dark;  sid=2 ;x%5Fy=1; flag; =v; empty=',
    );
  });

  it('merges names that decode to the same name', () => {
    const request = read({ headers: { Cookie: ['a%2Db=1', 'a-b=2'] } });
    expect(fieldValue(request, 'http.request.cookies')).toEqual(new Map([['a-b', ['1', '2']]]));
  });

  it('writes the cookies key as one Cookie header', () => {
    const request = read({ cookies: { session: 'abc', pref: ['1', '2'] } });
    expect(fieldValue(request, 'http.cookie')).toBe('session=abc; pref=1; pref=2');
    expect(fieldValue(request, 'http.request.cookies')).toEqual(
      new Map([
        ['session', ['abc']],
        ['pref', ['1', '2']],
      ]),
    );
  });

  it('gives an empty map when there is no cookie', () => {
    expect(field({ method: 'GET' }, 'http.request.cookies')).toEqual(new Map());
  });
});

describe('accepted languages', () => {
  it('sorts tags by q weight, keeping header order for ties, dropping * and q=0', () => {
    const request = read({ headers: { 'Accept-Language': 'fr;q=0.5, en-US, *, de;q=0.9, it;q=0, en' } });
    expect(fieldValue(request, 'http.request.accepted_languages')).toEqual(['en-US', 'en', 'de', 'fr']);
  });

  it('drops items with a malformed weight and reads several headers as one list', () => {
    const request = read({
      headers: [
        ['Accept-Language', 'xx;q=2, pt;q=0.1'],
        ['Accept-Language', 'es;q=0.2'],
      ],
    });
    expect(fieldValue(request, 'http.request.accepted_languages')).toEqual(['es', 'pt']);
  });

  it('is empty (so [0] is missing) without the header', () => {
    expect(field({ method: 'GET' }, 'http.request.accepted_languages')).toEqual([]);
  });
});

describe('body', () => {
  it('takes text as UTF-8 and gives raw, size and truncated', () => {
    const request = read({ method: 'POST', body: 'héllo' });
    expect(fieldValue(request, 'http.request.body.raw')).toBe('h\xc3\xa9llo');
    expect(fieldValue(request, 'http.request.body.size')).toBe(6);
    expect(fieldValue(request, 'http.request.body.truncated')).toBe(false);
  });

  it('takes {text}, {base64} (both alphabets, padding optional) and {json}', () => {
    expect(field({ body: { text: 'a' } }, 'http.request.body.raw')).toBe('a');
    expect(field({ body: { base64: '/9j/4A==' } }, 'http.request.body.raw')).toBe('\xff\xd8\xff\xe0');
    expect(field({ body: { base64: '_9j_4A' } }, 'http.request.body.raw')).toBe('\xff\xd8\xff\xe0');
    expect(field({ body: { base64: '' } }, 'http.request.body.raw')).toBe('');
    const json = read({ body: { json: { a: [1, 'é'] } } });
    expect(fieldValue(json, 'http.request.body.raw')).toBe(bytesOf('{"a":[1,"é"]}'));
    expect(fieldValue(json, 'http.request.headers')).toEqual(
      new Map([['content-type', ['application/json']]]),
    );
  });

  it('does not add a content type to a JSON body that has one', () => {
    const request = read({ body: { json: 1 }, contentType: 'application/vnd.api+json' });
    expect(fieldValue(request, 'http.request.headers.values')).toEqual(['application/vnd.api+json']);
  });

  it('cuts the body at the inspection limit; size stays the full size', () => {
    const request = read({ body: 'abcdef', edge: { bodyLimit: 4 } });
    expect(fieldValue(request, 'http.request.body.raw')).toBe('abcd');
    expect(fieldValue(request, 'http.request.body.size')).toBe(6);
    expect(fieldValue(request, 'http.request.body.truncated')).toBe(true);
    const big = read({ body: 'x'.repeat(DEFAULT_BODY_LIMIT + 1) });
    expect(fieldValue(big, 'http.request.body.truncated')).toBe(true);
    expect((fieldValue(big, 'http.request.body.raw') as string).length).toBe(128 * 1024);
    expect(field({ body: 'x'.repeat(DEFAULT_BODY_LIMIT) }, 'http.request.body.truncated')).toBe(false);
  });

  it('gives an empty body to an HTTP request without one', () => {
    const request = read({ method: 'GET' });
    expect(fieldValue(request, 'http.request.body.raw')).toBe('');
    expect(fieldValue(request, 'http.request.body.size')).toBe(0);
  });

  it('splits a url-encoded form, undecoded', () => {
    const request = read({
      body: 'user=bob&pass=p%40ss&tag=a&tag=b',
      contentType: 'Application/X-WWW-Form-Urlencoded; charset=UTF-8',
    });
    expect(fieldValue(request, 'http.request.body.form')).toEqual(
      new Map([
        ['user', ['bob']],
        ['pass', ['p%40ss']],
        ['tag', ['a', 'b']],
      ]),
    );
    expect(fieldValue(request, 'http.request.body.form.names')).toEqual(['user', 'pass', 'tag', 'tag']);
    expect(fieldValue(request, 'http.request.body.form.values')).toEqual(['bob', 'p%40ss', 'a', 'b']);
  });

  it('has no form fields when the body is not a form', () => {
    const request = read({ body: 'a=1', contentType: 'text/plain' });
    expect(fieldValue(request, 'http.request.body.form')).toBeUndefined();
    expect(fieldValue(request, 'http.request.body.form.names')).toBeUndefined();
    expect(field({ body: 'a=1' }, 'http.request.body.form')).toBeUndefined();
  });

  it('parses the inspected part only of a truncated form', () => {
    const request = read({
      body: 'a=1&b=2',
      contentType: 'application/x-www-form-urlencoded',
      edge: { bodyLimit: 5 },
    });
    expect(fieldValue(request, 'http.request.body.form.names')).toEqual(['a', 'b']);
    expect(fieldValue(request, 'http.request.body.form.values')).toEqual(['1', '']);
  });

  it('splits multipart parts: names, values, content types, dispositions, encodings, file names', () => {
    const body = [
      'preamble',
      '--b0',
      'Content-Disposition: form-data; name="title"',
      '',
      'Hi',
      '--b0',
      'Content-Disposition: form-data; name="file"; filename="a \\"x\\".php"',
      'Content-Type: image/png',
      'Content-Transfer-Encoding: binary',
      '',
      '<?php',
      '',
      '--b0',
      'Content-Disposition: form-data; name="title"',
      '',
      'Again',
      '--b0--',
      '',
    ].join('\r\n');
    const request = read({ body, contentType: 'multipart/form-data; boundary="b0"' });
    expect(fieldValue(request, 'http.request.body.multipart')).toEqual(
      new Map([
        ['title', ['Hi', 'Again']],
        ['file', ['<?php\r\n']],
      ]),
    );
    expect(fieldValue(request, 'http.request.body.multipart.names')).toEqual([
      ['title'],
      ['file'],
      ['title'],
    ]);
    expect(fieldValue(request, 'http.request.body.multipart.values')).toEqual(['Hi', '<?php\r\n', 'Again']);
    expect(fieldValue(request, 'http.request.body.multipart.content_types')).toEqual([[], ['image/png'], []]);
    expect(fieldValue(request, 'http.request.body.multipart.content_transfer_encodings')).toEqual([
      [],
      ['binary'],
      [],
    ]);
    expect(fieldValue(request, 'http.request.body.multipart.filenames')).toEqual([[], ['a "x".php'], []]);
    expect(fieldValue(request, 'http.request.body.multipart.content_dispositions')).toEqual([
      ['form-data; name="title"'],
      ['form-data; name="file"; filename="a \\"x\\".php"'],
      ['form-data; name="title"'],
    ]);
  });

  it('reads multipart with bare LF line ends and keeps the parts of a cut-off body', () => {
    const body =
      '--B\nContent-Disposition: form-data; name="a"\n\n1\n--B\nContent-Disposition: form-data; name="b"\n\n22';
    const request = read({ body, contentType: 'multipart/form-data; boundary=B' });
    expect(fieldValue(request, 'http.request.body.multipart.values')).toEqual(['1', '22']);
  });

  it('has no multipart fields without a multipart content type and boundary', () => {
    expect(
      field({ body: '--B\n\nx', contentType: 'multipart/form-data' }, 'http.request.body.multipart'),
    ).toBe(undefined);
    expect(field({ body: 'x' }, 'http.request.body.multipart.names')).toBeUndefined();
  });

  it('sniffs the MIME type of well-known binary formats only', () => {
    expect(field({ body: { base64: '/9j/4AAQ' } }, 'http.request.body.mime')).toBe('image/jpeg');
    expect(field({ body: { base64: 'iVBORw0KGgo=' } }, 'http.request.body.mime')).toBe('image/png');
    expect(field({ body: 'GIF89a...' }, 'http.request.body.mime')).toBe('image/gif');
    expect(field({ body: '%PDF-1.7' }, 'http.request.body.mime')).toBe('application/pdf');
    expect(field({ body: 'RIFF\x00\x00\x00\x00WEBPVP8 ' }, 'http.request.body.mime')).toBe('image/webp');
    expect(field({ body: 'XXXX\x00\x00\x00\x00WEBPVP8 ' }, 'http.request.body.mime')).toBeUndefined();
    expect(field({ body: '{"a":1}' }, 'http.request.body.mime')).toBeUndefined();
  });
});

describe('edge data', () => {
  it('sets each field of its key', () => {
    const edge: Record<string, unknown> = {
      country: 'us',
      continent: 'na',
      asn: 13335,
      city: 'São Paulo',
      region: 'Texas',
      regionCode: 'TX',
      subdivision1: 'GB-ENG',
      subdivision2: 'GB-SWK',
      postalCode: '78701',
      metroCode: '635',
      latitude: 30.27,
      longitude: '-97.74',
      timezone: 'America/Chicago',
      inEuropeanUnion: false,
      botScore: 30,
      verifiedBot: true,
      verifiedBotCategory: 'Search Engine Crawler',
      staticResource: false,
      jsDetectionPassed: true,
      detectionIds: [33554817, 1],
      corporateProxy: false,
      signedAgent: true,
      ja3Hash: 'abc',
      ja4: 't13d',
      threatScore: 0,
      tlsVersion: 'TLSv1.3',
      tlsCipher: 'AEAD-AES128-GCM-SHA256',
      serverIp: '198.51.100.1',
      serverPort: 443,
      clientPort: 51234,
      wafScore: 60,
      wafSqliScore: 10,
      wafXssScore: 20,
      wafRceScore: 99,
      wafScoreClass: 'attack',
      colo: 'sfo06',
      rayId: '8a1b2c3d4e5f6a7b',
      zoneName: 'example.com',
    };
    const expected: Record<string, Value> = {
      'ip.src.country': 'US',
      'ip.src.continent': 'NA',
      'ip.src.asnum': 13335,
      'ip.src.city': bytesOf('São Paulo'),
      'ip.src.region': 'Texas',
      'ip.src.region_code': 'TX',
      'ip.src.subdivision_1_iso_code': 'GB-ENG',
      'ip.src.subdivision_2_iso_code': 'GB-SWK',
      'ip.src.postal_code': '78701',
      'ip.src.metro_code': '635',
      'ip.src.lat': '30.27',
      'ip.src.lon': '-97.74',
      'ip.src.timezone.name': 'America/Chicago',
      'ip.src.is_in_european_union': false,
      'cf.bot_management.score': 30,
      'cf.bot_management.verified_bot': true,
      'cf.verified_bot_category': 'Search Engine Crawler',
      'cf.bot_management.static_resource': false,
      'cf.bot_management.js_detection.passed': true,
      'cf.bot_management.detection_ids': [33554817, 1],
      'cf.bot_management.corporate_proxy': false,
      'cf.bot_management.signed_agent': true,
      'cf.bot_management.ja3_hash': 'abc',
      'cf.bot_management.ja4': 't13d',
      'cf.threat_score': 0,
      'cf.tls_version': 'TLSv1.3',
      'cf.tls_cipher': 'AEAD-AES128-GCM-SHA256',
      'cf.edge.server_ip': ip('198.51.100.1'),
      'cf.edge.server_port': 443,
      'cf.edge.client_port': 51234,
      'cf.waf.score': 60,
      'cf.waf.score.sqli': 10,
      'cf.waf.score.xss': 20,
      'cf.waf.score.rce': 99,
      'cf.waf.score.class': 'attack',
      'cf.colo.name': 'sfo06',
      'cf.ray_id': '8a1b2c3d4e5f6a7b',
      'cf.zone.name': 'example.com',
    };
    expect(Object.keys(edge).sort()).toEqual(Object.keys(EDGE_KEYS).sort());
    const request = read({ edge });
    for (const [name, value] of Object.entries(expected))
      expect(fieldValue(request, name), name).toEqual(value);
  });

  it("checks edge values against the field catalogue's domain, the lints' source too", () => {
    let ranged = 0;
    for (const [key, { field }] of Object.entries(EDGE_KEYS)) {
      const domain = cloudflareScheme.fields.get(field)?.domain;
      expect(cloudflareScheme.fields.has(field), field).toBe(true);
      if (domain?.min === undefined || domain.max === undefined) continue;
      ranged++;
      for (const value of [domain.min - 1, domain.max + 1]) {
        const result = readSampleRequest({ edge: { [key]: value } });
        expect(result.ok, `${key} ${value}`).toBe(false);
        if (!result.ok)
          expect(result.problems[0]?.message).toBe(
            `${value} is out of range (${domain.min} to ${domain.max})`,
          );
      }
    }
    expect(ranged).toBeGreaterThanOrEqual(9);
    // Cloudflare gives 0 only now: a score of 50 is for `fields`, which takes any value of the type.
    expect(readSampleRequest({ edge: { threatScore: 50 } }).ok).toBe(false);
    expect(field({ fields: { 'cf.threat_score': 50 } }, 'cf.threat_score')).toBe(50);
    expect(field({ edge: { continent: 'eu' } }, 'ip.src.continent')).toBe('EU');
  });

  it('gives the deprecated ip.geoip names and cf.client.bot the same values', () => {
    const request = read({
      edge: {
        country: 'CN',
        continent: 'AS',
        asn: 4134,
        subdivision1: 'CN-BJ',
        subdivision2: 'x',
        inEuropeanUnion: false,
        verifiedBot: false,
      },
    });
    expect(fieldValue(request, 'ip.geoip.country')).toBe('CN');
    expect(fieldValue(request, 'ip.geoip.continent')).toBe('AS');
    expect(fieldValue(request, 'ip.geoip.asnum')).toBe(4134);
    expect(fieldValue(request, 'ip.geoip.subdivision_1_iso_code')).toBe('CN-BJ');
    expect(fieldValue(request, 'ip.geoip.subdivision_2_iso_code')).toBe('x');
    expect(fieldValue(request, 'ip.geoip.is_in_european_union')).toBe(false);
    expect(fieldValue(request, 'cf.client.bot')).toBe(false);
  });

  it('derives the WAF score class from the global score unless given', () => {
    const cls = (wafScore: number) => field({ edge: { wafScore } }, 'cf.waf.score.class');
    expect([1, 20, 21, 50, 51, 80, 81, 99].map(cls)).toEqual([
      'attack',
      'attack',
      'likely_attack',
      'likely_attack',
      'likely_clean',
      'likely_clean',
      'clean',
      'clean',
    ]);
    expect(cls(100)).toBeUndefined();
    expect(field({ edge: { wafScore: 5, wafScoreClass: 'clean' } }, 'cf.waf.score.class')).toBe('clean');
  });

  it('reads the client IP strictly, v4 and v6', () => {
    expect(field({ clientIp: '203.0.113.7' }, 'ip.src')).toEqual({ family: 4, value: 0xcb007107 });
    expect(field({ clientIp: '2001:db8::1' }, 'ip.src')).toEqual(ip('2001:db8::1'));
    expect(field({ clientIp: '::ffff:1.2.3.4' }, 'ip.src')).toMatchObject({ family: 6 });
  });

  it('reads the timestamp as Unix seconds or ISO 8601', () => {
    const at = (timestamp: unknown) => {
      const request = read({ timestamp });
      return [
        fieldValue(request, 'http.request.timestamp.sec'),
        fieldValue(request, 'http.request.timestamp.msec'),
      ];
    };
    expect(at(1714564800)).toEqual([1714564800, 0]);
    expect(at(1714564800.25)).toEqual([1714564800, 250]);
    expect(at('2024-05-01T12:00:00.250Z')).toEqual([1714564800, 250]);
    expect(at('2024-05-01T14:00:00+02:00')).toEqual([1714564800, 0]);
  });
});

describe('explicit fields', () => {
  it('win over the message and the edge data', () => {
    const request = read({
      url: 'https://example.com/a',
      headers: { 'User-Agent': 'real' },
      edge: { country: 'US', wafScore: 90 },
      fields: { 'http.user_agent': 'fake', 'ip.src.country': 'FR', 'cf.waf.score': 3, ssl: false },
    });
    expect(fieldValue(request, 'http.user_agent')).toBe('fake');
    expect(fieldValue(request, 'ip.src.country')).toBe('FR');
    expect(fieldValue(request, 'ip.geoip.country')).toBe('FR');
    expect(fieldValue(request, 'cf.waf.score')).toBe(3);
    expect(fieldValue(request, 'ssl')).toBe(false);
    // Only the named field changes: the others still come from the message.
    expect(fieldValue(request, 'http.request.headers')).toEqual(new Map([['user-agent', ['real']]]));
    expect(fieldValue(request, 'raw.http.request.uri.path')).toBe('/a');
  });

  it('set both names of an alias pair, whichever is given', () => {
    const request = read({ fields: { 'ip.geoip.country': 'CN', 'cf.client.bot': true } });
    expect(fieldValue(request, 'ip.src.country')).toBe('CN');
    expect(fieldValue(request, 'cf.bot_management.verified_bot')).toBe(true);
    const both = read({ fields: { 'ip.geoip.asnum': 1, 'ip.src.asnum': 2 } });
    expect(fieldValue(both, 'ip.geoip.asnum')).toBe(1);
    expect(fieldValue(both, 'ip.src.asnum')).toBe(2);
  });

  it('convert JSON to run-time values by the field type', () => {
    const request = read({
      fields: {
        'http.host': 'ex€mple',
        'ip.src.asnum': -5,
        ssl: true,
        'ip.src': '10.0.0.1',
        'http.request.headers': { 'X-Ü': ['a', 'b'] },
        'cf.bot_management.detection_ids': [],
        'http.request.jwt.claims.iat.sec': { k: [[1, 2]].flat() },
        'cf.random_seed': { base64: 'AAEC/w==' },
      },
    });
    expect(fieldValue(request, 'http.host')).toBe('ex\xe2\x82\xacmple');
    expect(fieldValue(request, 'ip.src.asnum')).toBe(-5);
    expect(fieldValue(request, 'ssl')).toBe(true);
    expect(fieldValue(request, 'ip.src')).toEqual(ip('10.0.0.1'));
    expect(fieldValue(request, 'http.request.headers')).toEqual(new Map([['X-\xc3\x9c', ['a', 'b']]]));
    expect(fieldValue(request, 'http.request.headers')).toBeInstanceOf(Map);
    expect(fieldValue(request, 'cf.bot_management.detection_ids')).toEqual([]);
    expect(fieldValue(request, 'http.request.jwt.claims.iat.sec')).toEqual(new Map([['k', [1, 2]]]));
    expect(fieldValue(request, 'cf.random_seed')).toBe('\x00\x01\x02\xff');
  });

  it('never make other fields: the derived ones come from the message only', () => {
    const request = read({ fields: { 'http.request.uri.path': '/a.php' } });
    expect(fieldValue(request, 'http.request.uri.path.extension')).toBeUndefined();
  });

  it('are typed by a custom scheme, which derives only fields meaning what Cloudflare’s mean', () => {
    const scheme = defineScheme({
      fields: {
        'http.host': 'Bytes',
        'http.request.method': 'Int',
        'tenant.id': 'Int',
        'tenant.tags': 'Array<Bytes>',
      },
    });
    const request = read(
      { method: 'GET', headers: { Host: 'h.example' }, fields: { 'tenant.id': 7, 'tenant.tags': ['a'] } },
      scheme,
    );
    expect(fieldValue(request, 'tenant.id')).toBe(7);
    expect(fieldValue(request, 'tenant.tags')).toEqual(['a']);
    expect(fieldValue(request, 'http.host')).toBe('h.example');
    expect(fieldValue(request, 'http.request.method')).toBeUndefined();
    expect(fieldValue(request, 'http.user_agent')).toBeUndefined();
    expect(problems({ fields: { 'http.user_agent': 'x' } }, scheme)).toEqual([
      { path: 'fields["http.user_agent"]', message: 'unknown field "http.user_agent"' },
    ]);
    expect(problems({ fields: { 'tenant.id': '7' } }, scheme)).toEqual([
      { path: 'fields["tenant.id"]', message: 'expected an integer (Int), got "7"' },
    ]);
  });
});

describe('the benchmark workload', () => {
  const workload = JSON.parse(
    readFileSync(new URL('../../bench/workload.json', import.meta.url), 'utf8'),
  ) as {
    requests: { name: string; fields: Record<string, unknown> }[];
  };

  /** The four workload requests as people would write them in this format. */
  const written: Record<string, unknown> = {
    'R1-browser': {
      method: 'GET',
      url: 'https://example.com/index.html',
      headers: [
        ['Host', 'example.com'],
        [
          'User-Agent',
          'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
        ],
        ['Accept', 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8'],
        ['Accept-Language', 'en-US,en;q=0.5'],
        ['Accept-Encoding', 'gzip, deflate, br'],
        ['Connection', 'keep-alive'],
      ],
      clientIp: '203.0.113.7',
      edge: { country: 'US' },
    },
    'R2-admin-bot': {
      method: 'POST',
      url: 'http://example.com/wp-admin/admin-ajax.php?action=heartbeat&token=abc123',
      headers: [
        ['Host', 'example.com'],
        ['User-Agent', 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'],
        ['Content-Type', 'application/x-www-form-urlencoded'],
        ['Content-Length', '42'],
      ],
      body: 'action=heartbeat&interval=60&_nonce=abc123',
      clientIp: '10.1.2.3',
      edge: { country: 'CN' },
    },
    'R3-api-v6': {
      method: 'GET',
      url: 'https://h0500.example.com:8443/api/v2/users/12345?fields=name,email',
      headers: {
        Host: 'h0500.example.com',
        'User-Agent': 'curl/8.5.0',
        Accept: '*/*',
        Authorization: 'Bearer eyJhbGciOiJIUzI1NiJ9.e30.ZRrHA1JJJW8opsbCGfG_HACGpVUMN_a9IV7pAq_Zmeo',
      },
      clientIp: '2001:db8::1',
      edge: { country: 'DE' },
    },
    'R4-internal': {
      method: 'PUT',
      url: 'https://static.cdn-origin.net/static/app.js?v=3',
      headers: [
        ['Host', 'static.cdn-origin.net'],
        [
          'User-Agent',
          'Mozilla/5.0 (Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36',
        ],
        ['Accept', '*/*'],
        ['Accept-Language', 'en-GB,en;q=0.7'],
        ['Accept-Encoding', 'gzip, deflate, br, zstd'],
        ['Referer', 'https://static.cdn-origin.net/assets/main.html'],
        ['Sec-Fetch-Dest', 'script'],
        ['Sec-Fetch-Mode', 'no-cors'],
        ['Sec-Fetch-Site', 'same-origin'],
        ['Connection', 'keep-alive'],
      ],
      clientIp: '192.168.10.20',
      edge: { country: 'GB' },
    },
  };

  it('reads the workload requests as they are (explicit fields)', () => {
    for (const { name, fields } of workload.requests) {
      const request = read({ name, fields });
      expect(fieldValue(request, 'http.request.headers')).toBeInstanceOf(Map);
      expect(fieldValue(request, 'ip.src')).toEqual(ip(fields['ip.src'] as string));
    }
  });

  it('derives every field the workload gives from the request written in this format', () => {
    expect(Object.keys(written)).toEqual(workload.requests.map((r) => r.name));
    for (const { name, fields } of workload.requests) {
      const exact = read({ fields });
      const derived = read(written[name]);
      for (const field of Object.keys(fields)) {
        expect(fieldValue(derived, field), `${name} ${field}`).toEqual(fieldValue(exact, field));
      }
    }
  });
});

describe('examples/requests', () => {
  const directory = new URL('../../examples/requests/', import.meta.url);
  const files = readdirSync(directory).filter((file) => file.endsWith('.json'));

  it('are all valid', () => {
    expect(files.length).toBeGreaterThanOrEqual(4);
    for (const file of files) {
      const result = readSampleRequest(JSON.parse(readFileSync(new URL(file, directory), 'utf8')));
      expect(result.ok ? [] : result.problems, file).toEqual([]);
    }
  });

  it('give what docs/request.md says they give', () => {
    const example = (file: string) => read(JSON.parse(readFileSync(new URL(file, directory), 'utf8')));
    const bot = example('bot.json');
    expect(fieldValue(bot, 'cf.client.bot')).toBe(true);
    expect(fieldValue(bot, 'http.request.body.form.names')).toEqual(['action', 'interval', '_nonce']);
    expect(fieldValue(bot, 'ssl')).toBe(false);
    const upload = example('upload.json');
    expect(fieldValue(upload, 'http.request.body.multipart.filenames')).toEqual([[], ['beach.php']]);
    const api = example('api-post.json');
    expect(fieldValue(api, 'http.request.headers.names')).toContain('content-type');
    expect(fieldValue(api, 'http.x_forwarded_for')).toBe('198.51.100.20, 10.0.0.5');
    const browser = example('browser.json');
    expect(fieldValue(browser, 'http.request.uri.path.extension')).toBe('html');
    expect(fieldValue(browser, 'http.request.accepted_languages')).toEqual(['en-US', 'en']);
    expect(fieldValue(browser, 'http.referer')).toBe('');
    expect(fieldValue(browser, 'ip.geoip.country')).toBe('US');
    expect(fieldValue(browser, 'cf.edge.server_port')).toBe(443);
    expect(fieldValue(browser, 'http.request.timestamp.sec')).toBeUndefined();
    expect(fieldValue(example('fields-only.json'), 'http.request.uri.path.extension')).toBeUndefined();
    expect(fieldValue(browser, 'http.request.cookies')).toEqual(
      new Map([
        ['session', ['3f9a1c']],
        ['theme', ['dark']],
      ]),
    );
  });
});

describe('problems', () => {
  const cases: [name: string, json: unknown, path: string, message: RegExp | string][] = [
    ['not an object', [], '', 'a sample request is a JSON object, got an array'],
    ['null', null, '', 'a sample request is a JSON object, got null'],
    ['unknown key with a hint', { mehtod: 'GET' }, 'mehtod', 'unknown key "mehtod" (did you mean "method"?)'],
    ['name not a string', { name: 1 }, 'name', 'expected a string, got 1'],
    ['method not a token', { method: 'GE T' }, 'method', /is not an HTTP method/],
    [
      'bad version',
      { version: 'HTTP/1.2' },
      'version',
      'expected HTTP/1.0, HTTP/1.1, HTTP/2 or HTTP/3, got "HTTP/1.2"',
    ],
    ['url not a string', { url: 5 }, 'url', 'expected a string, got 5'],
    ['relative url', { url: 'example.com/a' }, 'url', /^malformed URL: expected an absolute URL/],
    ['url scheme not a name', { url: '1http://example.com/' }, 'url', /^malformed URL: expected an absolute/],
    ['url without a scheme', { url: '://example.com/' }, 'url', /^malformed URL: expected an absolute URL/],
    ['url with one slash', { url: 'https:/example.com/' }, 'url', /^malformed URL: expected an absolute/],
    ['url scheme with a plus', { url: 'a+b://example.com/' }, 'url', /unsupported scheme "a\+b"/],
    ['header name with a space', { headers: [['X Y', '1']] }, 'headers[0][0]', /not a valid header name/],
    ['header value with a LF', { headers: [['X', 'a\nb']] }, 'headers[0][1]', /cannot contain CR, LF or NUL/],
    ['method with a non-ASCII letter', { method: 'GÉT' }, 'method', /is not an HTTP method/],
    ['url with a space', { url: 'https://example.com/a b' }, 'url', /space or control character/],
    ['url scheme', { url: 'ftp://example.com/' }, 'url', 'unsupported scheme "ftp" (expected http or https)'],
    [
      'url port',
      { url: 'https://example.com:99999/' },
      'url',
      /port "99999" is not a number from 1 to 65535/,
    ],
    ['url empty host', { url: 'https:///a' }, 'url', 'malformed URL: the host is empty'],
    ['url user info', { url: 'https://u:p@example.com/' }, 'url', /user info/],
    ['url bad IPv6', { url: 'https://[1.2.3.4]/' }, 'url', /is not an IPv6 address/],
    ['url and path', { url: '/a', path: '/b' }, 'path', /conflicts with "url"/],
    ['absolute url and host', { url: 'https://a/', host: 'b' }, 'host', /conflicts with "url"/],
    ['path without slash', { path: 'a' }, 'path', 'a path starts with /'],
    ['path with query', { path: '/a?b' }, 'path', /cannot contain \? or #/],
    ['query with fragment', { query: 'a#b' }, 'query', /cannot contain #/],
    ['scheme', { scheme: 'wss' }, 'scheme', /unsupported scheme/],
    [
      'headers kind',
      { headers: 'Host: x' },
      'headers',
      /expected an object .* or a list of \[name, value\] pairs/,
    ],
    [
      'header pair shape',
      { headers: [['Host']] },
      'headers[0]',
      'expected a [name, value] pair, got an array',
    ],
    [
      'header name type',
      { headers: [[1, 'x']] },
      'headers[0][0]',
      'expected a header name (a string), got 1',
    ],
    [
      'header name token',
      { headers: [['Ho st', 'x']] },
      'headers[0][0]',
      /"Ho st" is not a valid header name/,
    ],
    [
      'header value type',
      { headers: [['Host', 1]] },
      'headers[0][1]',
      'expected a header value (a string), got 1',
    ],
    [
      'header value CRLF',
      { headers: { 'X-A': 'a\r\nX-B: b' } },
      'headers["X-A"]',
      /cannot contain CR, LF or NUL/,
    ],
    ['repeated header value', { headers: { Accept: ['a', null] } }, 'headers.Accept[1]', /got null/],
    [
      'contentType twice',
      { headers: { 'content-type': 'a/b' }, contentType: 'c/d' },
      'contentType',
      /give it in one place/,
    ],
    ['cookie name', { cookies: { 'a b': '1' } }, 'cookies["a b"]', /not a valid cookie name/],
    ['cookie value', { cookies: [['a', 'x;y']] }, 'cookies[0][1]', /cannot contain ;/],
    [
      'cookie value type',
      { cookies: { a: [true] } },
      'cookies.a[0]',
      'expected a cookie value (a string), got true',
    ],
    ['body kind', { body: 5 }, 'body', /expected a string, or an object with one key/],
    ['body two keys', { body: { text: 'a', base64: 'YQ==' } }, 'body', /one key/],
    ['bad base64', { body: { base64: 'a!b=' } }, 'body.base64', /not valid base64/],
    ['base64 bad length', { body: { base64: 'abcde' } }, 'body.base64', /not valid base64/],
    ['base64 bad padding', { body: { base64: 'ab=' } }, 'body.base64', /not valid base64/],
    ['body json BigInt', { body: { json: 1n } }, 'body.json', 'this value cannot be written as JSON'],
    [
      'bad client IP',
      { clientIp: '10.0.0.01' },
      'clientIp',
      /"10.0.0.01" is not a valid IPv4 or IPv6 address/,
    ],
    ['client IP with prefix', { clientIp: '10.0.0.0/8' }, 'clientIp', /not a valid/],
    [
      'client IP type',
      { clientIp: 167772161 },
      'clientIp',
      'expected an IP address string (Ip), got 167772161',
    ],
    ['timestamp', { timestamp: '2024-05-01' }, 'timestamp', /expected Unix seconds or an ISO 8601 time/],
    ['negative timestamp', { timestamp: -1 }, 'timestamp', /from 1970 on/],
    ['edge kind', { edge: [] }, 'edge', 'expected an object, got an array'],
    [
      'edge unknown',
      { edge: { contry: 'US' } },
      'edge.contry',
      /unknown edge key "contry" \(did you mean "country"\?\)/,
    ],
    ['edge type', { edge: { botScore: '5' } }, 'edge.botScore', 'expected an integer (Int), got "5"'],
    ['edge range', { edge: { botScore: 0 } }, 'edge.botScore', '0 is out of range (1 to 99)'],
    ['edge values', { edge: { continent: 'XX' } }, 'edge.continent', /expected one of AF, AN, AS/],
    ['edge IP', { edge: { serverIp: '1.2.3' } }, 'edge.serverIp', /not a valid IPv4 or IPv6 address/],
    ['edge array item', { edge: { detectionIds: [1, 'x'] } }, 'edge.detectionIds[1]', /expected an integer/],
    ['body limit', { edge: { bodyLimit: -1 } }, 'edge.bodyLimit', /an integer ≥ 0/],
    ['fields kind', { fields: [] }, 'fields', /expected an object of field name → value/],
    [
      'unknown field',
      { fields: { 'cf.waf.scor': 1 } },
      'fields["cf.waf.scor"]',
      /unknown field "cf.waf.scor" \(did you mean "cf.waf.score"\?\)/,
    ],
    ['field true', { fields: { true: true } }, 'fields.true', /unknown field "true"/],
    [
      'Int as text',
      { fields: { 'cf.waf.score': '12' } },
      'fields["cf.waf.score"]',
      'expected an integer (Int), got "12"',
    ],
    [
      'Int fraction',
      { fields: { 'cf.waf.score': 1.5 } },
      'fields["cf.waf.score"]',
      'expected an integer (Int), got 1.5',
    ],
    ['Int range', { fields: { 'cf.waf.score': 2 ** 53 } }, 'fields["cf.waf.score"]', /out of range/],
    ['Bool', { fields: { ssl: 'true' } }, 'fields.ssl', 'expected true or false (Bool), got "true"'],
    [
      'Bytes',
      { fields: { 'http.host': null } },
      'fields["http.host"]',
      'expected a string (Bytes), got null',
    ],
    ['Ip', { fields: { 'ip.src': '300.1.1.1' } }, 'fields["ip.src"]', /not a valid IPv4 or IPv6 address/],
    [
      'Array',
      { fields: { 'http.request.accepted_languages': 'en' } },
      'fields["http.request.accepted_languages"]',
      'expected an array (Array<Bytes>), got "en"',
    ],
    [
      'Map',
      { fields: { 'http.request.cookies': [] } },
      'fields["http.request.cookies"]',
      'expected an object (Map<Array<Bytes>>), got an array',
    ],
    [
      'nested in a map',
      { fields: { 'http.request.headers': { 'user-agent': ['a', 2] } } },
      'fields["http.request.headers"]["user-agent"][1]',
      'expected a string (Bytes), got 2',
    ],
    [
      'nested base64',
      { fields: { 'cf.random_seed': { base64: '%' } } },
      'fields["cf.random_seed"].base64',
      /not valid base64/,
    ],
  ];

  it.each(cases)('%s', (_, json, path, message) => {
    const found = problems(json);
    expect(found.map((p) => p.path)).toContain(path);
    const problem = found.find((p) => p.path === path) as RequestProblem;
    if (typeof message === 'string') expect(problem.message).toBe(message);
    else expect(problem.message).toMatch(message);
  });

  it('reports every problem at once', () => {
    const found = problems({ method: 1, url: 2, headers: [[1, 2]], fields: { x: 1, ssl: 0 } });
    expect(found.map((p) => p.path)).toEqual(['method', 'url', 'headers[0][0]', 'fields.x', 'fields.ssl']);
  });

  it('formats a problem with its path', () => {
    expect(
      formatRequestProblem({
        path: 'fields["cf.waf.score"]',
        message: 'expected an integer (Int), got "12"',
      }),
    ).toBe('fields["cf.waf.score"]: expected an integer (Int), got "12"');
    expect(formatRequestProblem({ path: '', message: 'a sample request is a JSON object, got null' })).toBe(
      'a sample request is a JSON object, got null',
    );
  });

  it('reads only own keys, never inherited ones', () => {
    expect(problems(JSON.parse('{"__proto__": {"method": "GET"}}'))[0]?.path).toBe('__proto__');
    expect(problems(Object.create({ method: 'GET' }))).toEqual([
      {
        path: '',
        message: 'a sample request is a JSON object, got an object with a prototype (not plain JSON)',
      },
    ]);
    expect(problems({ fields: new Map([['ssl', true]]) })[0]?.message).toMatch(/got a Map$/);
    expect(problems({ fields: { constructor: 1 } })[0]?.path).toBe('fields.constructor');
    expect(problems({ edge: { toString: 1 } })[0]?.path).toBe('edge.toString');
  });
});

describe('properties', () => {
  const neverThrows = (json: unknown) => {
    const result = readSampleRequest(json);
    if (!result.ok) {
      expect(result.problems.length).toBeGreaterThan(0);
      for (const problem of result.problems) expect(problem.message).not.toMatch(/internal error/);
    }
  };

  it('never throws on random JSON, nor on random request-shaped JSON', () => {
    fc.assert(fc.property(fc.jsonValue(), neverThrows), { numRuns: 500 });
    const keys = [
      'method',
      'url',
      'headers',
      'cookies',
      'body',
      'edge',
      'fields',
      'clientIp',
      'timestamp',
      'version',
    ];
    const shaped = fc.dictionary(fc.constantFrom(...keys), fc.jsonValue({ maxDepth: 3 }));
    fc.assert(fc.property(shaped, neverThrows), { numRuns: 500 });
  });

  it('never throws on arbitrary JS values', () => {
    fc.assert(
      fc.property(fc.anything({ withBigInt: true, withMap: true, withNullPrototype: true }), neverThrows),
      {
        numRuns: 500,
      },
    );
    const fieldNames = [...cloudflareScheme.fields.keys()];
    const anyFields = fc.dictionary(fc.constantFrom(...fieldNames), fc.anything({ withBigInt: true }));
    fc.assert(
      fc.property(anyFields, (fields) => neverThrows({ fields })),
      { numRuns: 500 },
    );
  });

  /** A JSON value of a type, and the run-time value it must give. */
  function typedSample(type: Type): fc.Arbitrary<[json: unknown, value: Value]> {
    if (typeof type === 'object') {
      const item = typedSample('array' in type ? type.array : type.map);
      if ('array' in type) {
        return fc
          .array(item, { maxLength: 3 })
          .map((items) => [items.map(([j]) => j), items.map(([, v]) => v)]);
      }
      return fc
        .dictionary(fc.string({ unit: 'binary', maxLength: 5 }), item, { maxKeys: 3 })
        .map((record) => {
          const entries = Object.entries(record);
          const json = Object.fromEntries(entries.map(([k, [j]]) => [k, j]));
          return [json, new Map(entries.map(([k, [, v]]) => [bytesOf(k), v]))];
        });
    }
    switch (type) {
      case 'Bytes':
        return fc.string({ unit: 'binary', maxLength: 12 }).map((s) => [s, bytesOf(s)]);
      case 'Int':
        return fc.maxSafeInteger().map((n) => [n, n]);
      case 'Bool':
        return fc.boolean().map((b) => [b, b]);
      case 'Ip':
        return fc
          .oneof(
            fc.nat({ max: 0xffffffff }).map((value): IpAddress => ({ family: 4, value })),
            fc.bigInt({ min: 0n, max: (1n << 128n) - 1n }).map((value): IpAddress => ({ family: 6, value })),
          )
          .map((address) => [formatIp(address), address]);
    }
  }

  const settable = [...cloudflareScheme.fields.values()].filter((f) => f.name !== 'true');

  it('round-trips random explicit fields, alongside a described message', () => {
    const assignment = fc
      .uniqueArray(fc.constantFrom(...settable), { maxLength: 8, selector: (f) => f.name })
      .chain((fields) =>
        fc.tuple(
          ...fields.map((f) => typedSample(f.type).map(([json, value]) => ({ name: f.name, json, value }))),
        ),
      );
    fc.assert(
      fc.property(assignment, fc.boolean(), (assigned, withMessage) => {
        const json = {
          ...(withMessage ? { url: 'https://example.com/a?b=c', headers: { Host: 'example.com' } } : {}),
          fields: Object.fromEntries(assigned.map(({ name, json }) => [name, json])),
        };
        const request = read(json);
        for (const { name, value } of assigned) expect(fieldValue(request, name)).toEqual(value);
      }),
      { numRuns: 300 },
    );
  });

  it('round-trips random header lists and query strings', () => {
    const token = fc.stringMatching(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,8}$/);
    const text = fc.stringMatching(/^[!-~]([ -~]{0,10}[!-~])?$/);
    const piece = fc.stringMatching(/^[A-Za-z0-9%._~-]{0,5}$/);
    const headers = fc.array(fc.tuple(token, text), { maxLength: 6 });
    const args = fc.array(fc.tuple(piece, piece), { maxLength: 5 });
    fc.assert(
      fc.property(headers, args, (lines, pairs) => {
        const query = pairs.map(([n, v]) => `${n}=${v}`).join('&');
        const request = read({ headers: lines, path: '/', query });
        expect(fieldValue(request, 'http.request.headers.names')).toEqual(lines.map(([n]) => n));
        expect(fieldValue(request, 'http.request.headers.values')).toEqual(lines.map(([, v]) => v));
        const map = fieldValue(request, 'http.request.headers') as Map<string, string[]>;
        expect([...map.values()].flat().length).toBe(lines.length);
        for (const [name, value] of lines) expect(map.get(name.toLowerCase())).toContain(value);
        // Every piece holds a `=`, so none is empty and all are kept, in order.
        expect(fieldValue(request, 'http.request.uri.args.names')).toEqual(pairs.map(([n]) => n));
        expect(fieldValue(request, 'http.request.uri.args.values')).toEqual(pairs.map(([, v]) => v));
      }),
      { numRuns: 300 },
    );
  });
});

describe('UTF-8 bytes and text (bytesOf, textOf)', () => {
  // One binary string char per byte: what TextEncoder writes, read back byte by byte.
  const expected = (text: string) =>
    [...new TextEncoder().encode(text)].map((byte) => String.fromCharCode(byte)).join('');

  it('writes the UTF-8 bytes of any text, lone surrogates as U+FFFD, like TextEncoder', () => {
    expect(bytesOf('Chef’s')).toBe('Chef\xe2\x80\x99s');
    expect(bytesOf('x\ud800y')).toBe('x\xef\xbf\xbdy');
    fc.assert(
      // Any UTF-16 code units, lone surrogates among them.
      fc.property(fc.array(fc.integer({ min: 0, max: 0xffff }), { maxLength: 300 }), (units) => {
        const text = String.fromCharCode(...units);
        expect(bytesOf(text)).toBe(expected(text));
      }),
      { numRuns: 500 },
    );
  });

  it('keeps ASCII text as it is, and encodes one non-ASCII character anywhere in it', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary-ascii', maxLength: 200 }),
        fc.nat(),
        fc.integer({ min: 0x80, max: 0xffff }),
        (ascii, at, unit) => {
          expect(bytesOf(ascii)).toBe(ascii);
          const position = at % (ascii.length + 1);
          const text = ascii.slice(0, position) + String.fromCharCode(unit) + ascii.slice(position);
          expect(bytesOf(text)).toBe(expected(text));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('lower-cases the ASCII letters of a binary string only', () => {
    const latin1 = fc.array(fc.integer({ min: 0, max: 255 }), { maxLength: 200 });
    fc.assert(
      fc.property(latin1, (codes) => {
        const bytes = String.fromCharCode(...codes);
        const lowered = String.fromCharCode(...codes.map((c) => (c >= 0x41 && c <= 0x5a ? c + 32 : c)));
        expect(asciiLower(bytes)).toBe(lowered);
      }),
      { numRuns: 500 },
    );
  });

  it('reads any bytes back as TextDecoder does, each invalid sequence as U+FFFD', () => {
    expect(textOf('Chef\xe2\x80\x99s')).toBe('Chef’s');
    expect(textOf('a\xff\xe2\x80b')).toBe('a\ufffd\ufffdb');
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 255 }), { maxLength: 300 }), (codes) => {
        const bytes = String.fromCharCode(...codes);
        expect(textOf(bytes)).toBe(new TextDecoder().decode(Uint8Array.from(codes)));
      }),
      { numRuns: 500 },
    );
  });
});
