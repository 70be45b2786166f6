// Issue 23, item 11: a code frame on a long line shows a window around the caret (as the API does), not
// the whole line and thousands of carets; an input that is not text is refused once, as a binary file,
// not reported line by line.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { notTextAt } from '../../src/cli/files.js';
import { FRAME_WIDTH } from '../../src/lang/diagnostics.js';
import { cfrules, type RunResult } from './run-binary.js';

const dir = mkdtempSync(join(tmpdir(), 'cfrules-long-binary-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, content: string | Uint8Array): string {
  writeFileSync(join(dir, name), content);
  return name;
}
const run = (args: string[], stdin?: string): Promise<RunResult> =>
  cfrules(args, { cwd: dir, ...(stdin === undefined ? {} : { stdin }) });

/** The source line and the caret line of the first code frame of a report (or of a message that ends in one). */
function frame(report: string): { line: string; carets: string } {
  const lines = report.split('\n');
  const header = lines.findIndex((line) => line.includes('Filter parsing error ('));
  return { line: lines[header + 1] as string, carets: lines[header + 2] as string };
}

// An error in the middle of a line of some 4,000 characters (under the 4,096 limit).
const before = `http.host eq "${'a'.repeat(2000)}" and `;
const longLine = `${before}bogus and http.host eq "${'b'.repeat(1800)}"`;

describe.concurrent('code frames of long lines', () => {
  it('show a window around the caret, cut with … on both sides, the carets under the problem', async () => {
    const result = await run(['validate', '--file', file('long.txt', `ssl\n${longLine}\n`)]);
    expect(result.code).toBe(1);
    // The positions are those of the whole line.
    expect(result.stdout).toContain(`long.txt:2:${before.length + 1}: error[unknown-identifier]`);
    expect(result.stdout).toContain(`Filter parsing error (1:${before.length + 1}):`);
    const { line, carets } = frame(result.stdout);
    expect(line.startsWith('…') && line.endsWith('…')).toBe(true);
    expect(line.length).toBe(FRAME_WIDTH + 2);
    expect(carets).toMatch(/^ +\^{5} unknown identifier/);
    expect(line.slice(carets.indexOf('^'), carets.indexOf('^') + 5)).toBe('bogus');
    expect(result.stdout.length).toBeLessThan(1000);
  });

  it('bound the carets of a span longer than the window', async () => {
    // A string that never ends: the error spans the rest of the line.
    const result = await run(['validate', `http.host eq "${'x'.repeat(3000)}`]);
    const { line, carets } = frame(result.stdout);
    expect(line.length).toBeLessThanOrEqual(FRAME_WIDTH + 2);
    expect(carets.replace(/[^^]/g, '').length).toBeLessThanOrEqual(FRAME_WIDTH);
  });

  it('keep the carets under escaped characters in the window', async () => {
    const result = await run(['validate', `${'ssl and '.repeat(40)}http.host eq "\x1b[2J" bogus`]);
    const { line, carets } = frame(result.stdout);
    expect(line.startsWith('…')).toBe(true);
    expect(line.endsWith('"\\x1b[2J" bogus')).toBe(true);
    expect(line.slice(carets.indexOf('^'))).toBe(' bogus'); // Cloudflare's span takes the space before
  });

  it('are cut alike in zone files (simulate, test, replay, bench)', async () => {
    const zone = file(
      'zone.json',
      JSON.stringify({ firewall_rules: [{ id: 'r', action: 'block', filter: { expression: longLine } }] }),
    );
    const request = file('request.json', '{"method": "GET", "url": "https://example.com/"}');
    const result = await run(['simulate', '--zone', zone, '--request', request]);
    expect(result.code).toBe(2);
    const { line, carets } = frame(result.stderr);
    expect(line.length).toBe(FRAME_WIDTH + 2);
    expect(line.slice(carets.indexOf('^'), carets.indexOf('^') + 5)).toBe('bogus');
  });

  it('keep the whole line in the formatted field of a JSON report', async () => {
    const result = await run(['validate', '--format', 'json', longLine]);
    const [diagnostic] = JSON.parse(result.stdout).results[0].diagnostics;
    expect(diagnostic.formatted.split('\n')[1]).toBe(longLine);
  });
});

const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]);

describe.concurrent('input that is not text', () => {
  it('is refused once as a binary file, with a code and the position of the first bad byte', async () => {
    // Many lines of NUL-laden bytes: one error, not one per line.
    const nul = file('nul.bin', `ssl\nssl and\u0000\n${'\u0000x\n'.repeat(500)}`);
    for (const command of [['validate', '--file'], ['fmt'], ['parse'], ['test']]) {
      const result = await run([...command, nul]);
      expect(result.code, command[0]).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe(
        `cfrules ${command[0]}: nul.bin:2:8: error[binary-file]: a binary file, not text: a NUL byte (0x00); cfrules reads UTF-8 text\n` +
          `Run 'cfrules ${command[0]} --help' for usage.\n`,
      );
    }
    const image = await run(['fmt', file('logo.png', png)]);
    expect(image.stderr).toMatch(
      /^cfrules fmt: logo.png:1:1: error\[binary-file\]: .*byte 0x89, which is not UTF-8/,
    );
  });

  it('says which byte is not UTF-8, after text that is (a real U+FFFD included)', async () => {
    const latin1 = file(
      'latin1.txt',
      Buffer.concat([Buffer.from('ssl\nhttp.host eq "\uFFFD'), Buffer.from([0xe9, 0x22])]),
    );
    const result = await run(['validate', '--file', latin1]);
    expect(result.stderr).toContain(
      'latin1.txt:2:18: error[binary-file]: a binary file, not text: byte 0xe9, which is not UTF-8',
    );
  });

  it('has the code and the place in JSON reports', async () => {
    const result = await run(['validate', '--format', 'json', '--file', file('nul.txt', 'ssl\u0000')]);
    expect(result.code).toBe(2);
    expect(JSON.parse(result.stdout)).toEqual({
      ok: false,
      error: {
        kind: 'usage',
        code: 'binary-file',
        message:
          'nul.txt:1:4: error[binary-file]: a binary file, not text: a NUL byte (0x00); cfrules reads UTF-8 text',
        file: 'nul.txt',
        line: 1,
        column: 4,
      },
    });
  });

  it('is refused on standard input and in the files of the other commands', async () => {
    expect((await run(['validate', '-'], 'ssl\u0000')).stderr).toContain('<stdin>:1:4: error[binary-file]');
    const zone = file('zone-ok.json', '{"firewall_rules": []}');
    const simulate = await run(['simulate', '--zone', zone, '--request', file('request.png', png)]);
    expect(simulate.code).toBe(2);
    expect(simulate.stderr).toContain('request.png:1:1: error[binary-file]');
    const requests = file('requests.jsonl', '{"method": "GET"}\n\u0000\n');
    const bench = await run(['bench', '--zone', zone, '--requests', requests]);
    expect(bench.stderr).toContain('requests.jsonl:2:1: error[binary-file]');
    const serve = await run([
      'serve',
      '--db',
      ':memory:',
      '--port',
      '0',
      '--config',
      file('config.yaml', 'a: \u0000\n'),
    ]);
    expect(serve.code).toBe(1); // it cannot start
    expect(serve.stderr).toContain('cfrules serve: config.yaml:1:4: error[binary-file]');
  });

  it('given to replay (gzipped or not) is said once, not as thousands of invalid lines', async () => {
    const zone = file('zone-replay.json', '{"firewall_rules": []}');
    const binary = Buffer.concat([png, Buffer.from('\n'.repeat(3000))]);
    for (const name of [file('log.bin', binary), file('log.bin.gz', gzipSync(binary))]) {
      const result = await run(['replay', '--zone', zone, '--requests', name]);
      expect(result.code, name).toBe(2);
      expect(result.stderr).toBe(
        `cfrules replay: ${name}:1:1: error[binary-file]: a binary file, not text: byte 0x89, which is not UTF-8; cfrules reads UTF-8 text\n` +
          `Run 'cfrules replay --help' for usage.\n`,
      );
    }
    // A text log is replayed as before.
    const text = await run([
      'replay',
      '--zone',
      zone,
      '--requests',
      file('log.jsonl', '{"method": "GET", "url": "https://example.com/"}\n'),
    ]);
    expect(text.code).toBe(0);
  });
});

describe('notTextAt', () => {
  const bytes = (...parts: (string | number[])[]) =>
    Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part) : Buffer.from(part))));

  it('finds nothing in UTF-8 text, a BOM and a U+FFFD included', () => {
    expect(notTextAt(bytes([0xef, 0xbb, 0xbf], 'ssl and é\n\uFFFD 😀\n'))).toBeUndefined();
  });

  it('gives the line, the byte column and the byte of the first NUL or non-UTF-8 byte', () => {
    expect(notTextAt(bytes('ab\né', [0]))).toEqual({ line: 2, column: 3, byte: 0 });
    expect(notTextAt(bytes('\uFFFDé\n\n', [0xc3, 0x28]))).toEqual({ line: 3, column: 1, byte: 0xc3 });
    expect(notTextAt(bytes('a', [0xff], 'b', [0]))).toEqual({ line: 1, column: 2, byte: 0xff });
    expect(notTextAt(bytes([0], 'a\n'))).toEqual({ line: 1, column: 1, byte: 0 });
  });

  it('at the start of a stream, leaves a character cut at the end of the block alone', () => {
    const cut = bytes('ssl\nhttp.host eq "', [0xc3]);
    expect(notTextAt(cut)).toEqual({ line: 2, column: 15, byte: 0xc3 });
    expect(notTextAt(cut, false)).toBeUndefined();
    expect(notTextAt(bytes('a\n', [0xff], '\n'), false)).toEqual({ line: 2, column: 1, byte: 0xff });
    expect(notTextAt(bytes('abc', [0]), false)).toEqual({ line: 1, column: 4, byte: 0 });
  });
});
