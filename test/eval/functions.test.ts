/* biome-ignore-all lint/suspicious/noTemplateCurlyInString: replacements reference captures as ${N} */
import { createHash, createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { wildcardCaptures } from '../../src/eval/functions/replace.js';
import { type CallContext, functionRuntimes } from '../../src/eval/functions.js';
import { matchWildcard } from '../../src/eval/wildcard.js';
import { parseWildcard, type WildcardPart } from '../../src/lang/wildcard.js';
import { javascriptRegexEngine, type RegexEngine, UnsupportedPattern } from '../../src/regex/index.js';
import { cloudflareFunctions } from '../../src/scheme/functions.js';
import { parseIpAddress } from '../../src/scheme/ip.js';
import { arrayOf } from '../../src/scheme/types.js';
import { bytesOf, type IpAddress, type Value } from '../../src/scheme/values.js';

/**
 * Calls a function the way the compiler does: literal parameters (per the catalogue) are handed to
 * `prepare`, every argument to the implementation. The same call prepared without literals must give the
 * same answer (a reference interpreter may not know them).
 */
function call(name: string, args: readonly (Value | undefined)[], context?: CallContext): Value | undefined {
  const definition = cloudflareFunctions.get(name);
  const runtime = functionRuntimes.get(name);
  if (!definition || !runtime) throw new Error(`no function ${name}`);
  const params = [...definition.params, ...(definition.optional ?? [])];
  const literals = args.map((arg, i) =>
    (params[i] ?? definition.variadic)?.kind === 'literal' ? arg : undefined,
  );
  const result = runtime.prepare(literals, context)(args);
  expect(runtime.prepare([], context)(args)).toEqual(result);
  return result;
}

const ip = (text: string): IpAddress => {
  const address = parseIpAddress(text);
  if (!address) throw new Error(`bad address ${text}`);
  return address;
};

/** Bytes from a byte list, for binary values. */
const bin = (...bytes: number[]): string => String.fromCharCode(...bytes);

const hex = (bytes: Value | undefined): string => Buffer.from(bytes as string, 'latin1').toString('hex');

/** Arbitrary binary strings (every byte value). */
const binaryString = fc
  .array(fc.integer({ min: 0, max: 255 }), { maxLength: 80 })
  .map((bytes) => String.fromCharCode(...bytes));

describe('the catalogue', () => {
  it('has an implementation for every function but the any/all quantifiers', () => {
    const names = [...cloudflareFunctions.keys()].filter((name) => name !== 'any' && name !== 'all').sort();
    expect([...functionRuntimes.keys()].sort()).toEqual(names);
    // Cloudflare's documented functions, and the managed rules' own (waf_*, test/eval/waf-runtimes.test.ts).
    expect(names.filter((name) => !name.startsWith('waf_'))).toHaveLength(27);
  });

  it('gives a missing result for a missing first argument (except concat)', () => {
    const sample: Record<string, (Value | undefined)[]> = {
      cidr: [undefined, 24, 64],
      cidr6: [undefined, 64],
      decode_base64: [undefined],
      encode_base64: [undefined],
      ends_with: [undefined, 'x'],
      has_key: [undefined, 'x'],
      has_value: [undefined, 'x'],
      join: [undefined, ','],
      len: [undefined],
      lookup_json_integer: [undefined, 'a'],
      lookup_json_string: [undefined, 'a'],
      lower: [undefined],
      upper: [undefined],
      regex_replace: [undefined, 'a', 'b'],
      remove_bytes: [undefined, 'a'],
      remove_query_args: [undefined, 'a'],
      sha256: [undefined],
      split: [undefined, ',', 3],
      starts_with: [undefined, 'x'],
      substring: [undefined, 1],
      to_string: [undefined],
      url_decode: [undefined],
      uuidv4: [undefined],
      wildcard_replace: [undefined, '*', '${1}'],
      bit_slice: [undefined, 0, 4],
      is_timed_hmac_valid_v0: ['key', undefined, 100, 1000],
      waf_transform: [undefined, ['x']],
      waf_transform_steps: [undefined, ['x']],
      waf_values_matching: [undefined, 'x'],
      waf_values_except: [undefined, 'x'],
      waf_values_shorter: [undefined, 10],
      waf_detect_sqli: [undefined],
      waf_detect_xss: [undefined],
      waf_ends_with: [undefined, 'x'],
      waf_url_host: [undefined],
      waf_phrases: [undefined, 'x'],
      waf_bytes_within: [undefined, '1-2'],
      waf_valid_url_encoding: [undefined],
      waf_valid_utf8: [undefined],
      waf_capture: [undefined, 'x', 0],
      waf_less_than: [undefined, '1'],
      waf_count_bytes: [undefined, '1-2'],
      waf_captures_equal: [undefined, '(a)(a)'],
      waf_calls: [undefined, 'php-functions-high-risk'],
      waf_url_off_domain: [undefined, 'example.com'],
    };
    for (const [name, args] of Object.entries(sample)) expect(call(name, args), name).toBeUndefined();
    expect(Object.keys(sample).length + 1).toBe(functionRuntimes.size); // + concat, below
  });
});

describe('cidr, cidr6', () => {
  it('give the network address (documented examples)', () => {
    expect(call('cidr', [ip('113.10.0.2'), 24, 24])).toEqual(ip('113.10.0.0'));
    expect(call('cidr', [ip('2001:0000:130F:0000:0000:09C0:876A:130B'), 24, 24])).toEqual(ip('2001::'));
    expect(call('cidr6', [ip('2001:0000:130F:0000:0000:09C0:876A:130B'), 24])).toEqual(ip('2001::'));
    expect(call('cidr6', [ip('113.10.0.2'), 24])).toEqual(ip('113.10.0.2'));
  });

  it('keep whole addresses and treat IPv4-mapped addresses as IPv6', () => {
    expect(call('cidr', [ip('255.255.255.255'), 32, 128])).toEqual(ip('255.255.255.255'));
    expect(call('cidr', [ip('255.255.255.255'), 1, 128])).toEqual(ip('128.0.0.0'));
    expect(call('cidr', [ip('::ffff:10.1.2.3'), 8, 104])).toEqual(ip('::ffff:10.0.0.0'));
  });
});

describe('concat', () => {
  it('joins strings (documented example) and arrays', () => {
    expect(call('concat', ['String1', ' ', 'String', '2'])).toBe('String1 String2');
    expect(call('concat', [['a'], ['b', 'c'], []])).toEqual(['a', 'b', 'c']);
  });

  it('treats a missing argument as empty', () => {
    expect(call('concat', [undefined, 'a', undefined])).toBe('a');
    expect(call('concat', [undefined, undefined])).toBe('');
    expect(call('concat', [['a'], undefined])).toEqual(['a']);
    expect(call('concat', [undefined, undefined], { returnType: arrayOf('Bytes') })).toEqual([]);
  });
});

describe('encode_base64, decode_base64', () => {
  it('encode without padding by default, with it on "p", URL-safe on "u"', () => {
    expect(call('encode_base64', ['hello world'])).toBe('aGVsbG8gd29ybGQ');
    expect(call('encode_base64', ['hello world', 'p'])).toBe('aGVsbG8gd29ybGQ=');
    expect(call('encode_base64', [bin(0xfb, 0xff)])).toBe('+/8');
    expect(call('encode_base64', [bin(0xfb, 0xff), 'u'])).toBe('-_8');
    expect(call('encode_base64', [bin(0xfb, 0xff), 'up'])).toBe('-_8=');
    expect(call('encode_base64', [''])).toBe('');
  });

  it('decode the documented example, with or without padding', () => {
    expect(call('decode_base64', ['MTIzYWJj'])).toBe('123abc');
    expect(call('decode_base64', ['aGVsbG8gd29ybGQ='])).toBe('hello world');
    expect(call('decode_base64', ['aGVsbG8gd29ybGQ'])).toBe('hello world');
    expect(call('decode_base64', ['+/8='])).toBe(bin(0xfb, 0xff));
  });

  it('give a missing value for text that is not Base64', () => {
    for (const text of ['a', 'ab$c', '-_8', 'aGVs bG8', 'aGVsbG8=gd29y', 'aGVsbG8gd29ybGQ==']) {
      expect(call('decode_base64', [text]), text).toBeUndefined();
    }
  });

  it('round-trip any bytes (property)', () => {
    fc.assert(
      fc.property(binaryString, fc.constantFrom('', 'p'), (bytes, flags) => {
        expect(call('decode_base64', [call('encode_base64', [bytes, flags]) as string])).toBe(bytes);
      }),
    );
  });
});

describe('starts_with, ends_with', () => {
  it('test a prefix or a suffix (documented examples)', () => {
    expect(call('ends_with', ['/welcome.html', '.html'])).toBe(true);
    expect(call('ends_with', ['/welcome.htm', '.html'])).toBe(false);
    expect(call('starts_with', ['/blog/first-post', '/blog'])).toBe(true);
    expect(call('starts_with', ['/Blog/first-post', '/blog'])).toBe(false);
  });
});

describe('has_key, has_value', () => {
  const headers = new Map<string, Value>([
    ['x-custom-header', ['a', 'b']],
    ['accept', ['*/*']],
  ]);

  it('has_key looks up a key', () => {
    expect(call('has_key', [headers, 'x-custom-header'])).toBe(true);
    expect(call('has_key', [headers, 'X-Custom-Header'])).toBe(false);
    expect(call('has_key', [headers, undefined])).toBeUndefined();
  });

  it('has_value looks through an array (documented example with split)', () => {
    const allowed = call('split', ['US,GB,FR', ',', 64]) as Value;
    expect(call('has_value', [allowed, 'GB'])).toBe(true);
    expect(call('has_value', [allowed, 'DE'])).toBe(false);
    expect(call('has_value', [[1, 2, 3], 2])).toBe(true);
    expect(call('has_value', [[ip('10.0.0.1')], ip('10.0.0.1')])).toBe(true);
    expect(call('has_value', [[ip('10.0.0.1')], ip('::ffff:10.0.0.1')])).toBe(false);
    expect(call('has_value', [allowed, undefined])).toBeUndefined();
  });

  it('has_value looks at the values of a map, and into them when they are arrays', () => {
    expect(call('has_value', [headers, 'b'])).toBe(true);
    expect(call('has_value', [headers, ['*/*']])).toBe(true);
    expect(call('has_value', [headers, 'c'])).toBe(false);
    expect(call('has_value', [new Map<string, Value>([['k', 'v']]), 'v'])).toBe(true);
  });
});

describe('join, split', () => {
  it('join (documented rules)', () => {
    expect(call('join', [['accept', 'host', 'user-agent'], ','])).toBe('accept,host,user-agent');
    expect(call('join', [[], ','])).toBe('');
    expect(call('join', [['only'], ','])).toBe('only');
    expect(call('join', [undefined, ','])).toBeUndefined();
  });

  it('split (documented examples)', () => {
    expect(call('split', ['groceries,electronics,diy,auto', ',', 64])).toEqual([
      'groceries',
      'electronics',
      'diy',
      'auto',
    ]);
    expect(call('split', ['groceries,electronics,diy,auto', ',', 3])).toEqual([
      'groceries',
      'electronics',
      'diy,auto',
    ]);
    expect(call('split', ['groceries,,electronics', ',', 64])).toEqual(['groceries', '', 'electronics']);
    expect(call('split', ['a,b', ',', 1])).toEqual(['a,b']);
    expect(call('split', ['', ',', 4])).toEqual(['']);
    expect(call('split', ['a::b::', '::', 8])).toEqual(['a', 'b', '']);
  });

  it('join undoes split (property)', () => {
    fc.assert(
      fc.property(binaryString, fc.constantFrom(',', '::', '\xff'), (input, separator) => {
        expect(call('join', [call('split', [input, separator, 128]) as Value, separator])).toBe(input);
      }),
    );
  });
});

describe('len', () => {
  it('counts bytes or items (documented example)', () => {
    expect(call('len', ['example.com'])).toBe(11);
    expect(call('len', [bytesOf('é')])).toBe(2);
    expect(call('len', [['a', 'b', 'c']])).toBe(3);
    expect(call('len', [''])).toBe(0);
  });
});

describe('lookup_json_integer, lookup_json_string', () => {
  it('follow the documented paths', () => {
    expect(call('lookup_json_integer', ['{ "record_id": "aed53a", "version": 2 }', 'version'])).toBe(2);
    expect(call('lookup_json_integer', ['{ "product": { "id": 356 } }', 'product', 'id'])).toBe(356);
    expect(call('lookup_json_integer', ['["first_item", -234]', 1])).toBe(-234);
    expect(call('lookup_json_integer', ['{ "network_ids": [123, 456] }', 'network_ids', 0])).toBe(123);
    expect(
      call('lookup_json_integer', ['[{ "product_id": 123 }, { "product_id": 456 }]', 1, 'product_id']),
    ).toBe(456);
    expect(
      call('lookup_json_string', ['{ "company": "cloudflare", "product": "rulesets" }', 'company']),
    ).toBe('cloudflare');
    expect(call('lookup_json_string', ['{ "network": { "name": "cloudflare" } }', 'network', 'name'])).toBe(
      'cloudflare',
    );
    expect(call('lookup_json_string', ['["other_company", "cloudflare"]', 1])).toBe('cloudflare');
    expect(
      call('lookup_json_string', ['{ "networks": ["other_company", "cloudflare"] }', 'networks', 1]),
    ).toBe('cloudflare');
    expect(
      call('lookup_json_string', [
        '[{ "network": "other_company" }, { "network": "cloudflare" }]',
        1,
        'network',
      ]),
    ).toBe('cloudflare');
  });

  it('take plain integers only', () => {
    expect(call('lookup_json_integer', ['{"a": 42.0}', 'a'])).toBeUndefined();
    expect(call('lookup_json_integer', ['{"a": 4e1}', 'a'])).toBeUndefined();
    expect(call('lookup_json_integer', ['{"a": "42"}', 'a'])).toBeUndefined();
    expect(call('lookup_json_integer', ['{"a": -0}', 'a'])).toBe(0);
    expect(call('lookup_json_integer', ['{"a": 9223372036854775807}', 'a'])).toBe(2 ** 63);
    expect(call('lookup_json_integer', ['{"a": 9223372036854775808}', 'a'])).toBeUndefined();
  });

  it('give a missing value for a wrong step, a wrong type or invalid JSON', () => {
    const doc = '{"a": {"b": [1, "x", null]}, "s": "t"}';
    expect(call('lookup_json_string', [doc, 'a', 'b', 1])).toBe('x');
    expect(call('lookup_json_string', [doc, 'a', 'b', 3])).toBeUndefined();
    expect(call('lookup_json_string', [doc, 'a', 0])).toBeUndefined();
    expect(call('lookup_json_string', [doc, 'a', 'b', 'x'])).toBeUndefined();
    expect(call('lookup_json_string', [doc, 'a'])).toBeUndefined();
    expect(call('lookup_json_string', [doc, 'a', 'b', 2])).toBeUndefined();
    expect(call('lookup_json_string', ['{"s": "t",}', 's'])).toBeUndefined();
    expect(call('lookup_json_string', ['{"s": "t"} x', 's'])).toBeUndefined();
    expect(call('lookup_json_string', ['{"s": "\xff"}', 's'])).toBeUndefined();
    expect(call('lookup_json_string', ['{"s": "\\ud83d"}', 's'])).toBeUndefined();
    expect(call('lookup_json_string', ['{"s": "\\ud83d\\u0041"}', 's'])).toBeUndefined();
    expect(call('lookup_json_string', [`${'['.repeat(200)}${']'.repeat(200)}`, 0])).toBeUndefined();
  });

  it('return strings as UTF-8 bytes, escapes decoded, and match keys byte for byte', () => {
    expect(call('lookup_json_string', ['{"k": "caf\\u00e9 \\ud83d\\ude00 \\n"}', 'k'])).toBe(
      bytesOf('café 😀 \n'),
    );
    expect(call('lookup_json_string', [bytesOf('{"clé": "é"}'), bytesOf('clé')])).toBe(bytesOf('é'));
    expect(call('lookup_json_string', ['{"k": "a", "k": "b"}', 'k'])).toBe('b');
  });
});

describe('lower, upper', () => {
  it('change ASCII letters only (documented examples)', () => {
    expect(call('lower', ['WWW.cloudflare.com'])).toBe('www.cloudflare.com');
    expect(call('upper', ['www.cloudflare.com'])).toBe('WWW.CLOUDFLARE.COM');
    // Latin-1 letters, µ, ß and ÿ are bytes like any other.
    expect(call('lower', [bin(0x41, 0xc0, 0xc9, 0xde)])).toBe(bin(0x61, 0xc0, 0xc9, 0xde));
    expect(call('upper', [bin(0x61, 0xb5, 0xdf, 0xe9, 0xff)])).toBe(bin(0x41, 0xb5, 0xdf, 0xe9, 0xff));
    expect(call('upper', [bytesOf('straße')])).toBe(bytesOf('STRAßE'));
  });

  it('are idempotent, keep the length and touch only ASCII letters (property)', () => {
    fc.assert(
      fc.property(binaryString, (bytes) => {
        for (const name of ['lower', 'upper']) {
          const once = call(name, [bytes]) as string;
          expect(call(name, [once])).toBe(once);
          expect(once).toHaveLength(bytes.length);
          for (let i = 0; i < bytes.length; i++) {
            const before = bytes.charCodeAt(i);
            const after = once.charCodeAt(i);
            if (/[A-Za-z]/.test(bytes[i] as string)) expect(after | 0x20).toBe(before | 0x20);
            else expect(after).toBe(before);
          }
        }
      }),
    );
  });
});

describe('regex_replace', () => {
  it('replaces the first match (documented examples)', () => {
    expect(call('regex_replace', ['/foo/bar', '/bar$', '/baz'])).toBe('/foo/baz');
    expect(call('regex_replace', ['/x', '^/y$', '/mumble'])).toBe('/x');
    expect(call('regex_replace', ['/foo', '^/FOO$', '/x'])).toBe('/foo');
    expect(call('regex_replace', ['/a/a', '/a', '/b'])).toBe('/b/a');
    expect(call('regex_replace', ['/b', '^/b$', '/b$$'])).toBe('/b$');
    expect(call('regex_replace', ['/foo/a/path', '^/foo/([^/]*)/(.*)$', '/bar/${2}/${1}'])).toBe(
      '/bar/path/a',
    );
  });

  it('expands references like Rust: $N, absent groups empty, a lone $ literal', () => {
    expect(call('regex_replace', ['ab', '(a)(x)?', '[$1|${2}|${9}|$]'])).toBe('[a|||$]b');
    expect(call('regex_replace', ['ab', '(a)', '$1x'])).toBe('b');
    expect(call('regex_replace', ['ab', '(?P<first>a)', '${1}${first}'])).toBe('ab');
    expect(call('regex_replace', ['ab', '', '-'])).toBe('-ab');
  });

  it('keeps byte semantics with the default engine', () => {
    // `.` is any byte but \n; \s is ASCII; (?i) folds ASCII only; \xFF is the byte 0xFF.
    expect(call('regex_replace', ['\r\n', '.', 'x'])).toBe('x\n');
    expect(call('regex_replace', ['\n', '(?s).', 'x'])).toBe('x');
    expect(call('regex_replace', [bin(0xa0, 0x20), '\\s', 'x'])).toBe(bin(0xa0, 0x78));
    expect(call('regex_replace', [bin(0xe9, 0x41), '(?i)[\\xc9a]', 'x'])).toBe(bin(0xe9, 0x78));
    expect(call('regex_replace', [bin(0x61, 0xff), '\\xff', 'x'])).toBe('ax');
    expect(call('regex_replace', [bytesOf('ééa'), bytesOf('é+'), 'x'])).toBe('xa');
    expect(call('regex_replace', ['a\nb', '(?m)^b', 'x'])).toBe('a\nx');
    expect(call('regex_replace', ['a\nb', '^b', 'x'])).toBe('a\nb');
    expect(call('regex_replace', ['aaa', '(?U)a+', 'x'])).toBe('xaa');
    expect(call('regex_replace', ['Ab1_', '(?i:a)[[:alpha:]]\\d\\w', 'x'])).toBe('x');
    expect(call('regex_replace', ['\n', '[^a]', 'x'])).toBe('x');
    expect(call('regex_replace', ['AbC', '(?i)abc', 'x'])).toBe('x');
    expect(call('regex_replace', ['a.b', 'a\\.b|z', 'x'])).toBe('x');
    expect(call('regex_replace', ['aaaa', 'a{2}{2}', 'x'])).toBe('x');
    // A group that runs at most once captures the same in JS and Rust.
    expect(call('regex_replace', ['ab', '(a)?(c)?(b)', '${1}${2}${3}'])).toBe('ab');
  });

  it('refuses, with the JavaScript engine, patterns it cannot translate faithfully', () => {
    const context = { regexEngine: javascriptRegexEngine };
    const unsupported = [
      '(?u)\\w',
      '\\p{Greek}',
      '(a)+',
      '(?:(a)|b){2}',
      '(a)?*',
      '[[a-z]]',
      '(?x) a',
      '\\b{start}',
      '[a&&b]',
    ];
    for (const pattern of unsupported) {
      expect(() => call('regex_replace', ['x', pattern, 'y'], context), pattern).toThrow(UnsupportedPattern);
    }
  });

  it('runs, with the default engine (RE2), patterns the JavaScript translation refuses', () => {
    expect(call('regex_replace', ['aaa-b', '(a)+', 'x'])).toBe('x-b');
    expect(call('regex_replace', [bytesOf('café'), '(?u)\\w+', 'x'])).toBe('x');
  });

  it('uses the engine the call context names', () => {
    const patterns: string[] = [];
    const engine: RegexEngine = {
      compile(pattern) {
        patterns.push(pattern);
        return javascriptRegexEngine.compile(pattern.toLowerCase());
      },
    };
    expect(call('regex_replace', ['/a/b', '/(B)', '<${1}>'], { regexEngine: engine })).toBe('/a<b>');
    expect(patterns).toContain('/(B)');
  });
});

describe('remove_bytes', () => {
  it('removes every listed byte (documented example)', () => {
    expect(call('remove_bytes', ['www.cloudflare.com', '\x2e\x77'])).toBe('cloudflarecom');
    expect(call('remove_bytes', ['abc', ''])).toBe('abc');
    expect(call('remove_bytes', [bin(0, 0xff, 0x41), bin(0xff, 0)])).toBe('A');
  });
});

describe('remove_query_args', () => {
  it('removes every occurrence and keeps the order (documented examples)', () => {
    expect(call('remove_query_args', ['order=asc&country=GB', 'country'])).toBe('order=asc');
    expect(call('remove_query_args', ['order=asc&country=GB', 'order'])).toBe('country=GB');
    expect(call('remove_query_args', ['order=asc&country=GB', 'search'])).toBe('order=asc&country=GB');
    expect(call('remove_query_args', ['category=Foo&order=desc&category=Bar', 'order'])).toBe(
      'category=Foo&category=Bar',
    );
    expect(call('remove_query_args', ['category=Foo&order=desc&category=Bar', 'category'])).toBe(
      'order=desc',
    );
  });

  it('takes several names, and bare names', () => {
    expect(call('remove_query_args', ['a=1&debug&b=2&c=3', 'debug', 'c'])).toBe('a=1&b=2');
    expect(call('remove_query_args', ['a=1', 'a'])).toBe('');
    expect(call('remove_query_args', ['', 'a'])).toBe('');
  });
});

describe('sha256', () => {
  it('gives the raw 32-byte digest', () => {
    expect(hex(call('sha256', ['abc']))).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
    expect(call('encode_base64', [call('sha256', ['']) as string, 'p'])).toBe(
      '47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=',
    );
  });

  it('agrees with node:crypto on any bytes (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 255 }), { maxLength: 300 }), (bytes) => {
        const input = String.fromCharCode(...bytes);
        expect(hex(call('sha256', [input]))).toBe(
          createHash('sha256').update(Uint8Array.from(bytes)).digest('hex'),
        );
      }),
    );
  });
});

describe('substring', () => {
  it('cuts by byte offsets, end excluded, negatives from the end (documented examples)', () => {
    expect(call('substring', ['asdfghjk', 2, 5])).toBe('dfg');
    expect(call('substring', ['asdfghjk', 2])).toBe('dfghjk');
    expect(call('substring', ['asdfghjk', -2])).toBe('jk');
    expect(call('substring', ['asdfghjk', 0, -2])).toBe('asdfgh');
  });

  it('clamps offsets beyond the value and counts bytes, not characters', () => {
    expect(call('substring', ['abc', 5])).toBe('');
    expect(call('substring', ['abc', -10, 2])).toBe('ab');
    expect(call('substring', ['abc', 2, 1])).toBe('');
    expect(call('substring', [bytesOf('éa'), 1])).toBe(bin(0xa9, 0x61));
  });
});

describe('to_string', () => {
  it('writes Int, Bool and Ip values (documented examples)', () => {
    expect(call('to_string', [5])).toBe('5');
    expect(call('to_string', [-12])).toBe('-12');
    expect(call('to_string', [true])).toBe('true');
    expect(call('to_string', [false])).toBe('false');
    expect(call('to_string', [ip('113.10.0.2')])).toBe('113.10.0.2');
    expect(call('to_string', [ip('2001:0000:130F:0000:0000:09C0:876A:130B')])).toBe(
      '2001:0:130f::9c0:876a:130b',
    );
    expect(call('to_string', [ip('::ffff:1.2.3.4')])).toBe('::ffff:1.2.3.4');
    expect(call('to_string', [ip('::1')])).toBe('::1');
  });
});

describe('url_decode', () => {
  it('decodes %XX and + (documented examples)', () => {
    expect(call('url_decode', ['John%20Doe'])).toBe('John Doe');
    expect(call('url_decode', ['John+Doe'])).toBe('John Doe');
    expect(call('url_decode', ['%E4%BD'])).toBe(bin(0xe4, 0xbd));
    expect(call('url_decode', ['%2520'])).toBe('%20');
    expect(call('url_decode', ['%2520', 'r'])).toBe(' ');
    // An encoded plus stays a plus however many times it was encoded; only a plus of the text is a space.
    expect(call('url_decode', ['%252B', 'r'])).toBe('+');
    expect(call('url_decode', ['a+b%2Bc%25252B', 'r'])).toBe('a b+c+');
    expect(call('url_decode', ['%2B'])).toBe('+');
  });

  it('decodes %uXXXX to UTF-8 with "u" (documented example), pairs included', () => {
    expect(call('url_decode', ['%u2601', 'u'])).toBe('\xe2\x98\x81');
    expect(call('url_decode', ['%u2601'])).toBe('%u2601');
    expect(call('url_decode', ['%uD83D%uDE00', 'u'])).toBe(bytesOf('😀'));
    expect(call('url_decode', ['%uD83D', 'u'])).toBe('%uD83D');
    expect(call('url_decode', ['%25u2601', 'ur'])).toBe('\xe2\x98\x81');
    expect(call('url_decode', ['%u00e9%41', 'u'])).toBe(bytesOf('éA'));
  });

  it('keeps what is not an escape', () => {
    expect(call('url_decode', ['100%', ''])).toBe('100%');
    expect(call('url_decode', ['%zz%4'])).toBe('%zz%4');
  });

  it('undoes percent-encoding of any bytes (property)', () => {
    fc.assert(
      fc.property(binaryString, (bytes) => {
        const encoded = Array.from(bytes, (c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`).join(
          '',
        );
        expect(call('url_decode', [encoded])).toBe(bytes);
      }),
    );
  });
});

describe('uuidv4', () => {
  it('derives a version-4 UUID from the seed, deterministically', () => {
    const seed = bin(...Array.from({ length: 32 }, (_, i) => i * 7));
    const uuid = call('uuidv4', [seed]);
    expect(uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(call('uuidv4', [seed])).toBe(uuid);
    expect(call('uuidv4', [`${seed}x`])).not.toBe(uuid);
    expect(call('uuidv4', [''])).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('wildcard_replace', () => {
  it('rewrites a whole-value match (documented examples)', () => {
    expect(
      call('wildcard_replace', [
        'https://apps.example.com/calendar/admin?expand=true',
        'https://*.example.com/*/*',
        'https://example.com/${1}/${2}/${3}',
      ]),
    ).toBe('https://example.com/apps/calendar/admin?expand=true');
    expect(
      call('wildcard_replace', ['https://example.com/applications/app1', '/applications/*', '/apps/${1}']),
    ).toBe('https://example.com/applications/app1');
    expect(call('wildcard_replace', ['/calendar', '/*', '/apps/${1}'])).toBe('/apps/calendar');
    expect(call('wildcard_replace', ['/Apps/calendar', '/apps/*', '/${1}'])).toBe('/calendar');
    expect(call('wildcard_replace', ['/Apps/calendar', '/apps/*', '/${1}', 's'])).toBe('/Apps/calendar');
    expect(call('wildcard_replace', ['/apps/calendar/login', '/apps/*/login', '/${1}/login'])).toBe(
      '/calendar/login',
    );
  });

  it('matches stars lazily, reads \\* as a star, and writes $$ as $', () => {
    expect(call('wildcard_replace', ['a-b-c', '*-*', '${1}|${2}'])).toBe('a|b-c');
    expect(call('wildcard_replace', ['a*b', 'a\\**', '$$${1}'])).toBe('$b');
    expect(call('wildcard_replace', ['xay', '*A*', '${2}${1}'])).toBe('yx');
    expect(call('wildcard_replace', ['x', '*', '${1}${2}${9}'])).toBe('x');
  });

  it('captures what matchWildcard matches, in order (property)', () => {
    const pieces = fc.constantFrom('a', 'b', 'A', '/', '*', '\\*');
    fc.assert(
      fc.property(
        fc.array(pieces, { maxLength: 6 }),
        fc.stringMatching(/^[abAB/*]{0,8}$/),
        fc.boolean(),
        (patternPieces, value, caseSensitive) => {
          const parsed = parseWildcard(patternPieces.join(''));
          fc.pre(parsed.ok);
          const parts = (parsed as { parts: WildcardPart[] }).parts;
          const captures = wildcardCaptures(parts, value, caseSensitive);
          expect(captures !== undefined).toBe(matchWildcard(parts, value, caseSensitive));
          if (captures && caseSensitive) {
            let star = 1;
            const rebuilt = parts
              .map((part) => (part.kind === 'star' ? captures[star++] : part.bytes))
              .join('');
            expect(rebuilt).toBe(value);
          }
        },
      ),
    );
  });
});

describe('bit_slice', () => {
  // An IPv4 header (version 4, IHL 5, TTL 64, protocol 17) and a UDP header (ports 53 → 5353, length 12)
  // followed by a 4-byte payload.
  const ipHeader = bin(0x45, 0x00, 0x00, 0x20, 0, 0, 0x40, 0, 64, 17, 0, 0, 10, 0, 0, 1, 10, 0, 0, 2);
  const udp = bin(0x00, 0x35, 0x14, 0xe9, 0x00, 0x0c, 0x00, 0x00, 0xde, 0xad, 0xbe, 0xef);

  it('reads bits start..end (end excluded) of the header, most significant first', () => {
    expect(call('bit_slice', [ipHeader, 0, 4])).toBe(4);
    expect(call('bit_slice', [ipHeader, 4, 8])).toBe(5);
    expect(call('bit_slice', [ipHeader, 72, 80])).toBe(17);
    expect(call('bit_slice', [udp, 16, 32])).toBe(5353);
    expect(call('bit_slice', [udp, 64, 80])).toBe(0xdead);
    expect(call('bit_slice', [udp, 64, 96])).toBe(0xdeadbeef);
    expect(call('bit_slice', [udp, 65, 66])).toBe(1);
  });

  it('gives a missing value past the header, or for an empty or too wide slice', () => {
    expect(call('bit_slice', [udp, 90, 100])).toBeUndefined();
    expect(call('bit_slice', [udp, 8, 8])).toBeUndefined();
    expect(call('bit_slice', [udp, 0, 33])).toBeUndefined();
  });
});

describe('is_timed_hmac_valid_v0', () => {
  const key = 'mysecrettoken';
  const issued = 1484063787;
  /** A token made as Cloudflare's token-authentication guide shows (URL-encoded standard Base64). */
  const token = (message: string, timestamp = issued, secret = key) => {
    const mac = createHmac('sha256', secret).update(`${message}${timestamp}`).digest('base64');
    return `${timestamp}-${encodeURIComponent(mac)}`;
  };
  const uri = `/images/cat.jpg?verify=${token('/images/cat.jpg')}`;

  it('accepts a valid token until it expires (documented rule: now < issued + ttl)', () => {
    expect(call('is_timed_hmac_valid_v0', [key, uri, 10800, 1484071925, 8])).toBe(true);
    expect(call('is_timed_hmac_valid_v0', [key, uri, 10800, issued + 10799, 8])).toBe(true);
    expect(call('is_timed_hmac_valid_v0', [key, uri, 10800, issued + 10800, 8])).toBe(false);
  });

  it('rejects another key, another message, a wrong separator length or a malformed value', () => {
    expect(call('is_timed_hmac_valid_v0', ['other', uri, 10800, issued, 8])).toBe(false);
    expect(call('is_timed_hmac_valid_v0', [key, uri.replace('cat', 'dog'), 10800, issued, 8])).toBe(false);
    expect(call('is_timed_hmac_valid_v0', [key, uri, 10800, issued, 7])).toBe(false);
    expect(call('is_timed_hmac_valid_v0', [key, uri, 10800, issued])).toBe(false);
    expect(call('is_timed_hmac_valid_v0', [key, '/images/cat.jpg?verify=123-abc', 10800, issued, 8])).toBe(
      false,
    );
    expect(call('is_timed_hmac_valid_v0', [key, uri, 10800, undefined, 8])).toBeUndefined();
  });

  it('reads a MessageMAC built with concat and no separator', () => {
    const messageMac = call('concat', ['/images/cat.jpg', token('/images/cat.jpg')]) as string;
    expect(call('is_timed_hmac_valid_v0', [key, messageMac, 100000, issued, 0])).toBe(true);
  });

  it('with flag "s", expects URL-safe Base64 without padding, not URL-encoded', () => {
    const mac = createHmac('sha256', key).update(`/a${issued}`).digest('base64url');
    const messageMac = `/a&t=${issued}-${mac}`;
    expect(mac).toHaveLength(43);
    expect(call('is_timed_hmac_valid_v0', [key, messageMac, 60, issued, 3, 's'])).toBe(true);
    expect(call('is_timed_hmac_valid_v0', [key, messageMac, 60, issued, 3])).toBe(false);
    expect(call('is_timed_hmac_valid_v0', [key, `/a&t=${token('/a')}`, 60, issued, 3, 's'])).toBe(false);
  });

  it('hashes long keys first, as HMAC requires', () => {
    const longKey = 'k'.repeat(100);
    const messageMac = `/x${token('/x', issued, longKey)}`;
    expect(call('is_timed_hmac_valid_v0', [longKey, messageMac, 60, issued])).toBe(true);
  });
});
