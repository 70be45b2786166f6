import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type ValidateOptions, validate } from '../../src/check/validate.js';
import type { Diagnostic } from '../../src/lang/diagnostics.js';
import { PHASES, PLANS } from '../../src/scheme/profile.js';
import { verdictOf } from '../support/verdict.js';

/**
 * The validator corpus (test/check/corpus.json): Cloudflare documentation examples, each with the plan and
 * phase under which it is valid, plus known-invalid expressions from public reports and the reference notes,
 * with the diagnostics Cloudflare (or cfrules' profile rules and lints) give them.
 *
 * An entry's `error` is null when the expression must be accepted; otherwise it lists what is known of the
 * error, and only the keys present are compared (`code`, `message`, `line`, `column`, `carets` — carets
 * counted as Cloudflare prints them). `warnings`, when present, is the exact list of warning codes in order.
 * Entries whose `source` starts with "docs:" are examples published in Cloudflare's documentation.
 */
interface ExpectedError {
  code?: string;
  message?: string;
  line?: number;
  column?: number;
  carets?: number;
}

interface CorpusEntry {
  expr: string;
  plan?: ValidateOptions['plan'];
  phase?: ValidateOptions['phase'];
  lists?: ValidateOptions['lists'];
  expression?: ValidateOptions['expression'];
  error: ExpectedError | null;
  warnings?: string[];
  source: string;
  note?: string;
}

const corpus: CorpusEntry[] = JSON.parse(readFileSync(new URL('./corpus.json', import.meta.url), 'utf8'));

// The project's own field catalogue.
const catalogue: { name: string }[] = JSON.parse(
  readFileSync(new URL('../../src/scheme/fields.json', import.meta.url), 'utf8'),
);
const fieldNames = catalogue.map((field) => field.name);

/** The functions of rules-language.md §7. */
const functionNames = [
  'any',
  'all',
  'cidr',
  'cidr6',
  'concat',
  'decode_base64',
  'encode_base64',
  'ends_with',
  'has_key',
  'has_value',
  'join',
  'len',
  'lookup_json_integer',
  'lookup_json_string',
  'lower',
  'upper',
  'regex_replace',
  'remove_bytes',
  'remove_query_args',
  'sha256',
  'split',
  'starts_with',
  'substring',
  'to_string',
  'url_decode',
  'uuidv4',
  'wildcard_replace',
  'bit_slice',
  'is_timed_hmac_valid_v0',
];

function optionsOf(entry: CorpusEntry): ValidateOptions {
  const options: ValidateOptions = {};
  if (entry.plan) options.plan = entry.plan;
  if (entry.phase) options.phase = entry.phase;
  if (entry.lists) options.lists = entry.lists;
  if (entry.expression) options.expression = entry.expression;
  return options;
}

/** What a user sees of an error: its code, message, position and caret count. */
const seen = (source: string, diagnostic: Diagnostic): Required<ExpectedError> =>
  verdictOf(source, diagnostic);

/** Only the keys the entry states. */
function pick(actual: Required<ExpectedError>, expected: ExpectedError): ExpectedError {
  const keys = Object.keys(expected) as (keyof ExpectedError)[];
  return Object.fromEntries(keys.map((key) => [key, actual[key]]));
}

/** The text with string literals emptied, so that `"tcp"` or `r"ip"` are not taken for names. */
const withoutStrings = (expr: string) => expr.replace(/r(#*)"[\s\S]*?"\1|"(?:\\.|[^"\\])*"/g, '""');

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const usesField = (text: string, name: string) =>
  new RegExp(`(?<![\\w.$])${escapeRegExp(name)}(?![\\w.]|\\s*\\()`).test(text);

const callsFunction = (text: string, name: string) => new RegExp(`(?<![\\w.])${name}\\s*\\(`).test(text);

function label(entry: CorpusEntry, index: number): string {
  const profile = [entry.plan, entry.phase, entry.expression].filter(Boolean).join(' ');
  const verdict = entry.error ? 'rejects' : 'accepts';
  return `#${index} ${verdict} ${JSON.stringify(entry.expr).slice(0, 90)}${profile ? ` (${profile})` : ''}`;
}

describe('validator corpus', () => {
  corpus.forEach((entry, index) => {
    it(label(entry, index), () => {
      const result = validate(entry.expr, optionsOf(entry));
      const error = result.diagnostics.find((d) => d.severity === 'error');
      if (entry.error === null) {
        expect(error && seen(entry.expr, error)).toBeUndefined();
        expect(result.ok).toBe(true);
      } else {
        expect(error, 'an error diagnostic').toBeDefined();
        expect(pick(seen(entry.expr, error as Diagnostic), entry.error)).toEqual(entry.error);
        expect(result.ok).toBe(false);
      }
      if (entry.warnings) {
        const warnings = result.diagnostics.filter((d) => d.severity === 'warning').map((d) => d.code);
        expect(warnings).toEqual(entry.warnings);
      }
    });
  });
});

describe('validator corpus coverage', () => {
  const valid = corpus.filter((entry) => entry.error === null);
  const invalid = corpus.filter((entry) => entry.error !== null);

  it('has at least 150 documentation examples', () => {
    expect(corpus.filter((entry) => entry.source.startsWith('docs:')).length).toBeGreaterThanOrEqual(150);
  });

  it('uses every field of the catalogue in a valid entry that states its plan and phase', () => {
    const texts = valid
      .filter((entry) => entry.plan && entry.phase)
      .map((entry) => withoutStrings(entry.expr));
    expect(fieldNames.length).toBeGreaterThanOrEqual(228);
    expect(fieldNames.filter((name) => !texts.some((text) => usesField(text, name)))).toEqual([]);
  });

  it('calls every function both in a valid and in an invalid entry', () => {
    const validTexts = valid.map((entry) => withoutStrings(entry.expr));
    const invalidTexts = invalid.map((entry) => withoutStrings(entry.expr));
    const missing = functionNames.flatMap((name) => [
      ...(validTexts.some((text) => callsFunction(text, name)) ? [] : [`${name}: no valid call`]),
      ...(invalidTexts.some((text) => callsFunction(text, name)) ? [] : [`${name}: no invalid call`]),
    ]);
    expect(missing).toEqual([]);
  });

  it('has well-formed entries', () => {
    const problems = corpus.flatMap((entry, index) => {
      const found: string[] = [];
      if (entry.plan && !(PLANS as readonly string[]).includes(entry.plan)) found.push(`plan ${entry.plan}`);
      if (entry.phase && !(PHASES as readonly string[]).includes(entry.phase))
        found.push(`phase ${entry.phase}`);
      if (entry.expression && !['filter', 'rewrite'].includes(entry.expression)) found.push('expression');
      for (const kind of Object.values(entry.lists ?? {})) {
        if (!['ip', 'hostname', 'asn'].includes(kind)) found.push(`list kind ${kind}`);
      }
      if (entry.error && Object.keys(entry.error).length === 0) found.push('empty error');
      if (!entry.source) found.push('no source');
      return found.map((problem) => `#${index}: ${problem}`);
    });
    expect(problems).toEqual([]);
  });
});
