// Every byte that comes from input reaches a terminal escaped (docs/cli.md, Control characters): each
// command of the built binary is fed escape sequences through every input it has (file content, file
// names, log lines, JSON values, arguments), and no character a terminal acts on may come out in a human
// format. JSON output is JSON's to escape. Issue 23, item 4: `replay` printed log lines raw.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cfrules, type RunResult } from './run-binary.js';

/** Sets the window title, clears the screen, returns the cursor, a one-byte CSI, a right-to-left override. */
const HOSTILE = '\x1b]0;title\x07\x1b[2J\r\u009b\u202e';
/** How HOSTILE is shown once escaped. */
const SHOWN = '\\x1b]0;title\\x07\\x1b[2J\\x0d\\x9b\\u202e';
/** What a terminal acts on: the C0 controls but tab and line feed, DEL, the C1 controls, bidi controls. */
const actedOn = (code: number) =>
  (code < 0x20 && code !== 0x09 && code !== 0x0a) ||
  (code >= 0x7f && code <= 0x9f) ||
  code === 0x200e ||
  code === 0x200f ||
  (code >= 0x2028 && code <= 0x202e) ||
  (code >= 0x2066 && code <= 0x2069);
/** The characters of `text` that a terminal would act on. */
const raw = (text: string) => [...text].filter((c) => actedOn(c.codePointAt(0) as number));

const dir = mkdtempSync(join(tmpdir(), 'cfrules-controls-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let files = 0;
/** Writes `text` to a new file of the temporary directory whose name carries HOSTILE; returns the name. */
function file(stem: string, extension: string, text: string): string {
  const name = `${stem}${++files}${HOSTILE}.${extension}`;
  writeFileSync(join(dir, name), text);
  return name;
}

const run = (args: string[], stdin?: string): Promise<RunResult> =>
  cfrules(args, { cwd: dir, ...(stdin === undefined ? {} : { stdin }) });

/** Nothing raw in either stream, and the hostile text shown escaped somewhere (not dropped). */
function expectEscaped(result: RunResult, shown = SHOWN): void {
  const output = result.stdout + result.stderr;
  expect(raw(output)).toEqual([]);
  expect(output).toContain(shown);
}

const json = (value: unknown) => JSON.stringify(value);
/** A zone whose rule's id and description are hostile, matching paths that contain `/a`. */
const zone = (expression = 'http.request.uri.path contains "/a"') =>
  json({
    firewall_rules: [
      { id: `r${HOSTILE}`, description: `d${HOSTILE}`, action: 'block', filter: { expression } },
    ],
  });
const badExpression = `http.host eq "${HOSTILE}" and`;

describe.concurrent('control characters from input, in every command', () => {
  it('validate: arguments, file names and content, JSON rule values, unknown phases, usage errors', async () => {
    expectEscaped(await run(['validate', badExpression]));
    const rules = file('rules', 'txt', `# ${HOSTILE}\n${badExpression}\n`);
    expectEscaped(await run(['validate', '--file', rules]));
    expectEscaped(await run(['validate', '--format', 'github', '--file', rules]));
    const jsonRules = file(
      'rules',
      'json',
      json({
        phase: `phase${HOSTILE}`,
        rules: [{ id: `id${HOSTILE}`, description: HOSTILE, action: 'block', expression: badExpression }],
      }),
    );
    expectEscaped(await run(['validate', '--file', jsonRules]));
    expectEscaped(await run(['validate', '--plan', HOSTILE, 'ssl']));
    expectEscaped(await run(['validate', '--file', `missing${HOSTILE}.txt`]));
    expectEscaped(await run([`validate${HOSTILE}`]));
    // A file name given as an expression: the note names it (a name without white space, as it checks).
    writeFileSync(join(dir, 'note\x1b[2J\u202e.txt'), 'ssl\n');
    const notice = await run(['validate', 'note\x1b[2J\u202e.txt']);
    expect(notice.stderr).toContain('note:');
    expectEscaped(notice, 'note\\x1b[2J\\u202e.txt');
  });

  it('fmt and parse: file names and content, --check, standard input', async () => {
    const broken = file('broken', 'txt', `${badExpression}\n`);
    expectEscaped(await run(['fmt', broken]));
    expectEscaped(await run(['parse', broken]));
    expectEscaped(await run(['parse', '-'], badExpression));
    const unformatted = file('unformatted', 'txt', 'ssl  and  ssl\n');
    const check = await run(['fmt', '--check', unformatted]);
    expect(check.stderr).toContain('not formatted');
    expectEscaped(check);
  });

  it('eval: the expression, --field values, request files and their values, lists', async () => {
    expectEscaped(await run(['eval', badExpression]));
    // The value is written as JSON (`\u001b`), and what JSON leaves raw is escaped.
    const explained = await run(['eval', '--explain', '--field', `http.host=${HOSTILE}`, 'http.host eq "a"']);
    expectEscaped(explained, '\\u001b[2J\\r\\x9b\\u202e');
    const request = file('request', 'json', json({ method: HOSTILE, url: 'https://example.com/' }));
    expectEscaped(await run(['eval', '--request', request, 'ssl']));
    expectEscaped(await run(['eval', '--request', file('request', 'json', `{"method": "${HOSTILE}`), 'ssl']));
    expectEscaped(await run(['eval', '--list', `office=${file('list', 'txt', '')}x`, 'ip.src in $office']));
  });

  it('simulate: zone and request file names, their problems, the trace', async () => {
    const request = file('request', 'json', json({ method: 'GET', url: 'https://example.com/a' }));
    expectEscaped(await run(['simulate', '--zone', file('zone', 'json', zone()), '--request', request]));
    const invalid = file('invalid', 'json', zone(badExpression));
    const frames = await run(['simulate', '--zone', invalid, '--request', request]);
    expect(frames.stderr).toContain('Filter parsing error');
    expectEscaped(frames);
    const badRequest = file(
      'request',
      'json',
      json({ method: 'GET', url: `https://example.com/${HOSTILE}` }),
    );
    expectEscaped(await run(['simulate', '--zone', file('zone', 'json', zone()), '--request', badRequest]));
    expectEscaped(
      await run(['simulate', '--zone', file('zone', 'json', `{"x": ${HOSTILE}`), '--request', request]),
    );
  });

  it('test: case names, rule names, file names, problems', async () => {
    const zonePath = file('zone', 'json', zone());
    const cases = (expect: unknown, zoneFile = zonePath) =>
      json({
        zone: zoneFile,
        tests: [{ name: `case${HOSTILE}`, request: { method: 'GET', url: 'https://example.com/a' }, expect }],
      });
    const failing = await run(['test', file('failing', 'test.json', cases({ action: 'allow' }))]);
    expect(failing.code).toBe(1);
    expectEscaped(failing);
    const unknown = await run(['test', file('unknown', 'test.json', cases({ fired: [`rule${HOSTILE}`] }))]);
    expect(unknown.code).toBe(2);
    expectEscaped(unknown);
    const invalid = file('invalid', 'json', zone(badExpression));
    const frames = await run(['test', file('frames', 'test.json', cases({ action: 'block' }, invalid))]);
    expect(frames.stderr).toContain('Filter parsing error');
    expectEscaped(frames);
  });

  it('replay: log lines that are not JSON, values in them, sample URLs, rule names, file names', async () => {
    const log = file(
      'requests',
      'jsonl',
      [
        HOSTILE, // JSON.parse quotes it in its message
        json({ method: HOSTILE, url: 'https://example.com/' }),
        json({ method: 'GET', url: `https://example.com/a?${'\u202e'}` }),
        json({ method: 'GET', url: 'https://example.com/a' }),
        '',
      ].join('\n'),
    );
    const result = await run([
      'replay',
      '--zone',
      file('zone', 'json', zone()),
      '--requests',
      log,
      '--workers',
      '1',
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('not JSON');
    expectEscaped(result);
    const invalid = file('invalid', 'json', zone(badExpression));
    expectEscaped(await run(['replay', '--zone', invalid, '--requests', log]));
    expectEscaped(await run(['replay', '--zone', invalid, '--requests', log, '--top', HOSTILE]));
  });

  it('bench: rule names in the summary, bad lines, file names', async () => {
    const zonePath = file('zone', 'json', zone());
    const requests = file('requests', 'jsonl', `${json({ method: 'GET', url: 'https://example.com/a' })}\n`);
    expectEscaped(await run(['bench', '--zone', zonePath, '--requests', requests, '--top', '1']));
    const bad = file('bad', 'jsonl', `${HOSTILE}\n`);
    expectEscaped(await run(['bench', '--zone', zonePath, '--requests', bad]));
    expectEscaped(
      await run(['bench', '--zone', file('invalid', 'json', zone(badExpression)), '--requests', bad]),
    );
  });

  it('export and serve: zone names, file names', async () => {
    const db = join(dir, `db${HOSTILE}`);
    mkdirSync(db, { recursive: true });
    expectEscaped(await run(['export', 'terraform', '--db', join(db, 'cfrules.db'), '--zone', HOSTILE]));
    expectEscaped(await run(['export', 'zone', '--db', join(db, 'cfrules.db'), '--zone', HOSTILE]));
    const config = await run([
      'serve',
      '--db',
      ':memory:',
      '--port',
      '0',
      '--config',
      `missing${HOSTILE}.yaml`,
    ]);
    expect(config.code).toBe(1);
    expectEscaped(config);
  });

  it('leaves JSON output to JSON: the expression is exact once parsed', async () => {
    const result = await run(['validate', '--format', 'json', badExpression]);
    expect(result.stdout).toContain('\\u001b]0;title\\u0007'); // JSON's escapes, not ours
    expect(JSON.parse(result.stdout).results[0].expression).toBe(badExpression);
  });
});
