// Expressions, file names and values are shown on terminals, which act on control characters: every
// human-readable output shows them escaped (`\x1b`), with the carets of code frames still under the right
// characters. JSON output is left to JSON's own escaping.
import { describe, expect, it } from 'vitest';
import { escapeControlCharacters } from '../../src/lang/escape.js';
import { run } from './in-process.js';

const ESC = '\x1b';
const hostile = `"${ESC}]0;pwned\x07${ESC}[2J"`; // sets the window title, then clears the screen
/** No character that a terminal acts on: the C0 controls but tab and line feed, DEL, the C1 controls. */
const noControls = (text: string) =>
  expect([...text].filter((c) => escapeControlCharacters(c) !== c)).toEqual([]);

/** The source line and the caret line of the first code frame of a report. */
function frame(report: string): { line: string; carets: string } {
  const lines = report.split('\n');
  const header = lines.findIndex((line) => line.startsWith('Filter '));
  return { line: lines[header + 1] as string, carets: lines[header + 2] as string };
}

describe('control characters in human-readable output', () => {
  it('escapes them in the code frames of validate, fmt, parse and eval', () => {
    const source = `http.host eq ${hostile} and`;
    for (const argv of [
      ['validate', source],
      ['fmt', '-e', source],
      ['parse', '-e', source],
      ['eval', source],
    ]) {
      const result = run(argv);
      expect(result.code, argv[0]).toBe(1);
      const report = result.stdout + result.stderr;
      noControls(report);
      expect(frame(report).line, argv[0]).toBe('http.host eq "\\x1b]0;pwned\\x07\\x1b[2J" and');
    }
  });

  it('keeps the carets under the characters they point at, after escaped ones', () => {
    // The comma follows an escaped character; the error after `and` follows three.
    const comma = frame(run(['validate', `http.host in {"${ESC}", "b"}`]).stdout);
    expect(comma.line).toBe('http.host in {"\\x1b", "b"}');
    expect(comma.carets.indexOf('^')).toBe(comma.line.indexOf(', "b"'));
    expect(comma.carets).toMatch(/^ *\^{2} invalid digit/); // Cloudflare's span for strings: `, `
    const end = frame(run(['fmt', '-e', `http.host eq ${hostile} and`]).stderr);
    expect(end.carets).toBe(`${' '.repeat(end.line.length)}^ expected identifier character`);
    // An escaped character inside the span widens the carets by its escape.
    const within = frame(run(['validate', `http.host eq "a" ${ESC}[2J`]).stdout);
    expect(within.line).toBe('http.host eq "a" \\x1b[2J');
    expect(within.carets).toBe(`${' '.repeat(16)}${'^'.repeat(8)} unrecognised input`); // ` \x1b[2J`
  });

  it("keeps Cloudflare's positions: the header counts UTF-8 bytes of the text as written", () => {
    const result = run(['validate', `http.host in {"é${ESC}", "b"}`]);
    // `http.host in {"` is 15 bytes, é 2, ESC 1, `"` 1: the comma is byte 19, column 20.
    expect(result.stdout).toMatch(
      /^<expression>:1:20: error\[comma-in-set\]\nFilter parsing error \(1:20\):\n/,
    );
    const { line, carets } = frame(result.stdout);
    expect(line).toBe('http.host in {"é\\x1b", "b"}');
    // Cloudflare indents by bytes: é counts 2, so the caret is one further right than on screen, as there.
    expect(carets.indexOf('^')).toBe(line.indexOf(', "b"') + 1);
  });

  it('escapes them in explanations, file names, messages and hints', () => {
    const explained = run(['eval', '--explain', '--field', `http.host=${ESC}[2J`, 'http.host eq "a"']);
    expect(explained.code).toBe(0);
    noControls(explained.stdout);
    expect(explained.stdout).toContain('http.host = "\\u001b[2J"'); // JSON.stringify's escape, then ours
    const name = `bad${ESC}[2J.txt`;
    const fmt = run(['fmt', name], { [name]: 'ssl and' });
    noControls(fmt.stderr);
    expect(fmt.stderr).toMatch(/^bad\\x1b\[2J.txt:1:8: error\[expected-identifier\]/);
    const usage = run(['validate', '--plan', `gold${ESC}[2J`, 'ssl']);
    expect(usage.stderr).toBe(
      "cfrules validate: unknown plan 'gold\\x1b[2J': expected one of free, pro, business, enterprise\n" +
        "Run 'cfrules validate --help' for usage.\n",
    );
    const github = run(['validate', '--format', 'github', `http.hots eq ${hostile}`]);
    noControls(github.stdout);
  });

  it('prints data (fmt output, rewrite values) as it is when piped, escaped on a terminal', () => {
    // The formatter writes control bytes in strings as \xHH escapes of the language itself ...
    expect(run(['fmt', '-e', `http.host eq ${hostile}`]).stdout).toBe(
      'http.host eq "\\x1b]0;pwned\\x07\\x1b[2J"\n',
    );
    // ... but a rules file keeps its comments as they are.
    const rules = { 'rules.txt': `# ${ESC}[2J\nssl\n` };
    expect(run(['fmt', '-f', 'rules.txt'], rules).stdout).toBe(`# ${ESC}[2J\nssl\n`);
    expect(run(['fmt', '-f', 'rules.txt'], rules, '', { isTTY: true }).stdout).toBe('# \\x1b[2J\nssl\n');
    const rewrite = ['eval', '--rewrite', '--field', `http.host=a${ESC}[2J`, 'http.host'];
    expect(run(rewrite).stdout).toBe(`a${ESC}[2J\n`);
    expect(run(rewrite, {}, '', { isTTY: true }).stdout).toBe('a\\x1b[2J\n');
  });

  it('leaves JSON to JSON: the expression is exact once parsed', () => {
    const source = `http.hots eq ${hostile}`;
    const json = JSON.parse(run(['validate', '--format', 'json', source]).stdout);
    expect(json.results[0].expression).toBe(source);
  });

  it('escapes C1 controls and bidirectional overrides too, and leaves tabs and text alone', () => {
    expect(escapeControlCharacters('a\u009b2Jb\u202ec\td é')).toBe('a\\x9b2Jb\\u202ec\td é');
  });
});
