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
  it('completes Content-Length and a form Content-Type for a body, and names the host, when the test does not', () => {
    expect(goFtwRequest({ method: 'POST', uri: '/x', data: 'a=1' }).request).toEqual({
      method: 'POST',
      url: '/x',
      version: 'HTTP/1.1',
      headers: [
        ['Content-Length', '3'],
        ['Content-Type', 'application/x-www-form-urlencoded'],
      ],
      scheme: 'http',
      host: 'localhost',
      body: 'a=1',
    });
    const noAutocomplete = goFtwRequest({ method: 'POST', data: 'a=1', autocomplete_headers: false });
    expect((noAutocomplete.request as { headers: unknown }).headers).toEqual([]);
    const typed = goFtwRequest({ method: 'POST', data: 'a', headers: { 'content-type': 'text/plain' } });
    expect((typed.request as { headers: unknown }).headers).toEqual([
      ['content-type', 'text/plain'],
      ['Content-Length', '1'],
    ]);
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
    // A raw request is text: what is not ASCII goes as UTF-8, as go-ftw sends it.
    const rawText = goFtwRequest({ raw_request: 'POST / HTTP/1.0\r\n\r\nt=\xac\xed' }).request;
    expect((rawText as { body: unknown }).body).toEqual({ base64: btoa('t=\xc2\xac\xc3\xad') });
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
