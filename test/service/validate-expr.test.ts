import { describe, expect, it } from 'vitest';
import { CODES, ServiceError } from '../../src/service/errors.js';
import { type ExpressionRequest, validateExpression } from '../../src/service/validate-expr.js';
import { failure, setup } from './fixtures.js';

/** The request of the POST form for this expression (any JSON value). */
const posted = (expression: unknown): ExpressionRequest => ({ body: { expression } });

/** The single error `validateExpression` throws for this expression, or this request. */
function messageOf(input: unknown): { code: number; message: string; source?: { pointer: string } } {
  const request =
    typeof input === 'object' && input !== null && 'queryString' in input ? input : posted(input);
  try {
    validateExpression(request as ExpressionRequest);
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    expect(error.kind).toBe('bad-request');
    expect(error.errors).toHaveLength(1);
    return error.errors[0] as { code: number; message: string };
  }
  throw new Error('expected a ServiceError');
}

describe('validateExpression', () => {
  it('accepts a valid expression', () => {
    expect(() =>
      validateExpression(posted('ip.src eq 192.0.2.1 and http.host eq "example.com"')),
    ).not.toThrow();
  });

  it('applies the Enterprise plan: matches is available', () => {
    expect(() => validateExpression(posted('http.request.uri.path matches "^/admin"'))).not.toThrow();
  });

  it("renders Cloudflare's documented response for ip.src==34 exactly", () => {
    expect(messageOf('ip.src==34')).toEqual({
      code: CODES.invalidFilter,
      message:
        "Filter parsing error:\n`ip.src==34`\n          ^^ couldn't parse address in network: invalid IP address syntax\n",
    });
  });

  it('puts the carets under the offending text as the documented CIDR example does', () => {
    const expression = 'ip.src in {2400:cb00::/32 2405:8100::/2000 2c0f:f248::/32 2a06:98c0::/29}';
    const [, line, carets] = messageOf(expression).message.split('\n');
    expect(line).toBe(`\`${expression}\``);
    expect(carets?.indexOf('^')).toBe(40);
    expect(carets).toMatch(/^ {40}\^{4} /);
  });

  it('counts UTF-8 bytes before the carets', () => {
    // "é" is two bytes: the unknown name starts at byte 22 (character 21).
    const { message } = messageOf('http.host eq "é" and nope');
    const [, line, carets] = message.split('\n');
    expect(line).toBe('`http.host eq "é" and nope`');
    expect(carets).toBe(`${' '.repeat(22 + 2)}^^^^ unknown identifier`);
  });

  it('shows a multi-line expression on one line, keeping the carets aligned', () => {
    const { message } = messageOf('ip.src eq 192.0.2.1\nand nope');
    expect(message).toBe(
      `Filter parsing error:\n\`ip.src eq 192.0.2.1 and nope\`\n${' '.repeat(26)}^^^^ unknown identifier\n`,
    );
  });

  it.each<[unknown, string]>([
    [undefined, 'expression is required: a non-empty string'],
    [null, 'expression is required: a non-empty string'],
    ['', 'expression is required: a non-empty string'],
    [42, 'expression must be a string'],
    [['ip.src eq 192.0.2.1'], 'expression must be a string'],
    ['http.host eq "\ud800"', 'expression must be valid Unicode text (it has a lone surrogate)'],
  ])('refuses the expression %j as filter creation does', async (expression, message) => {
    const expected = { code: CODES.invalidFilter, message, source: { pointer: '/expression' } };
    expect(messageOf(expression)).toEqual(expected);
    // The same object, created as a filter: the same error, at the same place.
    const { zone, filters } = await setup();
    expect((await failure(() => filters.create(zone, { expression }))).errors).toEqual([expected]);
  });

  it('refuses a body that is not an object', () => {
    expect(() => validateExpression({ body: 'ip.src eq 192.0.2.1' })).toThrow(
      'the request body must be a JSON object',
    );
  });
});

describe('validateExpression, GET form: the query value decoded strictly', () => {
  const query = (queryString: string): ExpressionRequest => ({ queryString });

  it('checks the decoded text: %20 and + are spaces, escapes of UTF-8 bytes are characters', () => {
    expect(() => validateExpression(query('expression=http.host%20eq+%22%C3%A9.example%22'))).not.toThrow();
    // The carets point into the decoded expression: under `nope`, after `"é" and ` (é is 2 bytes).
    const { message } = messageOf(query('expression=http.host%20eq%20%22%C3%A9%22%20and%20nope'));
    expect(message).toBe(
      `Filter parsing error:\n\`http.host eq "é" and nope\`\n${' '.repeat(22 + 2)}^^^^ unknown identifier\n`,
    );
  });

  it('finds the parameter among others, with its name encoded or not', () => {
    expect(() => validateExpression(query('x=%zz&expression=ssl'))).not.toThrow();
    expect(() => validateExpression(query('expr%65ssion=ssl'))).not.toThrow();
  });

  it.each<[string, string]>([
    [
      'expression=http.host%20eq%20%22a%zz%22',
      'expression is not valid percent-encoding: "%zz" at character 22 of the query value is not "%" and two hexadecimal digits (send "%" itself as %25)',
    ],
    [
      'expression=ssl%2',
      'expression is not valid percent-encoding: "%2" at character 4 of the query value is not "%" and two hexadecimal digits (send "%" itself as %25)',
    ],
    [
      // A UTF-16 surrogate (U+D800) in UTF-8 form: the GET form's way of sending a lone surrogate.
      'expression=http.host%20eq%20%22%ED%A0%80%22',
      'expression is not valid percent-encoding: "%ED%A0%80" at character 21 of the query value is not UTF-8',
    ],
    [
      'expression=http.host+eq+%22%FF%22',
      'expression is not valid percent-encoding: "%FF" at character 17 of the query value is not UTF-8',
    ],
    [
      'expression=http.host+eq+%22%C3%22',
      'expression is not valid percent-encoding: "%C3" at character 17 of the query value is not UTF-8',
    ],
  ])('refuses %s, saying where it does not decode, rather than check it raw', (queryString, message) => {
    expect(messageOf(query(queryString))).toEqual({ code: CODES.invalidFilter, message });
  });

  it.each<[string, string]>([
    ['', 'expression is required: a non-empty string'],
    ['expression=', 'expression is required: a non-empty string'],
    ['expression', 'expression is required: a non-empty string'],
    ['expression=ssl&expression=ssl', 'expression must be given at most once'],
  ])('refuses the query %j', (queryString, message) => {
    expect(messageOf(query(queryString))).toEqual({ code: CODES.invalidFilter, message });
  });
});
