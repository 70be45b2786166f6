import { describe, expect, it } from 'vitest';
import { CODES, ServiceError } from '../../src/service/errors.js';
import { validateExpression } from '../../src/service/validate-expr.js';

/** The single error message `validateExpression` throws for this input. */
function messageOf(expression: unknown): { code: number; message: string } {
  try {
    validateExpression(expression);
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
    expect(() => validateExpression('ip.src eq 192.0.2.1 and http.host eq "example.com"')).not.toThrow();
  });

  it('applies the Enterprise plan: matches is available', () => {
    expect(() => validateExpression('http.request.uri.path matches "^/admin"')).not.toThrow();
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

  it('refuses an empty expression with the parser text', () => {
    expect(messageOf('').message).toMatch(/^Filter parsing error:\n``\n {2}\^ /);
  });

  it.each([undefined, null, 42, ['ip.src eq 192.0.2.1'], { expression: 'x' }])(
    'requires a string expression (%j)',
    (value) => {
      expect(messageOf(value)).toEqual({ code: CODES.invalidFilter, message: 'expression is required' });
    },
  );
});
