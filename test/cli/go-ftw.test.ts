import { describe, expect, it } from 'vitest';
import { goFtwRequest } from '../../src/cli/test-files/go-ftw.js';
import { run } from './in-process.js';

/** go-ftw test files (the OWASP Core Rule Set's test format) in `cfrules test`. */

const v2File = `
meta: { author: someone }
rule_id: 943120
tests:
  - test_id: 1
    desc: a session id without a Referer
    stages:
      - input:
          dest_addr: 127.0.0.1
          port: 80
          uri: "/login?jsessionid=1234"
          headers: { Host: localhost, User-Agent: go-ftw }
        output:
          log: { expect_ids: [943120] }
  - test_id: 2
    stages:
      - input:
          uri: "/login?jsessionid=1234"
          headers: { Host: localhost, Referer: "http://localhost/a" }
        output:
          log: { no_expect_ids: [943120] }
  - test_id: 3
    stages:
      - input: { uri: "/plain", headers: { Host: localhost } }
        output: { log: { expect_ids: [943120] } }
  - test_id: 4
    stages:
      - input: { uri: "/", headers: { Host: localhost } }
        output: { status: 400 }
`;

const v1File = `
meta: { author: someone, enabled: true, name: 943120.yaml }
tests:
  - test_title: 943120-1
    stages:
      - stage:
          input:
            method: POST
            uri: /
            headers: { Host: localhost, Content-Type: application/x-www-form-urlencoded }
            data: "phpsessid=x"
          output:
            log_contains: id "943120"
`;

describe('cfrules test on go-ftw files', () => {
  it('runs each stage as a case, expectations naming rules by number, against the OWASP ruleset by default', () => {
    const result = run(['test', 'crs/943120.yaml'], { 'crs/943120.yaml': v2File });
    expect(result.stdout).toContain('PASS 943120-1');
    expect(result.stdout).toContain('PASS 943120-2');
    expect(result.stdout).toContain('FAIL 943120-3');
    expect(result.stdout).toContain('fired: expected 943120 to match; it did not');
    expect(result.stdout).toContain('SKIP 943120-4');
    expect(result.stdout).toContain("status 400 is the server's answer, which cfrules does not simulate");
    expect(result.stdout).toMatch(/2 passed, 1 failed, 1 skipped\n$/);
    expect(result.code).toBe(1);
  });

  it('reads the older format (test_title, stage, log_contains) and whole directories', () => {
    const result = run(['test', 'tests'], {
      'tests/a/943120.yaml': v1File,
      'tests/b/notes.txt': 'not a test',
    });
    expect(result.stdout).toContain('tests/a/943120.yaml');
    expect(result.stdout).toMatch(/1 passed, 0 failed\n$/);
    expect(result.code).toBe(0);
  });

  it('runs the other files of a directory when one is not valid YAML, and says which', () => {
    const result = run(['test', 'tests'], { 'tests/a.yaml': v1File, 'tests/b.yaml': 'tests: [: oops' });
    expect(result.stderr).toContain(
      'cfrules test: tests/b.yaml:1: (document): tests/b.yaml is not valid YAML',
    );
    expect(result.stdout).toMatch(/1 passed, 0 failed\n$/);
    expect(result.code).toBe(2);
  });

  it('runs against the zone --zone names, where the rule may be missing', () => {
    const zone = JSON.stringify({ plan: 'enterprise', firewall_rules: [] });
    const result = run(['test', '--zone', 'zone.json', '943120.yaml'], {
      'zone.json': zone,
      '943120.yaml': v2File,
    });
    expect(result.stdout).toContain('FAIL 943120-1');
    expect(result.stdout).toContain('PASS 943120-2');
  });

  it('skips a request the sample-request format cannot hold, saying why', () => {
    const file = `
rule_id: 920100
tests:
  - test_id: 1
    stages:
      - input: { method: "GE T", uri: "/", headers: { Host: localhost } }
        output: { log: { expect_ids: [920100] } }
`;
    const result = run(['test', 'f.yaml'], { 'f.yaml': file });
    expect(result.stdout).toContain('SKIP 920100-1');
    expect(result.stdout).toContain('the request cannot be simulated: method:');
    expect(result.code).toBe(0);
  });
});

describe('the request go-ftw would send', () => {
  it('completes the request as go-ftw does: form Content-Type and encoding, Connection, Content-Length', () => {
    expect(goFtwRequest({ method: 'POST', uri: '/x', data: 'a=1 or 1&b=<x>' }).request).toEqual({
      method: 'POST',
      url: '/x',
      version: 'HTTP/1.1',
      headers: [
        ['Content-Type', 'application/x-www-form-urlencoded'],
        ['Connection', 'close'],
        ['Content-Length', '18'],
      ],
      scheme: 'http',
      host: 'localhost',
      body: 'a=1+or+1&b=%3Cx%3E',
    });
    // Already encoded (a % or a +): sent as written. A method that takes a body gets a length without one.
    const encoded = goFtwRequest({ method: 'POST', data: 'a=%27' }).request as { body: string };
    expect(encoded.body).toBe('a=%27');
    const empty = goFtwRequest({ method: 'PUT', headers: { Host: 'h' } }).request as { headers: unknown };
    expect(empty.headers).toEqual([
      ['Host', 'h'],
      ['Connection', 'close'],
      ['Content-Length', '0'],
    ]);
    // A multipart body's line breaks become CRLF.
    const multipart = goFtwRequest({
      method: 'POST',
      headers: { 'Content-Type': 'multipart/form-data; boundary=b' },
      data: '--b\nContent-Disposition: form-data; name="a"\n\n1\n--b--\n',
    }).request as { body: string };
    expect(multipart.body).toBe('--b\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--b--\r\n');
  });

  it('sends what the test gives without autocompletion, and no body a server would not read', () => {
    const bare = goFtwRequest({ method: 'POST', data: 'a=1', autocomplete_headers: false }).request;
    expect(bare).toEqual({
      method: 'POST',
      url: '/',
      version: 'HTTP/1.1',
      headers: [],
      scheme: 'http',
      host: 'localhost',
    });
    const withLength = goFtwRequest({
      method: 'POST',
      data: 'a=1',
      headers: { 'Content-Length': '3' },
      stop_magic: true,
    }).request as { body: string; headers: unknown };
    expect(withLength.body).toBe('a=1');
    expect(withLength.headers).toEqual([['Content-Length', '3']]);
  });

  it('percent-encodes what a request target cannot hold raw, and expands repeat templates', () => {
    const request = goFtwRequest({ uri: '/a b#c?x={{ "A" | repeat 3 }}' }).request as { url: string };
    expect(request.url).toBe('/a%20b%23c?x=AAA');
  });

  it('reads a whole encoded request: line, headers, body', () => {
    const raw = 'POST /p?q=1 HTTP/1.0\r\nHost: h\r\nContent-Type: text/plain\r\n\r\nhello\x00';
    expect(goFtwRequest({ encoded_request: btoa(raw) }).request).toEqual({
      method: 'POST',
      url: '/p?q=1',
      version: 'HTTP/1.0',
      headers: [
        ['Host', 'h'],
        ['Content-Type', 'text/plain'],
      ],
      scheme: 'http',
      body: { base64: btoa('hello\x00') },
    });
    expect(goFtwRequest({ encoded_request: btoa('GARBAGE\r\n\r\n') }).skip).toMatch(
      /is not "METHOD TARGET VERSION"/,
    );
  });

  it('skips header values with line breaks', () => {
    expect(goFtwRequest({ headers: { 'X-A': 'a\r\nb' } }).skip).toBe(
      'the value of header X-A holds a line break or NUL byte',
    );
  });
});
