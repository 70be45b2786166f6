import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CodeActionRequest,
  CompletionRequest,
  type Diagnostic,
  DidChangeConfigurationNotification,
  DocumentFormattingRequest,
  HoverRequest,
  type MarkupContent,
  SemanticTokensRequest,
  SignatureHelpRequest,
  type TextEdit,
} from 'vscode-languageserver-protocol/node';
import { validate } from '../../src/check/validate.js';
import { startClient, type TestClient } from './client.js';

// The language server as an editor sees it: the built `cfrules lsp`, driven over JSON-RPC by a real LSP
// client (./client.ts). Positions are LSP's: 0-based lines, characters in UTF-16 code units.

/** Applies edits (non-overlapping) to a text, as an editor does. */
function applyEdits(text: string, edits: TextEdit[]): string {
  const lines = text.split('\n');
  const offset = (line: number, character: number) =>
    lines.slice(0, line).reduce((sum, l) => sum + l.length + 1, 0) + character;
  const sorted = [...edits].sort(
    (a, b) =>
      offset(b.range.start.line, b.range.start.character) -
      offset(a.range.start.line, a.range.start.character),
  );
  let out = text;
  for (const edit of sorted) {
    const from = offset(edit.range.start.line, edit.range.start.character);
    const to = offset(edit.range.end.line, edit.range.end.character);
    out = out.slice(0, from) + edit.newText + out.slice(to);
  }
  return out;
}

describe('cfrules lsp', () => {
  let client: TestClient;
  beforeAll(async () => {
    client = await startClient({});
  });
  afterAll(async () => {
    await client?.close();
  });

  it('initializes with the features it serves', () => {
    const { capabilities, serverInfo } = client.initialize;
    expect(serverInfo?.name).toBe('cfrules');
    expect(capabilities.completionProvider).toBeDefined();
    expect(capabilities.hoverProvider).toBe(true);
    expect(capabilities.signatureHelpProvider?.triggerCharacters).toContain('(');
    expect(capabilities.documentFormattingProvider).toBe(true);
    expect(capabilities.codeActionProvider).toBeDefined();
    expect(capabilities.semanticTokensProvider?.legend.tokenTypes).toContain('function');
  });

  it("reports Cloudflare's error at its UTF-16 range, after non-ASCII text", async () => {
    const uri = 'file:///work/rules.cfrules';
    const line = 'http.host eq "é😀" and http.hots eq "x"';
    await client.open(uri, 'cfrules', `# règles de sécurité\nssl\n${line}\n`);
    const { diagnostics } = await client.diagnostics(uri);
    const expected = validate(line).diagnostics[0];
    expect(diagnostics).toHaveLength(1);
    const [diagnostic] = diagnostics as [Diagnostic];
    expect(diagnostic.message).toBe(`${expected?.message}\nhint: ${expected?.hint}`);
    expect(String(diagnostic.message).split('\n')[0]).toBe('unknown identifier');
    expect(diagnostic.code).toBe('unknown-identifier');
    expect(diagnostic.source).toBe('cfrules');
    // `http.host eq "` is 14 code units, é one, 😀 two (its UTF-8 column, 27, is Cloudflare's).
    expect(diagnostic.range).toEqual({ start: { line: 2, character: 23 }, end: { line: 2, character: 32 } });
  });

  it('updates the diagnostics on each change', async () => {
    const uri = 'file:///work/change.cfrules';
    await client.open(uri, 'cfrules', 'http.host eq "a"');
    expect((await client.diagnostics(uri)).diagnostics).toEqual([]);
    await client.change(uri, 2, [
      { range: { start: { line: 0, character: 16 }, end: { line: 0, character: 16 } }, text: ' and' },
    ]);
    const broken = await client.diagnostics(uri, (p) => p.version === 2);
    expect(broken.diagnostics).toHaveLength(1);
    expect(broken.diagnostics[0]?.severity).toBe(1);
    await client.change(uri, 3, [
      { range: { start: { line: 0, character: 20 }, end: { line: 0, character: 20 } }, text: ' ssl' },
    ]);
    expect((await client.diagnostics(uri, (p) => p.version === 3)).diagnostics).toEqual([]);
  });

  it('checks again when the settings change', async () => {
    const uri = 'file:///work/settings.cfrules';
    await client.open(uri, 'cfrules', 'http.host matches "^www"');
    expect((await client.diagnostics(uri)).diagnostics).toEqual([]);
    await client.connection.sendNotification(DidChangeConfigurationNotification.type, {
      settings: { cfrules: { plan: 'free' } },
    });
    const { diagnostics } = await client.diagnostics(uri, (p) => p.diagnostics.length > 0);
    expect(diagnostics.map((d) => d.code)).toEqual(['matches-plan']);
    await client.connection.sendNotification(DidChangeConfigurationNotification.type, {
      settings: { cfrules: {} },
    });
    expect((await client.diagnostics(uri, (p) => p.diagnostics.length === 0)).diagnostics).toEqual([]);
  });

  it('completes field names after http.req', async () => {
    const uri = 'file:///work/complete.cfrules';
    await client.open(uri, 'cfrules', 'ssl and http.req');
    const list = await client.connection.sendRequest(CompletionRequest.type, {
      textDocument: { uri },
      position: { line: 0, character: 16 },
    });
    const items = Array.isArray(list) ? list : (list?.items ?? []);
    const path = items.find((item) => item.label === 'http.request.uri.path');
    expect(path?.detail).toBe('Bytes');
    expect(path?.textEdit).toEqual({
      range: { start: { line: 0, character: 8 }, end: { line: 0, character: 16 } },
      newText: 'http.request.uri.path',
    });
    const lower = items.find((item) => item.label === 'lower');
    expect(lower?.detail).toMatch(/^lower\(/);
    // Deprecated fields say so.
    expect(items.find((item) => item.label === 'ip.geoip.country')?.tags).toEqual([1]);
  });

  it('completes operators after an operand, and known values inside quotes', async () => {
    const uri = 'file:///work/values.cfrules';
    await client.open(uri, 'cfrules', 'http.request.method eq "P');
    const values = await client.connection.sendRequest(CompletionRequest.type, {
      textDocument: { uri },
      position: { line: 0, character: 25 },
    });
    const labels = (Array.isArray(values) ? values : (values?.items ?? [])).map((item) => item.label);
    expect(labels).toContain('POST');
    const operators = await client.connection.sendRequest(CompletionRequest.type, {
      textDocument: { uri },
      position: { line: 0, character: 20 },
    });
    const operatorLabels = (Array.isArray(operators) ? operators : (operators?.items ?? [])).map(
      (i) => i.label,
    );
    expect(operatorLabels).toContain('eq');
    expect(operatorLabels).not.toContain('http.host');
  });

  it('documents a field on hover', async () => {
    const uri = 'file:///work/hover.cfrules';
    await client.open(uri, 'cfrules', 'ip.geoip.country eq "FR"');
    const hover = await client.connection.sendRequest(HoverRequest.type, {
      textDocument: { uri },
      position: { line: 0, character: 4 },
    });
    const value = (hover?.contents as MarkupContent | undefined)?.value;
    expect(value).toContain('`ip.geoip.country`');
    expect(value).toContain('deprecated: use ip.src.country');
    expect(hover?.range).toEqual({ start: { line: 0, character: 0 }, end: { line: 0, character: 16 } });
  });

  it('helps with the signature inside lower(', async () => {
    const uri = 'file:///work/signature.cfrules';
    await client.open(uri, 'cfrules', 'lower(');
    const help = await client.connection.sendRequest(SignatureHelpRequest.type, {
      textDocument: { uri },
      position: { line: 0, character: 6 },
    });
    expect(help?.signatures[0]?.label).toMatch(/^lower\(.+\) → Bytes$/);
    expect(help?.activeParameter).toBe(0);
    expect(help?.signatures[0]?.parameters).toHaveLength(1);
  });

  it('formats each expression in canonical form', async () => {
    const uri = 'file:///work/format.cfrules';
    const text = '# two rules\nhttp.host == "a" && ssl\nnot ssl or http.host in {"b"   "a"}\n';
    await client.open(uri, 'cfrules', text);
    const edits = await client.connection.sendRequest(DocumentFormattingRequest.type, {
      textDocument: { uri },
      options: { tabSize: 2, insertSpaces: true },
    });
    expect(applyEdits(text, edits ?? [])).toBe(
      '# two rules\nhttp.host eq "a" and ssl\nnot ssl or http.host in {"b" "a"}\n',
    );
  });

  it('offers the fix of a lint as a code action', async () => {
    const uri = 'file:///work/fix.cfrules';
    const text = 'http.request.method eq "get"';
    await client.open(uri, 'cfrules', text);
    const { diagnostics } = await client.diagnostics(uri);
    expect(diagnostics.map((d) => d.code)).toEqual(['impossible-comparison']);
    const actions = await client.connection.sendRequest(CodeActionRequest.type, {
      textDocument: { uri },
      range: (diagnostics[0] as Diagnostic).range,
      context: { diagnostics },
    });
    const action = actions?.find((a) => 'edit' in a);
    expect(action?.title).toBe('Write "GET"');
    const edits = (action as { edit: { changes: Record<string, TextEdit[]> } }).edit.changes[uri] ?? [];
    expect(applyEdits(text, edits)).toBe('http.request.method eq "GET"');
  });

  it('gives semantic tokens from the lexer', async () => {
    const uri = 'file:///work/tokens.cfrules';
    await client.open(uri, 'cfrules', 'lower(http.host) eq "a"');
    const tokens = await client.connection.sendRequest(SemanticTokensRequest.type, { textDocument: { uri } });
    const legend = client.initialize.capabilities.semanticTokensProvider?.legend.tokenTypes ?? [];
    const data = tokens?.data ?? [];
    const decoded: [number, number, string][] = [];
    let line = 0;
    let character = 0;
    for (let i = 0; i < data.length; i += 5) {
      line += data[i] as number;
      character = data[i] === 0 ? character + (data[i + 1] as number) : (data[i + 1] as number);
      decoded.push([character, data[i + 2] as number, legend[data[i + 3] as number] as string]);
      expect(line).toBe(0);
    }
    expect(decoded).toEqual([
      [0, 5, 'function'],
      [6, 9, 'variable'],
      [17, 2, 'operator'],
      [20, 3, 'string'],
    ]);
  });
});

describe('cfrules lsp on JSON rules files', () => {
  let client: TestClient;
  beforeAll(async () => {
    client = await startClient({ plan: 'free' });
  });
  afterAll(async () => {
    await client?.close();
  });

  const ruleset = (expression: string) =>
    `{\n  "phase": "http_request_firewall_custom",\n  "rules": [\n    {\n      "action": "block",\n      "expression": ${expression}\n    }\n  ]\n}\n`;

  it('maps a diagnostic through the string escapes', async () => {
    const uri = 'file:///work/ruleset.json';
    // Raw: `\"caf\u00e9\"` is 14 characters for the 6 of `"café"`.
    const text = ruleset('"http.host eq \\"caf\\u00e9\\" and http.hots eq \\"x\\""');
    await client.open(uri, 'json', text);
    const { diagnostics } = await client.diagnostics(uri);
    expect(diagnostics.map((d) => d.code)).toEqual(['unknown-identifier']);
    const line = text.split('\n')[5] as string;
    const start = line.indexOf('http.hots');
    expect(diagnostics[0]?.range).toEqual({
      start: { line: 5, character: start },
      end: { line: 5, character: start + 'http.hots'.length },
    });
  });

  it('checks the plan of the settings and formats inside the JSON string, escaped again', async () => {
    const uri = 'file:///work/plan.json';
    const text = ruleset('"http.host matches \\"\\u00e9\\" && ssl"');
    await client.open(uri, 'json', text);
    const { diagnostics } = await client.diagnostics(uri);
    expect(diagnostics.map((d) => d.code)).toEqual(['matches-plan']);
    const line = text.split('\n')[5] as string;
    expect(diagnostics[0]?.range.start).toEqual({ line: 5, character: line.indexOf('matches') });
    const edits = await client.connection.sendRequest(DocumentFormattingRequest.type, {
      textDocument: { uri },
      options: { tabSize: 2, insertSpaces: true },
    });
    expect(applyEdits(text, edits ?? [])).toBe(ruleset('"http.host matches \\"é\\" and ssl"'));
  });

  it('reports malformed JSON as a diagnostic and keeps serving', async () => {
    const uri = 'file:///work/broken.json';
    const text = '{"rules": [ {"expression": "ssl",, } ]}';
    await client.open(uri, 'json', text);
    const { diagnostics } = await client.diagnostics(uri);
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]?.message).toMatch(/not valid JSON/);
    expect(diagnostics[0]?.range.start).toEqual({ line: 0, character: text.indexOf(',,') + 1 });
    // JSON of another shape is not a rules file: nothing to say.
    const other = 'file:///work/package.json';
    await client.open(other, 'json', '{"name": "x", "version": "1.0.0"}');
    expect((await client.diagnostics(other)).diagnostics).toEqual([]);
    const hover = await client.connection.sendRequest(HoverRequest.type, {
      textDocument: { uri },
      position: { line: 0, character: 30 },
    });
    expect(hover).toBeNull();
  });

  it('ends cleanly on shutdown and exit', async () => {
    const code = await client.close();
    expect(code).toBe(0);
    expect(client.stderr()).toBe('');
    client = undefined as unknown as TestClient;
  });
});

describe('cfrules lsp on Terraform files', () => {
  let client: TestClient;
  beforeAll(async () => {
    client = await startClient({ plan: 'enterprise' });
  });
  afterAll(async () => {
    await client?.close();
  });

  const TERRAFORM = [
    'resource "cloudflare_ruleset" "custom" {',
    '  zone_id = var.zone_id',
    '  phase   = "http_request_firewall_custom"',
    '  rules = [{',
    '    action     = "block"',
    '    expression = "http.host eq \\"caf\\u00e9\\" and http.hots eq \\"x\\""',
    '  }, {',
    '    action     = "block"',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: Terraform's interpolation, not JavaScript's
    '    expression = "${var.path} and ssl"',
    '  }, {',
    '    action     = "log"',
    '    expression = <<-EOT',
    '      http.request.uri.path == "/a" && ip.src.country eq "fr"',
    '    EOT',
    '  }]',
    '}',
    '',
  ].join('\n');

  it('checks each literal expression of a ruleset at its place, through the escapes, and says which it cannot', async () => {
    const uri = 'file:///work/main.tf';
    await client.open(uri, 'terraform', TERRAFORM);
    const { diagnostics } = await client.diagnostics(uri);
    const lines = TERRAFORM.split('\n');
    const at = (line: number, text: string) => ({ line, character: (lines[line] as string).indexOf(text) });
    expect(diagnostics.map((d) => [d.code, d.range.start])).toEqual([
      // biome-ignore lint/suspicious/noTemplateCurlyInString: Terraform's interpolation, not JavaScript's
      ['unchecked-expression', at(8, '"${var.path}')],
      ['unknown-identifier', at(5, 'http.hots')],
      ['impossible-comparison', at(12, '"fr"')],
    ]);
    expect(diagnostics[0]?.severity).toBe(2); // a warning
  });

  it("shows Cloudflare's error text under the exact characters of an expression inside a heredoc", async () => {
    const uri = 'file:///work/heredoc.tf';
    const expression = 'http.request.uri.path eq "/é" and http.hots eq "x"';
    const text = [
      'resource "cloudflare_filter" "old" {',
      '  expression = <<-EOT',
      `      ${expression}`,
      '  EOT',
      '}',
      '',
    ].join('\n');
    await client.open(uri, 'terraform', text);
    const { diagnostics } = await client.diagnostics(uri);
    const expected = validate(expression).diagnostics[0];
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]?.message).toBe(`${expected?.message}\nhint: ${expected?.hint}`);
    const start = `      ${expression}`.indexOf('http.hots');
    expect(diagnostics[0]?.range).toEqual({
      start: { line: 2, character: start },
      end: { line: 2, character: start + 'http.hots'.length },
    });
  });

  it('formats inside the quoted string and the heredoc, written as HCL writes them', async () => {
    const uri = 'file:///work/format.tf';
    const text = TERRAFORM.replace('http.hots', 'http.host').replace('"fr"', '"FR"');
    await client.open(uri, 'terraform', text);
    const edits = await client.connection.sendRequest(DocumentFormattingRequest.type, {
      textDocument: { uri },
      options: { tabSize: 2, insertSpaces: true },
    });
    expect(applyEdits(text, edits ?? [])).toBe(
      text.replace(
        '      http.request.uri.path == "/a" && ip.src.country eq "FR"',
        '      http.request.uri.path eq "/a" and ip.src.country eq "FR"',
      ),
    );
  });

  it('completes field names inside a heredoc and fixes a lint there', async () => {
    const uri = 'file:///work/complete.tf';
    await client.open(uri, 'terraform', TERRAFORM);
    const completion = await client.connection.sendRequest(CompletionRequest.type, {
      textDocument: { uri },
      position: { line: 12, character: '      http.req'.length },
    });
    const items = Array.isArray(completion) ? completion : (completion?.items ?? []);
    expect(items.map((item) => item.label)).toContain('http.request.uri.path');
    const { diagnostics } = await client.diagnostics(uri);
    const lint = diagnostics.filter((d) => d.code === 'impossible-comparison');
    const actions = await client.connection.sendRequest(CodeActionRequest.type, {
      textDocument: { uri },
      range: (lint[0] as Diagnostic).range,
      context: { diagnostics: lint },
    });
    const action = actions?.find((a) => 'edit' in a);
    const edits = (action as { edit: { changes: Record<string, TextEdit[]> } }).edit.changes[uri] ?? [];
    expect(applyEdits(TERRAFORM, edits)).toBe(TERRAFORM.replace('"fr"', '"FR"'));
  });
});

describe('cfrules lsp with a client that never answers the settings request', () => {
  it('still publishes diagnostics', async () => {
    const client = await startClient('never');
    const uri = 'file:///work/waiting.cfrules';
    await client.open(uri, 'cfrules', 'http.hots eq "a"');
    expect((await client.diagnostics(uri)).diagnostics.map((d) => d.code)).toEqual(['unknown-identifier']);
    expect(await client.close()).toBe(0);
  });
});
