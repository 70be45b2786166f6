// biome-ignore-all lint/suspicious/noTemplateCurlyInString: Terraform interpolations in plain strings are what these tests are about
// Finding the rule expressions of Terraform files (src/terraform/expressions.ts).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readTerraform } from '../../src/terraform/expressions.js';
import { loadHclParser } from '../../src/terraform/parser.js';
import { quotedBody } from '../../src/terraform/strings.js';

const parser = await loadHclParser();
const read = (text: string) => readTerraform(parser, text);

describe('the expressions of a Terraform file', () => {
  it('finds dynamic rules blocks, and reports a rules list Terraform computes as one unchecked expression', () => {
    const file = read(`resource "cloudflare_ruleset" "a" {
  phase = "http_request_firewall_custom"
  dynamic "rules" {
    for_each = var.rules
    content {
      expression = rules.value.expression
      action     = "block"
    }
  }
}
resource "cloudflare_ruleset" "b" {
  phase = var.phase
  rules = var.rules
}
resource "cloudflare_ruleset" "c" {
  phase = "http_ratelimit"
  rules = [var.rule, { expression = lower("X") }]
}
resource "aws_instance" "ignored" {
  expression = "not ours"
}
`);
    expect(file.problem).toBeUndefined();
    expect(
      file.expressions.map(({ address, rule, phase, literal, source }) => [
        address,
        rule,
        phase,
        literal === undefined,
        source,
      ]),
    ).toEqual([
      ['cloudflare_ruleset.a', 'rules[0]', 'http_request_firewall_custom', true, 'rules.value.expression'],
      ['cloudflare_ruleset.b', 'rules', undefined, true, 'var.rules'],
      ['cloudflare_ruleset.c', 'rules[0]', 'http_ratelimit', true, 'var.rule'],
      ['cloudflare_ruleset.c', 'rules[1]', 'http_ratelimit', true, 'lower("X")'],
    ]);
  });

  it('reads heredocs, indented or not, with CRLF line breaks, and maps positions after a byte order mark', () => {
    const text =
      '\uFEFFresource "cloudflare_filter" "f" {\r\n  expression = <<EOT\r\nhttp.host eq "é"\r\nEOT\r\n}\r\n' +
      'resource "cloudflare_filter" "g" {\n  expression = <<-X\n      ip.src eq 192.0.2.1\n        and ssl\n    X\n}\n';
    const [f, g] = read(text).expressions;
    expect(f?.literal?.expression).toBe('http.host eq "é"');
    expect(read(text).position(f?.literal?.toFile(0) ?? 0)).toEqual({ line: 3, column: 1 });
    expect(g?.literal?.expression).toBe('ip.src eq 192.0.2.1\n  and ssl');
    const position = read(text).position;
    const ssl = g?.literal?.expression.indexOf('ssl') ?? 0;
    expect(position(g?.literal?.toFile(ssl) ?? 0)).toEqual({ line: 9, column: 13 });
    // Both ways: the file's offset of `ssl` is the expression's.
    expect(g?.literal?.fromFile(text.indexOf('ssl'))).toBe(ssl);
    // Line 1 counts its columns after the byte order mark, as for every other file.
    expect(position(1)).toEqual({ line: 1, column: 1 });
  });

  it('maps every offset of any quoted expression to its place in the file and back', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 30 }),
        fc.string({ unit: 'grapheme', maxLength: 6 }),
        (value, noise) => {
          const comment = noise.replace(/[\r\n]/g, ' ');
          const text = `# ${comment}\nresource "cloudflare_filter" "f" {\n  expression = "${quotedBody(value)}"\n}\n`;
          const file = read(text);
          expect(file.problem).toBeUndefined();
          const literal = file.expressions[0]?.literal;
          expect(literal?.expression).toBe(value);
          if (!literal) return;
          for (let i = 0; i <= value.length; i++) expect(literal.fromFile(literal.toFile(i))).toBe(i);
          expect(text.slice(literal.toFile(0) - 1, literal.toFile(value.length) + 1)).toBe(
            `"${quotedBody(value)}"`,
          );
        },
      ),
      { numRuns: 300 },
    );
  });

  it('reports the first syntax error at the construct that is not closed', () => {
    const problem = read('resource "cloudflare_ruleset" "a" {\n  rules {\n    expression = "x"\n').problem;
    expect(problem).toMatchObject({ code: 'hcl-syntax', position: { line: 2, column: 3 } });
    expect(problem?.message).toBe('a block is not closed: } is missing');
  });
});
