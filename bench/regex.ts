import { decodeBinary } from '../src/regex/check.js';
import { compileRegex, compileRegexWithoutPrefilter, describeRegex } from '../src/regex/compile.js';
import { loadRe2 } from '../src/regex/re2/module.js';
import { translate } from '../src/regex/re2/translate.js';
import { Parser } from '../src/regex/syntax/parser.js';
import { machineDescription } from './machine.js';
import { measure } from './measure.js';
import { publish } from './results.js';

const bytes = (text: string): string => String.fromCharCode(...new TextEncoder().encode(text));

interface Case {
  name: string;
  /** The `matches` pattern, and the same for V8 (no inline flags there). */
  pattern: string;
  js: RegExp;
  /** Inputs the prefilter rejects, and inputs it passes on (or decides). */
  miss: string[];
  pass: string[];
}

const paths = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i}/index.html`);
const cases: Case[] = [
  {
    name: '`^/api/v\\d+/users`',
    pattern: '^/api/v\\d+/users',
    js: /^\/api\/v\d+\/users/,
    miss: paths('/static/img/', 20),
    pass: [...paths('/api/v1/users/', 10), ...paths('/api/v2/orders/', 10)],
  },
  {
    name: '`(?i)(googlebot|bingbot)/\\d+`',
    pattern: '(?i)(googlebot|bingbot)/\\d+',
    js: /(googlebot|bingbot)\/\d+/i,
    miss: Array.from({ length: 20 }, (_, i) => `Mozilla/5.0 (X11; Linux x86_64) Firefox/${100 + i}.0`),
    pass: Array.from(
      { length: 20 },
      (_, i) => `Mozilla/5.0 (compatible; Googlebot/2.${i}; +http://www.google.com/bot.html)`,
    ),
  },
  {
    name: '`\\.(php|aspx?)$` (decided by the prefilter)',
    pattern: '\\.(php|aspx?)$',
    js: /\.(php|aspx?)$/,
    miss: paths('/blog/post-', 20),
    pass: Array.from({ length: 20 }, (_, i) => `/wp-content/plugin-${i}/x.php`),
  },
  {
    name: '`/wp-admin` (a literal)',
    pattern: '/wp-admin',
    js: /\/wp-admin/,
    miss: paths('/blog/post-', 20),
    pass: paths('/wp-admin/', 20),
  },
  {
    name: '`[0-9]{4,}` (no literal)',
    pattern: '[0-9]{4,}',
    js: /[0-9]{4,}/,
    miss: [],
    pass: [...paths('/blog/post-', 10), ...paths('/blog/post-12345', 10)],
  },
  {
    name: '`(?u)^\\p{Han}+$` on UTF-8 (decoded per call)',
    pattern: '(?u)^\\p{Han}+$',
    js: /^\p{Script=Han}+$/u,
    miss: [],
    pass: ['漢字', '東京都', 'abc', '中文字符串测试', 'αβγ'].flatMap((s) => [s, `${s}x`]),
  },
];

const fmt = (ns: number) => (ns >= 10_000 ? `${(ns / 1000).toFixed(0)} µs` : `${ns.toFixed(0)} ns`);
const perCall = (inputs: string[], run: (s: string) => unknown) =>
  inputs.length === 0
    ? undefined
    : measure(() => {
        for (const s of inputs) run(s);
      }).ns / inputs.length;
const cell = (ns: number | undefined, base: number | undefined) =>
  ns === undefined || base === undefined ? '—' : `${fmt(ns)} (${(ns / base).toFixed(0)}×)`;

const rows = cases.map((c) => {
  const all = [...c.miss, ...c.pass];
  const pattern = bytes(c.pattern);
  const fast = compileRegex(pattern);
  const plain = compileRegexWithoutPrefilter(pattern);
  const toBytes = (list: string[]) => list.map(bytes);
  const miss = toBytes(c.miss);
  const pass = toBytes(c.pass);
  // Same answers, or the timings mean nothing.
  for (const [input, text] of [...miss, ...pass].map((s, i) => [s, [...c.miss, ...c.pass][i]] as const)) {
    const expected = c.js.test(text);
    if (fast.test(input) !== expected || plain.test(input) !== expected) {
      throw new Error(`${c.pattern} disagrees with V8 on ${JSON.stringify(text)}`);
    }
  }
  const v8 = perCall(all, (s) => c.js.test(s));
  return {
    name: c.name,
    search: describeRegex(pattern).search,
    checks: describeRegex(pattern)
      .prefilter.checks.map((k) => `${k.place}: ${k.needles.map((n) => JSON.stringify(n.text)).join(' / ')}`)
      .join('; '),
    v8,
    re2: perCall([...miss, ...pass], (s) => plain.test(s)),
    mix: perCall([...miss, ...pass], (s) => fast.test(s)),
    miss: perCall(miss, (s) => fast.test(s)),
    pass: perCall(pass, (s) => fast.test(s)),
  };
});

// Patterns that make a backtracking engine run away: V8 falls back to its linear engine (or the pattern
// is left to RE2), so the time grows with the input, never exponentially.
const adversarial = [
  { name: '`^(a|a)*b$`', pattern: '^(a|a)*b$', input: 'a'.repeat(10_000) },
  { name: '`^(\\w+\\s?)*$`', pattern: '^(\\w+\\s?)*$', input: `${'hello world '.repeat(800)}!` },
  { name: '`(?s)(.*a){20}x`', pattern: '(?s)(.*a){20}x', input: 'a'.repeat(10_000) },
];
const adversarialRows = adversarial.map(({ name, pattern, input }) => {
  const fast = compileRegex(pattern);
  const plain = compileRegexWithoutPrefilter(pattern);
  if (fast.test(input) !== plain.test(input)) throw new Error(`${pattern} disagrees with RE2`);
  const options = { windows: 3, windowMs: 200, warmupMs: 50 };
  return {
    name,
    search: describeRegex(pattern).search,
    input: `${input.length.toLocaleString('en-US')} bytes`,
    fast: measure(() => fast.test(input), options).ns,
    re2: measure(() => plain.test(input), options).ns,
  };
});

// First use of a new pattern: parse, translate, build the prefilter, compile with RE2.
let serial = 0;
const firstUse = (template: (n: number) => string) =>
  measure(
    () => {
      compileRegexWithoutPrefilter(template(serial++)).test('x');
    },
    { windows: 5, windowMs: 200, warmupMs: 100 },
  ).ns;
const compileRows = [
  ['`^(\\d+)\\.(\\d+)-N$`', firstUse((n) => `^(\\d+)\\.(\\d+)-${n}$`)],
  [
    '`(?i)^/(wp-admin|api/vN|static)/[a-z0-9_]+\\.(php|js)$`',
    firstUse((n) => `(?i)^/(wp-admin|api/v${n}|static)/[a-z0-9_]+\\.(php|js)$`),
  ],
  ['`(?u)\\w+N`', firstUse((n) => `(?u)\\w+${n}`)],
] as const;

// Heap: compile distinct copies on a fresh instance until re2-wasm aborts.
function heapFit(pattern: (n: number) => string): { count: number; estimate: number } {
  const Re2 = loadRe2();
  const live = [];
  let count = 0;
  try {
    for (; count < 50_000; count++) {
      const source = translate(new Parser(decodeBinary(pattern(count))).parse()).source;
      live.push(new Re2(source, false, false, false));
    }
  } catch {
    // The abort: the heap is full (this instance is dropped).
  }
  const estimate = translate(new Parser(decodeBinary(pattern(0))).parse()).cost;
  return { count, estimate };
}
const heapRows = [
  ['`^(\\d+)\\.(\\d+)-N$`', heapFit((n) => `^(\\d+)\\.(\\d+)-${n}$`)],
  [
    '`(?i)^/(wp-admin|api/vN|static)/[a-z0-9_]+\\.(php|js)$`',
    heapFit((n) => `(?i)^/(wp-admin|api/v${n}|static)/[a-z0-9_]+\\.(php|js)$`),
  ],
  ['`^/api/v\\d+/users/N`', heapFit((n) => `^/api/v\\d+/users/${n}`)],
  ['`(?u)\\w+N`', heapFit((n) => `(?u)\\w+${n}`)],
] as const;

const machine = machineDescription();
const lines = [
  '| pattern | searched by | prefilter | V8 RegExp | RE2 alone | cfrules | inputs rejected by the prefilter | inputs passed on (or decided) |',
  '|---|---|---|---:|---:|---:|---:|---:|',
  ...rows.map(
    (r) =>
      `| ${r.name} | ${r.search} | ${r.checks || '—'} | ${fmt(r.v8 ?? 0)} | ${cell(r.re2, r.v8)} | ${cell(r.mix, r.v8)} | ${r.miss === undefined ? '—' : fmt(r.miss)} | ${r.pass === undefined ? '—' : fmt(r.pass)} |`,
  ),
  '',
  '| adversarial search | searched by | input | cfrules | RE2 alone |',
  '|---|---|---:|---:|---:|',
  ...adversarialRows.map((r) => `| ${r.name} | ${r.search} | ${r.input} | ${fmt(r.fast)} | ${fmt(r.re2)} |`),
  '',
  '| first use of a new pattern (translate + RE2 compile) | time |',
  '|---|---:|',
  ...compileRows.map(([name, ns]) => `| ${name} | ${(ns / 1e6).toFixed(2)} ms |`),
  '',
  '| compiled copies that fit in the 16 MiB heap | count | KiB each | cfrules estimate |',
  '|---|---:|---:|---:|',
  ...heapRows.map(
    ([name, { count, estimate }]) =>
      `| ${name} | ${count} | ${(16384 / count).toFixed(1)} | ${(estimate / 1024).toFixed(1)} KiB |`,
  ),
];
const note = `Per call, median of 7 windows of 200 ms, on short URL paths and user agents (bytes). Ratios are
to V8's RegExp on the same inputs in the same run: all the inputs of the row, half of them rejected by the
prefilter where it has literals. "searched by" is what answers \`matches\`: V8's RegExp on a faithful
translation wherever V8 can also bound the time (its linear engine accepts the pattern, and takes over a
search that backtracks too much: src/regex/v8/linear.ts); the prefilter's literals alone for a pattern
that is only literals; otherwise RE2 behind the prefilter (Unicode-mode patterns, and patterns V8's linear
engine refuses). "RE2 alone" is the same regex on RE2 with the prefilter off: every call copies the input
into re2-wasm, which dominates, and a match costs more than a miss (RE2 builds the matched text). The
prefilter checks literals every match must contain, start or end with (\`indexOf\`, \`startsWith\`,
\`endsWith\`; on the lower-cased input for \`(?i)\` literals). The adversarial rows are searches that take
a plain backtracking engine exponential time; they stay linear in the input, though V8's linear engine is
slower per byte than RE2 (it simulates the automaton without RE2's DFA cache), and a search first spends
V8's 50,000 backtracks before it switches. First use is translation
plus RE2's compile; large Unicode classes (\`(?u)\\w\`, \`\\p{L}\`) take re2-wasm tens of milliseconds to
compile. The heap table compiles distinct copies on a fresh re2-wasm instance until it aborts; the cache
keeps at most 1,000 patterns and at most 8 MiB by cfrules' estimate, leaving the rest of the heap to the
DFAs RE2 grows while matching.`;
const report = `## Regex (bench/regex.ts)\n\nMachine: ${machine}. Date: ${new Date().toISOString().slice(0, 10)}.\n\n${lines.join('\n')}\n\n${note}\n`;
publish(report);
