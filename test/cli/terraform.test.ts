// biome-ignore-all lint/suspicious/noTemplateCurlyInString: Terraform interpolations in plain strings are what these tests are about
// `cfrules validate` and `cfrules fmt` on Terraform files: every rule expression found, checked for its
// resource's phase, reported at its line and column in the .tf file in every format; fmt rewrites only the
// expression strings.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runAwaited } from './in-process.js';
import { cfrules } from './run-binary.js';

/** Provider 4: nested `rules` blocks, one with a mistake, a heredoc, an interpolation. */
const provider4 = `resource "cloudflare_ruleset" "custom" {
  zone_id = var.zone_id
  name    = "custom"
  kind    = "zone"
  phase   = "http_request_firewall_custom"

  rules {
    action      = "block"
    expression  = "http.request.uri.path contains \\"/admin\\" and ip.src in {192.0.2.0/24}"
    description = "admin"
  }
  rules {
    action     = "block"
    expression = "http.host eq \\"caf\\u00e9\\" and http.hots eq \\"x\\""
    ref        = "typo"
  }
  rules {
    action     = "log"
    expression = <<-EOT
      http.host eq "example.com"
        and ip.geoip.country  in {"CN"}
    EOT
  }
  rules {
    action     = "log"
    expression = "http.host eq \\"\${var.host}\\""
  }
}
`;

/** Provider 5: a list of objects; a filter, checked as firewall rules are. */
const provider5 = `resource "cloudflare_ruleset" "limits" {
  zone_id = var.zone_id
  phase   = "http_ratelimit"
  rules = [
    {
      ref        = "login"
      expression = "(http.request.uri.path eq \\"/login\\")"
      action     = "block"
    },
    {
      "expression" = "ip.src eq 192.0.2.1"
      action       = "block"
    },
  ]
}

resource "cloudflare_filter" "old" {
  zone_id     = var.zone_id
  description = "old filter"
  expression  = "http.request.uri.path matches \\"^/wp-\\""
}
`;

const files = () => ({ 'infra/main.tf': provider4, 'infra/limits/v5.tf': provider5 });

describe('cfrules validate on Terraform files', () => {
  it('finds every expression in a directory, sorted, and reports each finding at its .tf line and column', async () => {
    const result = await runAwaited(['validate', 'infra'], files());
    expect(result.code).toBe(1);
    const lines = result.stdout.split('\n');
    // infra/limits/ sorts before infra/main.tf; a finding points at its characters in the file.
    expect(lines.filter((line) => /^infra\//.test(line))).toEqual([
      'infra/main.tf:14:50: error[unknown-identifier] (rule cloudflare_ruleset.custom.rules[1])',
      'infra/main.tf:21:13: warning[deprecated-field] (rule cloudflare_ruleset.custom.rules[2])',
      'infra/main.tf:26:18: warning[unchecked-expression] (rule cloudflare_ruleset.custom.rules[3])',
    ]);
    expect(provider4.split('\n')[13]?.slice(49, 58)).toBe('http.hots');
    expect(provider4.split('\n')[20]?.slice(12, 28)).toBe('ip.geoip.country');
    // Cloudflare's text shows the expression as Cloudflare gets it: HCL's escapes undone.
    expect(result.stdout).toContain(
      'Filter parsing error (1:26):\nhttp.host eq "café" and http.hots eq "x"\n',
    );
    expect(result.stdout).toContain('Filter warning (2:7):\n  and ip.geoip.country  in {"CN"}\n');
    expect(lines.at(-2)).toBe('7 expressions checked: 5 valid, 1 invalid, 1 unchecked, 2 warnings');
  });

  it("checks each expression for its resource's phase and the --plan", async () => {
    // matches needs Business; a rate-limit rule and a filter are checked where they run.
    const result = await runAwaited(
      ['validate', '--format', 'json', '--plan', 'pro', 'infra/limits'],
      files(),
    );
    const json = JSON.parse(result.stdout);
    expect(result.code).toBe(1);
    expect(
      json.results.map((r: { rule: string; phase: string; ok: boolean }) => [r.rule, r.phase, r.ok]),
    ).toEqual([
      ['cloudflare_ruleset.limits.rules[0]', 'http_ratelimit', true],
      ['cloudflare_ruleset.limits.rules[1]', 'http_ratelimit', true],
      ['cloudflare_filter.old', 'firewall_rules', false],
    ]);
    const filter = json.results[2];
    expect(filter).toMatchObject({ item: 'filter', description: 'old filter', line: 20, column: 18 });
    expect(filter.diagnostics[0]).toMatchObject({ line: 20, column: 40, severity: 'error' });
  });

  it('counts what Terraform computes as unchecked, with a warning at its position, in JSON', async () => {
    const result = await runAwaited(['validate', '--format', 'json', 'infra/main.tf'], files());
    const json = JSON.parse(result.stdout);
    expect(json.summary).toMatchObject({ expressions: 4, valid: 2, invalid: 1, unchecked: 1, warnings: 2 });
    const unchecked = json.results[3];
    expect(unchecked).toMatchObject({
      unchecked: true,
      ok: true,
      expression: '"http.host eq \\"${var.host}\\""',
      line: 26,
      column: 18,
    });
    expect(unchecked.diagnostics).toEqual([
      expect.objectContaining({ severity: 'warning', code: 'unchecked-expression', line: 26, column: 18 }),
    ]);
    // --max-warnings counts it, --quiet hides it.
    expect(
      (await runAwaited(['validate', '--max-warnings', '1', '-f', 'infra/limits/v5.tf'], files())).code,
    ).toBe(0);
    const quiet = await runAwaited(['validate', '-q', 'infra/main.tf'], files());
    expect(quiet.stdout).not.toContain('unchecked-expression');
  });

  it('says where a .tf file is not valid HCL, with a code, as a usage error in the format asked for', async () => {
    const broken = {
      'bad.tf': 'resource "cloudflare_filter" "f" {\n  expression = "ip.src eq 1 and \\d"\n}\n',
    };
    const text = await runAwaited(['validate', 'bad.tf'], broken);
    expect(text.code).toBe(2);
    expect(text.stderr).toContain(
      'bad.tf:2:33: error[hcl-syntax]: bad.tf is not valid HCL: invalid escape sequence \\d',
    );
    expect(text.stderr).not.toMatch(/\n\s+at /); // no stack trace
    const github = await runAwaited(['validate', '--format', 'github', 'bad.tf'], broken);
    expect(github.stdout).toMatch(/^::error file=bad\.tf,line=2,col=33,title=cfrules validate::/);
    const unclosed = await runAwaited(['validate', '--format', 'json', 'x.tf'], {
      'x.tf': 'resource "cloudflare_filter" "f" {\n  expression = "ip.src eq 1\n}\n',
    });
    expect(JSON.parse(unclosed.stdout).error).toMatchObject({
      code: 'hcl-syntax',
      file: 'x.tf',
      line: 2,
      column: 16,
    });
  });

  it('takes a .tf file without rules for what it is, not an empty input', async () => {
    const inputs = { 'infra/variables.tf': 'variable "zone_id" {\n  type = string\n}\n', ...files() };
    const result = await runAwaited(['validate', '--files', 'infra/variables.tf'], inputs);
    expect(result).toMatchObject({
      code: 0,
      stdout: '0 expressions checked: 0 valid, 0 invalid, 0 warnings\n',
    });
    const directory = await runAwaited(['validate', 'infra'], inputs);
    expect(directory.stdout).not.toContain('empty-input');
  });

  it('reads .cfrules files one expression per line, and --files reads every argument as a file', async () => {
    const inputs = {
      'rules.cfrules': '# comment\n\nhttp.host eq "a"\nhttp.hots eq "b"\n',
      'rules.json': JSON.stringify([{ id: 'f1', expression: 'ssl' }]),
    };
    const result = await runAwaited(['validate', 'rules.cfrules'], inputs);
    expect(result.stdout).toContain('rules.cfrules:4:1: error[unknown-identifier]');
    expect(result.stdout).toContain('2 expressions checked: 1 valid, 1 invalid');
    const hook = await runAwaited(['validate', '--files', 'rules.json', 'rules.cfrules'], inputs);
    expect(hook.stdout).toContain('3 expressions checked: 2 valid, 1 invalid');
  });
});

describe('cfrules validate on Terraform files, as the built command', { timeout: 60_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'cfrules-tf-'));
  writeFileSync(join(dir, 'main.tf'), provider4);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reports at the .tf position in GitHub annotations and SARIF', async () => {
    const github = await cfrules(['validate', '--format', 'github', 'main.tf'], { cwd: dir });
    expect(github.code).toBe(1);
    expect(github.stdout).toContain(
      '::error file=main.tf,line=14,col=50,endLine=14,endColumn=59,title=cfrules unknown-identifier::rule cloudflare_ruleset.custom.rules[1]: unknown identifier',
    );
    expect(github.stdout).toContain('::warning file=main.tf,line=26,col=18,');
    const sarif = JSON.parse(
      (await cfrules(['validate', '--format', 'sarif', 'main.tf'], { cwd: dir })).stdout,
    );
    const results = sarif.runs[0].results;
    expect(results.map((r: { ruleId: string }) => r.ruleId)).toEqual([
      'unknown-identifier',
      'deprecated-field',
      'unchecked-expression',
    ]);
    expect(results[0].locations[0].physicalLocation).toEqual({
      artifactLocation: { uri: 'main.tf', uriBaseId: '%SRCROOT%' },
      region: { startLine: 14, startColumn: 50, endLine: 14, endColumn: 59 },
    });
  });
});

describe('cfrules fmt on Terraform files', () => {
  const clean = provider4.replace('http.hots', 'http.host');

  it('--check names each expression that is not canonical and exits 1; -w rewrites only those strings', async () => {
    const inputs: Record<string, string> = { 'main.tf': clean, 'v5.tf': provider5 };
    const check = await runAwaited(['fmt', '--check', 'main.tf', 'v5.tf'], inputs);
    expect(check.code).toBe(1);
    expect(check.stderr).toBe(
      'main.tf:20:7: not formatted (rule cloudflare_ruleset.custom.rules[2])\n' +
        'v5.tf:7:21: not formatted (rule cloudflare_ruleset.limits.rules[0])\n',
    );
    const write = await runAwaited(['fmt', '-w', 'main.tf', 'v5.tf'], inputs);
    expect(write.code).toBe(0);
    // Everything but the expressions is byte for byte what it was: the heredoc keeps its markers and
    // indentation, the quoted string its quotes, the \u escape of the unchanged string stays.
    expect(inputs['main.tf']).toBe(
      clean.replace(
        '      http.host eq "example.com"\n        and ip.geoip.country  in {"CN"}\n',
        '      http.host eq "example.com" and ip.geoip.country in {"CN"}\n',
      ),
    );
    expect(inputs['v5.tf']).toBe(
      provider5.replace(
        '"(http.request.uri.path eq \\"/login\\")"',
        '"http.request.uri.path eq \\"/login\\""',
      ),
    );
    expect((await runAwaited(['fmt', '--check', 'main.tf', 'v5.tf'], inputs)).code).toBe(0);
  });

  it('re-encodes the canonical expression for the string form it is in', async () => {
    const before = 'expression = "http.host  eq \\"a\\\\\\\\b\\" and http.request.uri.path  eq \\"/$${\\""';
    const after = 'expression = "http.host eq \\"a\\\\\\\\b\\" and http.request.uri.path eq \\"/$${\\""';
    const inputs: Record<string, string> = { 'a.tf': `resource "cloudflare_filter" "f" {\n  ${before}\n}\n` };
    const json = JSON.parse(
      (await runAwaited(['validate', '--format', 'json', 'a.tf'], { ...inputs })).stdout,
    );
    expect(json.results[0].expression).toBe('http.host  eq "a\\\\b" and http.request.uri.path  eq "/${"');
    await runAwaited(['fmt', '-w', 'a.tf'], inputs);
    expect(inputs['a.tf']).toBe(`resource "cloudflare_filter" "f" {\n  ${after}\n}\n`);
  });
});

describe('the example Terraform configuration', { timeout: 60_000 }, () => {
  it('validates, with the warnings the docs show', async () => {
    const result = await cfrules(['validate', '--plan', 'business', 'examples/terraform']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('4 expressions checked: 3 valid, 0 invalid, 1 unchecked, 2 warnings');
    expect(readFileSync('examples/terraform/rulesets.tf', 'utf8')).toContain('cloudflare_ruleset');
  });
});
