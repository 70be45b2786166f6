import { describe, expect, it } from 'vitest';
import { layoutFor } from '../../src/eval/context.js';
import { readSampleRequest } from '../../src/request/index.js';
import { dispositionParameters } from '../../src/request/waf-targets.js';
import { cloudflareScheme } from '../../src/scheme/scheme.js';

/** The waf.* fields of multipart bodies and sizes: MULTIPART_PART_HEADERS, FILES, the combined sizes. */

function field(request: unknown, name: string) {
  const read = readSampleRequest(request);
  if (!read.ok) throw new Error(JSON.stringify(read.problems));
  const layout = layoutFor(cloudflareScheme);
  return layout.context(read.request).get(layout.slotOf(name));
}

const multipart = (body: string, extra: Record<string, unknown> = {}) => ({
  method: 'POST',
  url: 'https://example.com/upload',
  contentType: 'multipart/form-data; boundary=XX',
  body,
  ...extra,
});

describe('multipart bodies as a WAF reads them', () => {
  it('give every header line of every part, as sent', () => {
    const request = multipart(
      '--XX\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--XX\r\n\x0eContent-Type : text/plain\r\nContent-Disposition: form-data; name="b"\r\n\r\n2\r\n--XX--\r\n',
    );
    expect(field(request, 'waf.multipart.headers')).toEqual([
      'Content-Disposition: form-data; name="a"',
      '\x0eContent-Type : text/plain',
      'Content-Disposition: form-data; name="b"',
    ]);
    expect(
      field({ method: 'POST', url: 'https://example.com/', body: 'a: b' }, 'waf.multipart.headers'),
    ).toEqual([]);
  });

  it("keep a file name's backslashes, unescaping only quotes and backslashes, as ModSecurity does", () => {
    expect(dispositionParameters('form-data; name="cv.p\\d\\f"; filename="a\\"b\\\\c.txt"')).toEqual(
      new Map([
        ['name', 'cv.p\\d\\f'],
        ['filename', 'a"b\\c.txt'],
      ]),
    );
    expect(dispositionParameters('form-data; name="x;y"; FileName=plain.txt ; a')).toEqual(
      new Map([
        ['name', 'x;y'],
        ['filename', 'plain.txt'],
      ]),
    );
    const request = multipart(
      '--XX\r\nContent-Disposition: form-data; name="doc"; filename="C:\\Users\\me\\cv.pdf"\r\n\r\n%PDF\r\n--XX--\r\n',
    );
    expect(field(request, 'waf.files.names')).toEqual(['C:\\Users\\me\\cv.pdf']);
    expect(field(request, 'waf.files.fields')).toEqual(['doc']);
  });

  it('count the bytes of uploaded files, past the inspection limit', () => {
    const file = (name: string, size: number) =>
      `--XX\r\nContent-Disposition: form-data; name="${name}"; filename="${name}.bin"\r\n\r\n${'A'.repeat(size)}\r\n`;
    const body = `${file('a', 3000)}${file('b', 5000)}--XX\r\nContent-Disposition: form-data; name="t"\r\n\r\ntext\r\n--XX--\r\n`;
    expect(field(multipart(body), 'waf.files.combined_size')).toBe(8000);
    expect(field(multipart(body, { edge: { bodyLimit: 1024 } }), 'waf.files.combined_size')).toBe(8000);
    expect(field(multipart(body, { edge: { bodyLimit: 1024 } }), 'waf.files.names')).toEqual(['a.bin']);
  });
});

describe('the combined size of arguments', () => {
  it("adds every argument's name and value, query and body", () => {
    const request = {
      method: 'POST',
      url: 'https://example.com/?ab=cd&e',
      contentType: 'application/x-www-form-urlencoded',
      body: 'name=%41%42',
    };
    expect(field(request, 'waf.args.combined_size')).toBe(4 + 1 + 4 + 2);
  });
});
