import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  asTarget,
  chainOf,
  transformed,
  transformedSteps,
} from '../../src/eval/functions/waf/transform-cache.js';
import {
  isTransformationName,
  TRANSFORMATION_NAMES,
  TRANSFORMATIONS,
  type TransformationName,
} from '../../src/eval/functions/waf/transforms.js';

/** A chain over one value, through the per-request cache the rules use. */
const transformChain =
  (names: readonly TransformationName[]) =>
  (value: string): string | undefined =>
    transformed(asTarget(value), chainOf(names))[0];
const transformSteps =
  (names: readonly TransformationName[]) =>
  (value: string): readonly string[] =>
    transformedSteps(asTarget(value), chainOf(names));

/** Each [input, expected output] pair through one transformation. */
function expectPairs(name: TransformationName, pairs: readonly (readonly [string, string])[]): void {
  const transform = TRANSFORMATIONS[name];
  for (const [input, expected] of pairs)
    expect(transform(input), `${name}(${JSON.stringify(input)})`).toBe(expected);
}

/** A binary string from byte values. */
const bytes = (...values: number[]): string => String.fromCharCode(...values);
const hex = (value: string): string => Buffer.from(value, 'latin1').toString('hex');

describe('the catalogue', () => {
  it('names every transformation CRS v4 request rules use, with the aliases', () => {
    for (const name of [
      'none',
      'lowercase',
      'urlDecode',
      'urlDecodeUni',
      'htmlEntityDecode',
      'jsDecode',
      'cssDecode',
      'compressWhitespace',
      'removeWhitespace',
      'removeNulls',
      'replaceNulls',
      'removeComments',
      'replaceComments',
      'removeCommentsChar',
      'cmdLine',
      'normalizePath',
      'normalisePath',
      'normalizePathWin',
      'normalisePathWin',
      'base64Decode',
      'base64DecodeExt',
      'hexDecode',
      'sqlHexDecode',
      'utf8toUnicode',
      'trim',
      'trimLeft',
      'trimRight',
      'escapeSeqDecode',
      'length',
      'hexEncode',
      'md5',
      'sha1',
    ]) {
      expect(isTransformationName(name), name).toBe(true);
      expect(TRANSFORMATION_NAMES).toContain(name);
    }
    expect(Object.keys(TRANSFORMATIONS).sort()).toEqual([...TRANSFORMATION_NAMES].sort());
  });

  it('recognises names spelled exactly, nothing else', () => {
    expect(isTransformationName('urldecodeuni')).toBe(false);
    expect(isTransformationName('toString')).toBe(false);
    expect(isTransformationName('__proto__')).toBe(false);
    expect(isTransformationName('')).toBe(false);
  });

  it('gives the empty string for the empty string, except where a value is computed', () => {
    for (const name of TRANSFORMATION_NAMES) {
      const expected = name === 'length' ? '0' : name === 'md5' || name === 'sha1' ? undefined : '';
      if (expected !== undefined) expect(TRANSFORMATIONS[name](''), name).toBe(expected);
    }
  });

  it('returns a value with nothing to transform as it is', () => {
    const plain = 'Hello World 123 index.html';
    for (const name of ['urlDecode', 'urlDecodeUni', 'htmlEntityDecode', 'jsDecode', 'cssDecode'] as const) {
      expect(TRANSFORMATIONS[name](plain), name).toBe(plain);
    }
    for (const name of ['escapeSeqDecode', 'removeNulls', 'replaceNulls', 'trim', 'utf8toUnicode'] as const) {
      expect(TRANSFORMATIONS[name](plain), name).toBe(plain);
    }
    for (const name of ['removeComments', 'replaceComments', 'removeCommentsChar', 'sqlHexDecode'] as const) {
      expect(TRANSFORMATIONS[name](plain), name).toBe(plain);
    }
    expect(TRANSFORMATIONS.normalizePath('/static/app.min.js')).toBe('/static/app.min.js');
    expect(TRANSFORMATIONS.lowercase('already lower')).toBe('already lower');
    expect(TRANSFORMATIONS.cmdLine('ls -la x')).toBe('ls -la x');
  });
});

describe('none, lowercase, uppercase', () => {
  it('none leaves the value alone', () => {
    expectPairs('none', [['A%41 /./', 'A%41 /./']]);
  });

  it('lowercase changes ASCII letters only (the C locale)', () => {
    expectPairs('lowercase', [
      ['SELECT * FROM Users', 'select * from users'],
      ['<ScRiPt>', '<script>'],
      [bytes(0xc0, 0xde, 0x41), bytes(0xc0, 0xde, 0x61)],
    ]);
  });

  it('uppercase changes ASCII letters only', () => {
    expectPairs('uppercase', [
      ['union select', 'UNION SELECT'],
      [bytes(0xe0, 0x61), bytes(0xe0, 0x41)],
    ]);
  });
});

describe('urlDecode', () => {
  it('decodes %HH and + as a space', () => {
    expectPairs('urlDecode', [
      ['%2e%2e%2f', '../'],
      ['%2E%2E%2F', '../'],
      ['%3Cscript%3E', '<script>'],
      ['a+b', 'a b'],
      ['%00', '\0'],
      ['%ff', bytes(0xff)],
      ['%252e', '%2e'],
    ]);
  });

  it('keeps invalid and truncated escapes as they are', () => {
    expectPairs('urlDecode', [
      ['%', '%'],
      ['%2', '%2'],
      ['100%', '100%'],
      ['%zz', '%zz'],
      ['%2g', '%2g'],
      ['%g2', '%g2'],
      ['%%41', '%A'],
      ['%%%', '%%%'],
      ['%u003c', '%u003c'],
    ]);
  });
});

describe('urlDecodeUni', () => {
  it('decodes %uHHHH as its low byte, and %HH and + as urlDecode does', () => {
    expectPairs('urlDecodeUni', [
      ['%u003c', '<'],
      ['%U003C%u002F', '</'],
      ['%u002e%u002e%u002f', '../'],
      ['%2e%u002e/', '../'],
      ['a+b', 'a b'],
      ['%u263a', ':'],
      ['%u0000', '\0'],
    ]);
  });

  it('folds full-width ASCII (U+FF01–U+FF5E) to ASCII', () => {
    expectPairs('urlDecodeUni', [
      ['%uff1cscript%uff1e', '<script>'],
      ['%uFF01%uff5e', '!~'],
      ['%uff00', '\0'],
      ['%uff5f', '_'],
    ]);
  });

  it('keeps invalid and truncated %u escapes as they are', () => {
    expectPairs('urlDecodeUni', [
      ['%u', '%u'],
      ['%u12', '%u12'],
      ['%u123', '%u123'],
      ['%u12g4', '%u12g4'],
      ['%u%u0041', '%uA'],
      ['%u00%41', '%u00A'],
      ['%', '%'],
      ['%zz', '%zz'],
    ]);
  });
});

describe('htmlEntityDecode', () => {
  it('decodes the named entities ModSecurity knows, with or without the semicolon, in any case', () => {
    expectPairs('htmlEntityDecode', [
      ['&lt;script&gt;', '<script>'],
      ['&lt;script&gt', '<script>'],
      ['&quot;&amp;&nbsp;', `"&${bytes(0xa0)}`],
      ['&LT;&Gt;&QUOT;', '<>"'],
      ['&amp;lt;', '&lt;'],
    ]);
  });

  it('decodes decimal and hex numeric entities, with or without the semicolon', () => {
    expectPairs('htmlEntityDecode', [
      ['&#60;', '<'],
      ['&#60', '<'],
      ['&#x3c;', '<'],
      ['&#x3c', '<'],
      ['&#X3C;', '<'],
      ['&#0000060;', '<'],
      ['&#106;&#97;&#118;&#97;', 'java'],
      ['&#x6A&#x61&#x76&#x61', 'java'],
      ['&#60x', '<x'],
    ]);
  });

  it('keeps one byte of a number too large for it, as ModSecurity does', () => {
    expectPairs('htmlEntityDecode', [
      ['&#256;', '\0'],
      ['&#x263a;', ':'],
      ['&#x10003c;', '<'],
      ['&#9223372036854775807;', bytes(0xff)],
      ['&#99999999999999999999;', bytes(0xff)],
      ['&#x7fffffffffffff3c;', '<'],
      ['&#x8000000000000000;', bytes(0xff)],
    ]);
  });

  it('leaves unknown and malformed entities alone', () => {
    expectPairs('htmlEntityDecode', [
      ['&', '&'],
      ['&;', '&;'],
      ['&#', '&#'],
      ['&#;', '&#;'],
      ['&#x', '&#x'],
      ['&#xg;', '&#xg;'],
      ['&apos;', '&apos;'],
      ['&copy;', '&copy;'],
      ['&ltscript', '&ltscript'],
      ['AT&T', 'AT&T'],
      ['&&lt;', '&<'],
      ['&#&lt;', '&#<'],
    ]);
  });
});

describe('jsDecode', () => {
  it('decodes \\xHH, \\uHHHH, octal and the C escapes', () => {
    expectPairs('jsDecode', [
      ['\\x3cscript\\x3e', '<script>'],
      ['\\u003cscript\\u003e', '<script>'],
      ['\\uff1c', '<'],
      ['\\u263a', ':'],
      ['\\74', '<'],
      ['\\074', '<'],
      ['\\0', '\0'],
      ['\\377', bytes(0xff)],
      ['\\400', ' 0'],
      ['\\a\\b\\f\\n\\r\\t\\v', '\x07\b\f\n\r\t\v'],
    ]);
  });

  it('makes any other escaped character stand for itself', () => {
    expectPairs('jsDecode', [
      ['\\\'\\"\\\\', `'"\\`],
      ['\\z', 'z'],
      ['ja\\vascript', `ja${bytes(0x0b)}ascript`],
      ['\\8', '8'],
    ]);
  });

  it('reads malformed and truncated escapes as an escaped letter', () => {
    expectPairs('jsDecode', [
      ['\\x4', 'x4'],
      ['\\xzz', 'xzz'],
      ['\\u12', 'u12'],
      ['\\u12g4', 'u12g4'],
      ['\\X41', 'X41'],
      ['\\U0041', 'U0041'],
      ['\\', '\\'],
      ['abc\\', 'abc\\'],
    ]);
  });
});

describe('cssDecode', () => {
  it('decodes hex escapes of 1 to 6 digits, using the last two, and swallows one whitespace after them', () => {
    expectPairs('cssDecode', [
      ['\\3c script\\3e', '<script>'],
      ['\\3cscript', '<script'],
      ['\\3cabc', bytes(0xbc)],
      ['\\00003c', '<'],
      ['\\00003c x', '<x'],
      ['\\a', '\n'],
      ['\\263a', ':'],
      ['\\ff1c', '<'],
      ['\\0ff1c', '<'],
      ['\\00ff1c', '<'],
      ['\\1ff1c', '\x1c'],
      ['\\3c\tx', '<x'],
      ['\\3c  x', '< x'],
    ]);
  });

  it('unescapes other characters, drops escaped newlines and a final backslash', () => {
    expectPairs('cssDecode', [
      ['ja\\vascript', 'javascript'],
      ['\\"', '"'],
      ['a\\\nb', 'ab'],
      ['abc\\', 'abc'],
      ['\\', ''],
      ['\\\\', '\\'],
    ]);
  });
});

describe('escapeSeqDecode', () => {
  it('decodes the ANSI C escapes', () => {
    expectPairs('escapeSeqDecode', [
      ['\\a\\b\\f\\n\\r\\t\\v', '\x07\b\f\n\r\t\v'],
      ['\\\\\\?\\\'\\"', `\\?'"`],
      ['\\x41\\X42', 'AB'],
      ['\\101', 'A'],
      ['\\0', '\0'],
      ['\\012', '\n'],
      ['\\0123', '\n3'],
      ['<\\163\\143\\162\\151\\160\\164>', '<script>'],
    ]);
  });

  it('keeps the low byte of a three-digit octal escape beyond 0377', () => {
    expectPairs('escapeSeqDecode', [
      ['\\666', bytes(0xb6)],
      ['\\777', bytes(0xff)],
      ['\\412', '\n'],
    ]);
  });

  it('drops the backslash of an unrecognised escape, keeps a final one', () => {
    expectPairs('escapeSeqDecode', [
      ['\\8\\9', '89'],
      ['\\xag', 'xag'],
      ['\\x4', 'x4'],
      ['\\', '\\'],
      ['a\\', 'a\\'],
      ['\\u0041', 'u0041'],
    ]);
  });
});

describe('whitespace', () => {
  const nbsp = bytes(0xa0);

  it('compressWhitespace turns each run of whitespace (NBSP included) into one space', () => {
    expectPairs('compressWhitespace', [
      ['a  b', 'a b'],
      ['a\t\n\r\v\fb', 'a b'],
      [`a${nbsp}b`, 'a b'],
      ['  a  ', ' a '],
      ['a b', 'a b'],
      ['\n', ' '],
    ]);
  });

  it('removeWhitespace removes all of it', () => {
    expectPairs('removeWhitespace', [
      ['un ion\tse\nlect', 'unionselect'],
      [`a${nbsp}b\v\fc`, 'abc'],
    ]);
  });

  it('trim, trimLeft and trimRight remove C whitespace (not NBSP) at the ends', () => {
    expectPairs('trim', [
      ['  a b \t\n', 'a b'],
      [`${nbsp}a${nbsp}`, `${nbsp}a${nbsp}`],
      [' \v\f ', ''],
    ]);
    expectPairs('trimLeft', [[' \ta ', 'a ']]);
    expectPairs('trimRight', [[' a \r\n', ' a']]);
  });
});

describe('NUL bytes', () => {
  it('removeNulls removes them, replaceNulls makes them spaces', () => {
    expectPairs('removeNulls', [['un\0ion\0\0', 'union']]);
    expectPairs('replaceNulls', [['un\0ion\0', 'un ion ']]);
  });
});

describe('comments', () => {
  it('replaceComments replaces each C comment with one space, an unterminated one too', () => {
    expectPairs('replaceComments', [
      ['UNION/**/SELECT', 'UNION SELECT'],
      ['UNION/*foo*/SELECT/*bar*/1', 'UNION SELECT 1'],
      ['a/*b', 'a '],
      ['a*/b', 'a*/b'],
      ['/*a*//*b*/', '  '],
      ['a/*/b*/c', 'a c'],
    ]);
  });

  it('removeComments removes C and HTML comments and cuts the value at -- or #', () => {
    expectPairs('removeComments', [
      ['UNION/**/SELECT', 'UNIONSELECT'],
      ['a<!--b-->c', 'ac'],
      ['a/*b-->c', 'ac'],
      ['a<!--b*/c', 'ac'],
      ["1' OR 1=1-- -", "1' OR 1=1"],
      ["admin'#\nrest", "admin'"],
      ['a/*b', 'a '],
      ['a/*b*/', 'a'],
      ['/*a*//*b*/c', 'c'],
      ['a*/b', 'a*/b'],
    ]);
  });

  it('removeCommentsChar removes the comment marks only', () => {
    expectPairs('removeCommentsChar', [
      ['UNI/**/ON', 'UNION'],
      ['a<!--b-->c', 'abc'],
      ['a--b#c', 'abc'],
      ['a-b', 'a-b'],
      ['--->', '->'],
    ]);
  });
});

describe('cmdLine', () => {
  it('removes escapes and quotes, normalises separators and case (documented evasions)', () => {
    expectPairs('cmdLine', [
      ['c\\a\\t /etc/passwd', 'cat/etc/passwd'],
      ['c^ommand /c dir', 'command/c dir'],
      ['"command" /c dir', 'command/c dir'],
      ['command,/c dir', 'command/c dir'],
      ["w'h'o'am'i", 'whoami'],
      ['CMD.EXE  /C  DIR', 'cmd.exe/c dir'],
      ['echo ( x )', 'echo( x )'],
      ['a;b,c\td\r\ne', 'a b c d e'],
      ['a ,; b', 'a b'],
      ['a " b', 'a b'],
      ['a ^/b', 'a/b'],
      ['  x', ' x'],
      [' /x', '/x'],
      ['a B', 'a b'],
      ['a ,', 'a '],
      ['ls -la x', 'ls -la x'],
    ]);
  });
});

describe('normalizePath', () => {
  it('removes self-references, back-references and repeated slashes', () => {
    expectPairs('normalizePath', [
      ['/a/./b/../c', '/a/c'],
      ['/a//b///c', '/a/b/c'],
      ['/a/b/../../../etc/passwd', '/etc/passwd'],
      ['/./../etc/./passwd', '/etc/passwd'],
      ['dir/../foo', 'foo'],
      ['dir/subdir/../../..', '..'],
      ['/dir/sub/../', '/dir/'],
      ['/dir/sub/..', '/dir'],
      ['a/b/.', 'a/b'],
      ['a/b/./', 'a/b/'],
    ]);
  });

  it('keeps leading back-references of a relative path, and the root of an absolute one', () => {
    expectPairs('normalizePath', [
      ['../../etc/passwd', '../../etc/passwd'],
      ['./../x', '../x'],
      ['a/../../x/', '../x/'],
      ['../a/../b', '../b'],
      ['..', '..'],
      ['../', '../'],
      ['.', ''],
      ['./', ''],
      ['a/..', ''],
      ['/', '/'],
      ['//', '/'],
      ['/..', '/'],
      ['/a/..', '/'],
    ]);
  });

  it('treats only whole segments as references', () => {
    expectPairs('normalizePath', [
      ['/a/b../c', '/a/b../c'],
      ['/a/.b/c', '/a/.b/c'],
      ['/a/.../c', '/a/.../c'],
      ['file.tar.gz', 'file.tar.gz'],
    ]);
  });

  it('has normalisePath as an alias', () => {
    expect(TRANSFORMATIONS.normalisePath).toBe(TRANSFORMATIONS.normalizePath);
  });
});

describe('normalizePathWin', () => {
  it('turns backslashes into slashes, then normalizes', () => {
    expectPairs('normalizePathWin', [
      ['..\\..\\windows\\win.ini', '../../windows/win.ini'],
      ['C:\\inetpub\\wwwroot\\..\\..\\boot.ini', 'C:/boot.ini'],
      ['\\a\\.\\b\\\\c\\', '/a/b/c/'],
      ['a/b\\..\\c', 'a/c'],
    ]);
    expect(TRANSFORMATIONS.normalisePathWin).toBe(TRANSFORMATIONS.normalizePathWin);
  });
});

describe('utf8toUnicode', () => {
  it('writes well-formed multi-byte sequences as %uHHHH', () => {
    const utf8 = (text: string): string => Buffer.from(text, 'utf8').toString('latin1');
    expectPairs('utf8toUnicode', [
      [utf8('é'), '%u00e9'],
      [utf8('Hello ハロー world'), 'Hello %u30cf%u30ed%u30fc world'],
      [utf8('🍺'), '%u1f37a'],
      [utf8('＜script＞'), '%uff1cscript%uff1e'],
      ['a\0b', 'a\0b'],
    ]);
  });

  it('keeps bytes that start no well-formed sequence', () => {
    expectPairs('utf8toUnicode', [
      [bytes(0xc3), bytes(0xc3)],
      [bytes(0xc3, 0x41), bytes(0xc3, 0x41)],
      [bytes(0x80, 0xbf), bytes(0x80, 0xbf)],
      [bytes(0xc0, 0xbc), bytes(0xc0, 0xbc)], // overlong '<'
      [bytes(0xe0, 0x80, 0xbc), bytes(0xe0, 0x80, 0xbc)], // overlong '<'
      [bytes(0xed, 0xa0, 0x80), bytes(0xed, 0xa0, 0x80)], // surrogate
      [bytes(0xf4, 0x90, 0x80, 0x80), bytes(0xf4, 0x90, 0x80, 0x80)], // above U+10FFFF
      [bytes(0xe2, 0x82, 0xc3, 0xa9), `${bytes(0xe2, 0x82)}%u00e9`],
    ]);
  });
});

describe('Base64', () => {
  it('base64Decode decodes the leading run of Base64 digits', () => {
    expectPairs('base64Decode', [
      [Buffer.from('<script>alert(1)</script>').toString('base64'), '<script>alert(1)</script>'],
      ['PHNjcmlwdD4=', '<script>'],
      ['PHNjcmlwdD4', '<script>'],
      ['PHNjcmlwd', '<scrip'],
      ['PA==', '<'],
      ['PHNj cmlwdD4=', '<sc'],
      ['PHNj\ncmlwdD4=', '<sc'],
      ['PFRFU1Q-', '<TEST'],
      ['!!!', ''],
      ['P', ''],
      ['AP8A', bytes(0, 0xff, 0)],
    ]);
  });

  it('base64DecodeExt skips everything outside the alphabet', () => {
    expectPairs('base64DecodeExt', [
      ['PHNjcmlwdD4=', '<script>'],
      ['PH Nj.cm%lwdD4', '<script>'],
      ['PHNj\r\ncmlwdD4=', '<script>'],
      ['P=A', '<'],
      ['...', ''],
    ]);
  });

  it('base64Encode encodes with padding', () => {
    expectPairs('base64Encode', [
      ['<script>', 'PHNjcmlwdD4='],
      ['ab', 'YWI='],
      ['a', 'YQ=='],
      [bytes(0xff, 0xfe, 0xfd), '//79'],
    ]);
  });
});

describe('hex', () => {
  it('hexEncode writes lower-case hex', () => {
    expectPairs('hexEncode', [
      ['xyz', '78797a'],
      [bytes(0, 0xff, 0x0a), '00ff0a'],
    ]);
  });

  it('hexDecode reads pairs, drops an odd last digit, and computes garbage as ModSecurity does', () => {
    expectPairs('hexDecode', [
      ['3c7363726970743e', '<script>'],
      ['3C7363726970743E', '<script>'],
      ['546573740043617365', 'Test\0Case'],
      ['01234567890a0', bytes(0x01, 0x23, 0x45, 0x67, 0x89, 0x0a)],
      ['zz', 'S'],
      ['4', ''],
    ]);
  });

  it('sqlHexDecode decodes 0x literals', () => {
    expectPairs('sqlHexDecode', [
      ['0x414243', 'ABC'],
      ['SELECT 0x3c7363726970743e', 'SELECT <script>'],
      ['0X41', 'A'],
      ['0x414', 'A4'],
      ['0x4', '0x4'],
      ['0x', '0x'],
      ['0xzz', '0xzz'],
      ['0x410x42', 'AB'],
      ['100x41', '10A'],
    ]);
  });
});

describe('length, md5, sha1', () => {
  it('length gives the number of bytes in decimal', () => {
    expectPairs('length', [
      ['ABCDE', '5'],
      [bytes(0xc3, 0xa9), '2'],
      ['x'.repeat(1234), '1234'],
    ]);
  });

  it('md5 and sha1 give the raw digest bytes, as node:crypto does', () => {
    expect(hex(TRANSFORMATIONS.md5(''))).toBe('d41d8cd98f00b204e9800998ecf8427e');
    expect(hex(TRANSFORMATIONS.sha1('abc'))).toBe('a9993e364706816aba3e25717850c26c9cd0d89d');
    for (const length of [0, 1, 55, 56, 63, 64, 65, 119, 120, 1000]) {
      const value = Array.from({ length }, (_, i) => String.fromCharCode((i * 151 + 7) & 0xff)).join('');
      for (const algorithm of ['md5', 'sha1'] as const) {
        const expected = createHash(algorithm).update(value, 'latin1').digest('hex');
        expect(hex(TRANSFORMATIONS[algorithm](value)), `${algorithm} of ${length} bytes`).toBe(expected);
      }
    }
  });

  it('chain with hexEncode as CRS uses them', () => {
    expect(transformChain(['sha1', 'hexEncode'])('abc')).toBe('a9993e364706816aba3e25717850c26c9cd0d89d');
    expect(transformChain(['md5', 'hexEncode'])('abc')).toBe('900150983cd24fb0d6963f7d28e17f72');
  });
});

describe('urlEncode', () => {
  it('keeps letters, digits and *, writes a space as + and the rest as %hh', () => {
    expectPairs('urlEncode', [
      ['a b*c', 'a+b*c'],
      ['<a.b>', '%3ca%2eb%3e'],
      [bytes(0xff), '%ff'],
    ]);
  });
});

describe('transformChain', () => {
  it('applies the transformations in order', () => {
    const chain = transformChain(['urlDecodeUni', 'htmlEntityDecode', 'lowercase']);
    expect(chain('%26lt%3BSCRIPT%26gt%3B')).toBe('<script>');
    expect(transformChain(['lowercase', 'urlDecode'])('%3C')).toBe('<');
    expect(transformChain(['urlDecode', 'lowercase'])('%2541')).toBe('%41');
    expect(transformChain(['urlDecode', 'urlDecode'])('%2541')).toBe('A');
  });

  it('skips none wherever it stands, and is the identity when empty', () => {
    expect(transformChain([])('A%41')).toBe('A%41');
    expect(transformChain(['none'])('A%41')).toBe('A%41');
    expect(transformChain(['none', 'lowercase', 'none', 'urlDecode'])('A%41')).toBe('aA');
  });

  it('typical CRS chains', () => {
    expect(
      transformChain([
        'utf8toUnicode',
        'urlDecodeUni',
        'htmlEntityDecode',
        'jsDecode',
        'cssDecode',
        'removeNulls',
      ])('%3Cscr\\x69pt&gt;'),
    ).toBe('<script>');
    expect(transformChain(['urlDecodeUni', 'normalizePathWin'])('..%5c..%5cwindows%5cwin.ini')).toBe(
      '../../windows/win.ini',
    );
    expect(transformChain(['urlDecodeUni', 'cmdLine'])('%22c%5Ea%22t+%2Fetc%2Fpasswd')).toBe(
      'cat/etc/passwd',
    );
  });
});

describe('transformSteps', () => {
  it('gives the value first, then after each transformation', () => {
    expect(transformSteps(['urlDecode', 'lowercase'])('A%42')).toEqual(['A%42', 'AB', 'ab']);
  });

  it('drops repeats, keeping the first place of each value', () => {
    expect(transformSteps(['urlDecode', 'lowercase'])('abc')).toEqual(['abc']);
    expect(transformSteps(['lowercase', 'urlDecode', 'lowercase'])('A%42')).toEqual([
      'A%42',
      'a%42',
      'aB',
      'ab',
    ]);
    expect(transformSteps(['urlEncode', 'urlDecode'])('a')).toEqual(['a']);
    expect(transformSteps(['uppercase', 'lowercase'])('ab')).toEqual(['ab', 'AB']);
  });

  it('keeps every value, repeats across values included, and the array itself when no step changes one', () => {
    const values = ['abc', 'abc', 'x%41'];
    const steps = transformedSteps(values, chainOf(['lowercase', 'removeNulls']));
    expect(steps).toBe(values);
    expect(transformedSteps(values, chainOf(['urlDecode']))).toEqual(['abc', 'abc', 'x%41', 'xA']);
  });

  it('skips none, and gives the value alone for no transformation', () => {
    expect(transformSteps([])('x')).toEqual(['x']);
    expect(transformSteps(['none', 'none'])('x')).toEqual(['x']);
    expect(transformSteps(['none', 'removeNulls'])('a\0')).toEqual(['a\0', 'a']);
  });
});
