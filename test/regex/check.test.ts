/**
 * The `matches` pattern check. Expected texts are the reference engine's (regex-syntax 0.8 in byte mode).
 *
 * Documented differences from the reference (see the header of src/regex/check.ts):
 * - `unsupported` problems are patterns Cloudflare accepts but RE2 (cfrules' engine) cannot run as written:
 *   class set operations and negated nested classes, `\b{start}`-style and `\<` `\>` boundaries, `(?R)`,
 *   counted repetitions above 1000 (also as nested products), property names RE2 does not know, and
 *   patterns too large for re2-wasm's 16 MiB heap.
 * - Unicode property names are judged by RE2, so a name Rust knows but RE2 does not (`\p{Alphabetic}`,
 *   `\p{greek}`) is `unsupported` rather than accepted.
 * - The compiled size is an estimate of regex-automata's NFA; exact near the limit only for byte-mode
 *   patterns.
 * - `(?u)`, `(?x)`, `\U…`/`\u…` escapes, named groups, `a{ 2 }` and `a**` are translated for RE2.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkRegex, REGEX_SIZE_LIMIT, toRe2Pattern } from '../../src/regex/check.js';

/** The binary string the lexer hands over for a pattern written in the expression's text. */
const bytes = (text: string): string => String.fromCharCode(...new TextEncoder().encode(text));

const messageOf = (pattern: string) => checkRegex(bytes(pattern))?.message;

/** regex-syntax's layout for a one-line pattern. */
const syntaxError = (pattern: string, carets: string, description: string) =>
  `regex parse error:\n    ${pattern}\n    ${carets}\nerror: ${description}`;

describe('checkRegex: syntax errors, as regex-syntax reports them', () => {
  it('reproduces the reference example for an unclosed group', () => {
    expect(checkRegex('(')).toEqual({
      kind: 'invalid',
      message: 'regex parse error:\n    (\n    ^\nerror: unclosed group',
    });
  });

  const cases: [pattern: string, carets: string, description: string][] = [
    // Groups: the innermost unclosed `(` is pointed at.
    ['(a(b', '  ^', 'unclosed group'],
    ['((a)', '^', 'unclosed group'],
    ['(?', '^', 'unclosed group'],
    ['a)', ' ^', 'unopened group'],
    ['a|b)', '   ^', 'unopened group'],
    // Classes: the opening bracket (with `^` and a leading `]`) is pointed at.
    ['[a', '^', 'unclosed character class'],
    ['[^]a', '^^^', 'unclosed character class'],
    ['ab[cd[e]', '  ^', 'unclosed character class'],
    ['[z-a]', ' ^^^', 'invalid character class range, the start must be <= the end'],
    ['[\\d-z]', ' ^^', 'invalid range boundary, must be a literal'],
    ['[a-\\w]', '   ^^', 'invalid range boundary, must be a literal'],
    ['[\\b]', ' ^^', 'invalid escape sequence found in character class'],
    // Repetitions.
    ['*', '^', 'repetition operator missing expression'],
    ['a|+', '  ^', 'repetition operator missing expression'],
    ['(?i)*', '    ^', 'repetition operator missing expression'],
    ['(?)', ' ^', 'repetition operator missing expression'],
    ['a{2,1}', ' ^^^^^', 'invalid repetition count range, the start must be <= the end'],
    ['a{}', '  ^', 'repetition quantifier expects a valid decimal'],
    ['a{,5}', '  ^', 'repetition quantifier expects a valid decimal'],
    ['\\\\u{[^}]*}', '    ^', 'repetition quantifier expects a valid decimal'],
    ['a{4294967296}', '  ^^^^^^^^^^', 'decimal literal invalid'],
    ['a{5', ' ^^', 'unclosed counted repetition'],
    ['a{5,', ' ^^^', 'unclosed counted repetition'],
    // Escapes.
    ['\\q', '^^', 'unrecognized escape sequence'],
    ['ab\\', '  ^', 'incomplete escape sequence, reached end of pattern prematurely'],
    ['\\1', '^^', 'backreferences are not supported'],
    ['(a)\\9', '   ^^', 'backreferences are not supported'],
    ['\\xZ1', '  ^', 'invalid hexadecimal digit'],
    ['\\x4', '   ^', 'incomplete escape sequence, reached end of pattern prematurely'],
    ['\\x{}', '  ^^', 'hexadecimal literal empty'],
    ['\\x{110000}', '   ^^^^^^', 'hexadecimal literal is not a Unicode scalar value'],
    ['\\p{L', '    ^', 'incomplete escape sequence, reached end of pattern prematurely'],
    ['\\p\\', '  ^', 'invalid Unicode character class'],
    [
      '\\b{foo}',
      '   ^^^',
      'unrecognized special word boundary assertion, valid choices are: start, end, start-half or end-half',
    ],
    [
      '\\b{foo',
      '  ^^^^',
      'special word boundary assertion is either unclosed or contains an invalid character',
    ],
    // Look-around.
    ['(?=a)', '^^^', 'look-around, including look-ahead and look-behind, is not supported'],
    ['x(?<!a)', ' ^^^^', 'look-around, including look-ahead and look-behind, is not supported'],
    // Flags.
    ['(?z)', '  ^', 'unrecognized flag'],
    ['(?i', '   ^', 'expected flag but got end of regex'],
    ['(?i-)', '   ^', 'dangling flag negation operator'],
    // Capture names.
    ['(?P<1a>x)', '    ^', 'invalid capture group character'],
    ['(?<a-b>x)', '    ^', 'invalid capture group character'],
    ['(?P<>a)', '    ^', 'empty capture group name'],
    ['(?P<a', '     ^', 'unclosed capture group name'],
  ];
  it.each(cases)('%s', (pattern, carets, description) => {
    expect(messageOf(pattern)).toBe(syntaxError(pattern, carets, description));
  });

  it('points at both places for duplicates', () => {
    expect(messageOf('(?ii)')).toBe(syntaxError('(?ii)', '  ^^', 'duplicate flag'));
    expect(messageOf('(?-i-s)')).toBe(syntaxError('(?-i-s)', '  ^ ^', 'flag negation operator repeated'));
    expect(messageOf('(?P<n>a)(?P<n>b)')).toBe(
      syntaxError('(?P<n>a)(?P<n>b)', '    ^       ^', 'duplicate capture group name'),
    );
  });

  it('reports more than 250 nested groups, at the innermost one', () => {
    const pattern = `${'('.repeat(251)}a${')'.repeat(251)}`;
    expect(messageOf(pattern)).toBe(
      syntaxError(
        pattern,
        `${' '.repeat(250)}^^^`,
        'exceed the maximum number of nested parentheses/brackets (250)',
      ),
    );
    expect(checkRegex(`${'('.repeat(250)}a${')'.repeat(250)}`)).toBeUndefined();
  });

  it('rejects Unicode where the byte-mode engine cannot express it, unless (?u) is on', () => {
    const unicodeNotAllowed = 'Unicode not allowed here';
    expect(messageOf('\\pL')).toBe(syntaxError('\\pL', '^^^', unicodeNotAllowed));
    expect(messageOf('[a\u00e9]')).toBe(syntaxError('[a\u00e9]', '  ^', unicodeNotAllowed));
    // Outside a class, a non-ASCII character (however it is written) matches its UTF-8 bytes.
    expect(checkRegex(bytes('caf\u00e9'))).toBeUndefined();
    expect(checkRegex(bytes('(?i)caf\u00e9'))).toBeUndefined();
    expect(checkRegex('\\x{e9}')).toBeUndefined();
    expect(checkRegex('\\u00e9')).toBeUndefined();
    expect(messageOf('(?u:\\pL)\\pL')).toBe(syntaxError('(?u:\\pL)\\pL', '        ^^^', unicodeNotAllowed));
    // A two-digit \xHH is a raw byte in byte mode.
    expect(checkRegex('\\xFF')).toBeUndefined();
    expect(checkRegex(bytes('(?u)caf\u00e9'))).toBeUndefined();
    expect(checkRegex(bytes('(?u)[\u00e9-\u00ff]'))).toBeUndefined();
  });

  it('counts columns in characters, not UTF-8 bytes', () => {
    expect(messageOf('(?u)\u00e9\u00e9(')).toBe(
      syntaxError('(?u)\u00e9\u00e9(', '      ^', 'unclosed group'),
    );
  });

  it('numbers the lines of a pattern with newlines', () => {
    expect(messageOf('ab\n[c\nd')).toBe(
      [
        'regex parse error:',
        '~'.repeat(79),
        '1: ab',
        '2: [c',
        '   ^',
        '3: d',
        '~'.repeat(79),
        'error: unclosed character class',
      ].join('\n'),
    );
  });

  it('follows verbose mode: whitespace and comments are skipped', () => {
    expect(checkRegex('(?x) a b # comment')).toBeUndefined();
    expect(messageOf('(?x)a  )')).toBe(syntaxError('(?x)a  )', '       ^', 'unopened group'));
  });
});

describe('checkRegex: valid patterns', () => {
  // From Cloudflare's documentation and rule examples.
  const valid = [
    '(?i)(googlebot|bingbot|yandex)/\\d+\\.\\d+',
    '^/api/v\\d+/',
    '(?u)\\p{Hangul}+',
    '\\\\',
    '^/(wp-admin|wp-login\\.php)',
    '(?i)^/(wp-admin|api/vN|static)/[a-z0-9_]+\\.(php|js)$',
    '\\.(?:jpg|jpeg|png|gif)$',
    '^[a-f0-9]{32}$',
    '[[:alpha:]][[:^digit:]]',
    '(?P<version>\\d+)',
    '(?<name>x)',
    '',
    'a**',
    'x{2}{3}',
    '\\b\\B\\A\\z^$',
    '[]a]',
    '[-a-]',
    '\\u0041\\x41\\x{41}',
    '(?x) a # comment',
    'a{ 2 , 3 }',
    '(?i-u:a)(?s).',
  ];
  it.each(valid)('%s', (pattern) => {
    expect(checkRegex(pattern)).toBeUndefined();
  });

  it('hands the evaluator an RE2 translation of what it checked', () => {
    expect(toRe2Pattern('(?u)\\p{Hangul}+')).toBe('\\p{Hangul}+');
    expect(toRe2Pattern('(?i)(googlebot|bingbot|yandex)/\\d+\\.\\d+')).toBe(
      '(?i)(googlebot|bingbot|yandex)/\\d+\\.\\d+',
    );
    expect(toRe2Pattern('(?x) a b # c')).toBe('ab');
    expect(toRe2Pattern('a{ 2 }')).toBe('a{2}');
    expect(toRe2Pattern('a**')).toBe('(?:a*)*');
    expect(toRe2Pattern('(?P<n>a)')).toBe('(a)');
    expect(toRe2Pattern('(?u)\\U0001F600')).toBe('\\x{1F600}');
    expect(toRe2Pattern('(')).toBeUndefined();
  });
});

describe('checkRegex: compiled size', () => {
  const tooBig = {
    kind: 'invalid',
    message: `Compiled regex exceeds size limit of ${REGEX_SIZE_LIMIT} bytes.`,
  };

  it('rejects patterns whose NFA would exceed 10 MiB', () => {
    expect(REGEX_SIZE_LIMIT).toBe(10485760);
    expect(checkRegex('.{0,100000}')).toEqual(tooBig);
    expect(checkRegex('a{1000000}')).toEqual(tooBig);
    expect(checkRegex('(?u)\\w{1000}')).toEqual(tooBig);
  });

  it('accepts large patterns below the limit', () => {
    expect(checkRegex('.{0,900}')).toBeUndefined();
    expect(checkRegex('[a-z]{1000}')).toBeUndefined();
  });

  it('does not inflate repetitions of empty matches', () => {
    expect(checkRegex('(?:\\b){1000}')).toBeUndefined();
  });
});

describe('checkRegex: patterns Cloudflare accepts but RE2 cannot run', () => {
  const cases: [pattern: string, carets: string, description: string][] = [
    ['[a-z&&[^aeiou]]', ' ^^^^^^^^^^^^^', 'class set operations are not supported by RE2'],
    ['[a[^b]]', '  ^^^^', 'negated classes inside a class are not supported by RE2'],
    ['\\b{start}x', '^^^^^^^^^', 'this word boundary assertion is not supported by RE2'],
    ['x\\>', ' ^^', 'this word boundary assertion is not supported by RE2'],
    ['(?R)a$', '  ^', 'CRLF mode (?R) is not supported by RE2'],
    [
      'a{1001}',
      ' ^^^^^^',
      'counted repetition above 1000 (nested counts multiplied) is not supported by RE2',
    ],
    [
      '(a{10}){101}',
      '       ^^^^^',
      'counted repetition above 1000 (nested counts multiplied) is not supported by RE2',
    ],
    [
      '(?u)\\p{Alphabetic}',
      '    ^^^^^^^^^^^^^^',
      'Unicode property not found (cfrules knows the general categories and scripts RE2 knows, such as \\pL, \\p{Lu} or \\p{Greek})',
    ],
    ['(?u)\\pL{40}', '^^^^^^^^^^^', 'pattern too large for RE2, the engine cfrules runs regexes with'],
  ];
  it.each(cases)('%s', (pattern, carets, description) => {
    expect(checkRegex(pattern)).toEqual({
      kind: 'unsupported',
      message: syntaxError(pattern, carets, description),
    });
  });

  it('accepts what RE2 can express by translation', () => {
    expect(checkRegex('[a[bc]]')).toBeUndefined();
    expect(checkRegex('(?u)\\p{sc=Greek}\\p{gc:Lu}\\p{lu}\\p{Any}')).toBeUndefined();
    expect(checkRegex('(a{10}){100}')).toBeUndefined();
  });
});

describe('checkRegex: RE2 resources', () => {
  it('frees every RE2 object: 20,000 distinct patterns fit in the 16 MiB heap', { timeout: 120_000 }, () => {
    // Without delete(), re2-wasm runs out of memory after about 7,600 compiles and is then unusable.
    for (let i = 0; i < 20_000; i++) {
      expect(checkRegex(`^/api/v${i}/(?P<id>[0-9]+)$`)).toBeUndefined();
    }
    expect(checkRegex('(?i)(googlebot|bingbot|yandex)/\\d+\\.\\d+ after the loop')).toBeUndefined();
    expect(checkRegex('(?u)\\p{Foo}')?.kind).toBe('unsupported');
  });

  it('never throws, and every message uses the reference layout', () => {
    const piece = fc.constantFrom(
      ...'ab()[]{}|*+?^$.\\-:,=<>!dDwWpPxubBAzQ0129iusxR &~#'.split(''),
      '\u00e9',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 16 }), (pieces) => {
        const problem = checkRegex(bytes(pieces.join('')));
        if (!problem) return;
        expect(['invalid', 'unsupported']).toContain(problem.kind);
        expect(problem.message).toMatch(
          /^regex parse error:\n[\s\S]*\nerror: .+$|^Compiled regex exceeds size limit/,
        );
      }),
      { numRuns: 500 },
    );
  });
});
