// biome-ignore-all lint/suspicious/noTemplateCurlyInString: Terraform interpolations in plain strings are what these tests are about
// Finding the rule expressions of Terraform files (src/terraform/expressions.ts).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readTerraform, TerraformDocument } from '../../src/terraform/expressions.js';
import { loadHclParser } from '../../src/terraform/parser.js';
import { quotedBody } from '../../src/terraform/strings.js';

const parser = await loadHclParser();
const read = (text: string) => readTerraform(parser, text);

/** Rewrite expressions: provider 4's blocks, provider 5's objects (headers a map of objects). */
const REWRITES = `resource "cloudflare_ruleset" "v4" {
  phase = "http_request_transform"
  rules {
    action     = "rewrite"
    expression = "http.host eq \\"a\\""
    action_parameters {
      uri {
        path {
          expression = "concat(\\"/new\\", http.request.uri.path)"
        }
      }
    }
  }
  rules {
    action     = "rewrite"
    expression = "true"
    action_parameters {
      headers {
        name       = "x-one"
        operation  = "set"
        expression = "cf.zone.nam"
      }
    }
  }
}
resource "cloudflare_ruleset" "v5" {
  phase = "http_request_late_transform"
  rules = [{
    action     = "rewrite"
    expression = "true"
    action_parameters = {
      headers = {
        "x-two" = { operation = "set", expression = "to_string(ip.src)" }
      }
    }
  }, {
    action     = "redirect"
    expression = "true"
    action_parameters = { from_value = { target_url = { expression = "concat(\\"https://x\\", http.request.uri.path)" } } }
  }]
}
`;

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

  it('finds the rewrite expressions of URL rewrites, header changes and redirects, as blocks or objects', () => {
    const file = read(REWRITES);
    expect(file.problem).toBeUndefined();
    expect(
      file.expressions.map(({ rule, kind, field, literal }) => [
        rule,
        kind ?? 'filter',
        field ?? 'expression',
        literal?.expression,
      ]),
    ).toEqual([
      ['rules[0]', 'filter', 'expression', 'http.host eq "a"'],
      [
        'rules[0]',
        'rewrite',
        'action_parameters.uri.path.expression',
        'concat("/new", http.request.uri.path)',
      ],
      ['rules[1]', 'filter', 'expression', 'true'],
      ['rules[1]', 'rewrite', 'action_parameters.headers.x-one.expression', 'cf.zone.nam'],
      ['rules[0]', 'filter', 'expression', 'true'],
      ['rules[0]', 'rewrite', 'action_parameters.headers.x-two.expression', 'to_string(ip.src)'],
      ['rules[1]', 'filter', 'expression', 'true'],
      [
        'rules[1]',
        'rewrite',
        'action_parameters.from_value.target_url.expression',
        'concat("https://x", http.request.uri.path)',
      ],
    ]);
  });

  it('reports the first syntax error at the construct that is not closed', () => {
    const problem = read('resource "cloudflare_ruleset" "a" {\n  rules {\n    expression = "x"\n').problem;
    expect(problem).toMatchObject({ code: 'hcl-syntax', position: { line: 2, column: 3 } });
    expect(problem?.message).toBe('a block is not closed: } is missing');
  });
});

describe('a Terraform file being edited (TerraformDocument: each version parsed from the tree of the one before)', () => {
  const START = `resource "cloudflare_ruleset" "custom" {
  phase = "http_request_firewall_custom"
  rules = [{
    action     = "block"
    expression = "http.host eq \\"caf\\u00e9\\" and ssl"
  }, {
    action     = "log"
    expression = <<-EOT
      http.request.uri.path eq "/a"
    EOT
  }]
}
resource "cloudflare_filter" "old" {
  expression = "\${var.x}"
}
`;
  /** What a reading finds, in a form that compares. */
  const found = (file: ReturnType<typeof read>) => ({
    expressions: file.expressions.map(({ address, rule, phase, start, end, source, literal }) => ({
      address,
      rule,
      phase,
      start,
      end,
      source,
      expression: literal?.expression,
      mapped: literal && [0, literal.expression.length].map(literal.toFile),
    })),
    problem: file.problem,
  });

  it('finds after every edit what a reading of the whole new text finds', () => {
    const edit = fc.record({
      at: fc.nat(),
      remove: fc.nat({ max: 6 }),
      insert: fc.string({
        unit: fc.constantFrom('a', ' ', '"', '\\', '\n', '{', '}', '=', '$', 'é', '#'),
        maxLength: 4,
      }),
    });
    fc.assert(
      fc.property(fc.array(edit, { minLength: 1, maxLength: 12 }), (edits) => {
        const document = new TerraformDocument(parser);
        let text = START;
        try {
          expect(found(document.read(text))).toEqual(found(read(text)));
          for (const { at, remove, insert } of edits) {
            const from = at % (text.length + 1);
            text = text.slice(0, from) + insert + text.slice(Math.min(text.length, from + remove));
            expect(found(document.read(text))).toEqual(found(read(text)));
          }
        } finally {
          document.dispose();
        }
      }),
      { numRuns: 150 },
    );
  });
});
