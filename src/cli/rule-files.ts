import { spanOf, utf8Length } from '../lang/position.js';
import type { RuleObjectKind } from '../service/rules/check.js';
import { UsageError } from './command.js';
import { parseJsonInput } from './files.js';
import { jsonPointerOffset } from './json-pointer.js';

/** A 1-based line and a 1-based column counted in UTF-8 bytes, like Cloudflare's positions. */
export interface Position {
  line: number;
  column: number;
}

/** One expression to validate, with everything needed to say where it came from. */
export interface ExpressionEntry {
  /** How the input is named in messages: a file path, `<stdin>`, `<expression>` or `<expression N>`. */
  source: string;
  /** The file it came from (not set for command-line expressions and standard input). */
  path?: string;
  /** For JSON files: the rule or filter id, else its `ref`, else `#N` (its position in the list, from 1). */
  rule?: string;
  /** For JSON files: what `rule` identifies, a filter or a rule (firewall rule or ruleset rule). */
  item?: 'filter' | 'rule';
  /** The rule's (or filter's) description, when it has one. */
  description?: string;
  /** For JSON files: where the expression sits in the rule, e.g. `filter.expression`. */
  field?: string;
  expression: string;
  kind: 'filter' | 'rewrite';
  /** The phase the file implies: the ruleset's `phase` as written, `firewall_rules` for legacy objects. */
  phase?: string;
  /** Position in the input of an offset into `expression`. */
  locate: (offset: number) => Position;
  /**
   * Where the expression is written in its input's text, `[start, end)`, and whether it is written as a
   * JSON string there (fmt rewrites it in place); absent for command-line expressions.
   */
  written?: {
    start: number;
    end: number;
    json: boolean;
    /**
     * How a new expression is written in place, when that is more than the text or a JSON string (a
     * Terraform string): the part of the input to replace, and its text.
     */
    rewrite?: (expression: string) => { start: number; end: number; text: string };
  };
  /**
   * Set when the input holds something that is not a literal expression (a Terraform interpolation):
   * `expression` is then its text as written, which is not checked, and this says why.
   */
  unchecked?: string;
  /**
   * For the main expression of a filter or rule of a JSON file (not its rewrite expressions): the object
   * around it, which `cfrules validate` checks as the API would (action, products, parameters…).
   */
  object?: RuleObject;
}

/** A filter or rule of a JSON file, as written, and how to find its parts in the file. */
export interface RuleObject {
  kind: RuleObjectKind;
  value: unknown;
  /** Where it is in the document, as a JSON pointer (`/result/0`, `/rules/2`). */
  pointer: string;
  /** Its position in its list, from 0. */
  index: number;
  /** A ruleset rule's: the kind of its ruleset, when the file says (`root` entry points take execute only). */
  rulesetKind?: string;
  /** The position in the file of a JSON pointer into the document. */
  locate: (pointer: string) => Position;
}

/** Where an expression typed on the command line (or read from stdin) has its positions: in itself. */
export function expressionEntry(
  source: string,
  expression: string,
  kind: 'filter' | 'rewrite',
): ExpressionEntry {
  return { source, expression, kind, locate: (offset) => spanOf(expression, offset, offset) };
}

/**
 * Reads a `--file`: JSON when its first non-blank character is `[` or `{` (no expression starts that
 * way), else a text file of expressions, one per line (always, with `textOnly`: a `.cfrules` file). Throws a UsageError for JSON that is malformed or
 * does not have one of the shapes the Cloudflare API uses.
 */
export function readRuleFile(
  name: string,
  path: string | undefined,
  text: string,
  textOnly = false,
): ExpressionEntry[] {
  const bom = text.startsWith('\uFEFF') ? 1 : 0;
  if (!textOnly && isJsonText(text)) return readJsonFile(name, path, text, bom);
  return readTextFile(name, path, text.slice(bom), bom);
}

/** Whether a file holds JSON rather than expressions: no expression starts with `[` or `{`. */
export function isJsonText(text: string): boolean {
  return /^\uFEFF?\s*[[{]/.test(text);
}

/** One expression per line; blank lines and lines starting with `#` are skipped. */
function readTextFile(name: string, path: string | undefined, text: string, at: number): ExpressionEntry[] {
  const entries: ExpressionEntry[] = [];
  let start = at;
  text.split(/\r?\n/).forEach((line, index) => {
    const lineStart = start;
    start += line.length + (text[start + line.length] === '\r' ? 2 : 1);
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) return;
    entries.push({
      source: name,
      path,
      expression: line,
      kind: 'filter',
      // The expression is the whole line, so its columns are the file's.
      locate: (offset) => ({ line: index + 1, column: spanOf(line, offset, offset).column }),
      written: { start: lineStart, end: lineStart + line.length, json: false },
    });
  });
  return entries;
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const isObject = (value: Json | undefined): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const expectedShapes =
  'expected an array of filters ([{"id", "expression"}]) or of firewall rules ([{"id", "filter": ' +
  '{"expression"}, "action"}]), a ruleset ({"phase", "rules": [{"expression", "action"}]}), or one of ' +
  'them in an API response ({"result": …})';

/** Extracts the expressions of filters, firewall rules or a ruleset, as the Cloudflare API shows them. */
function readJsonFile(name: string, path: string | undefined, text: string, bom: number): ExpressionEntry[] {
  const document = parseJsonInput(name, text.slice(bom), path) as Json;
  const strings = new JsonStrings(text.slice(bom), bom);
  const entries: ExpressionEntry[] = [];
  const fail: (what: string) => never = (what) => {
    throw new UsageError(`${name}: ${what}`, path === undefined ? undefined : { file: path });
  };
  const add: Add = (expression, kind, field, about, pointer) => {
    const object: RuleObject | undefined =
      about.object && kind === 'filter'
        ? { ...about.object, locate: (pointer) => strings.locatePointer(pointer) }
        : undefined;
    entries.push({
      source: name,
      path,
      rule: about.rule,
      item: about.item,
      description: about.description,
      field,
      expression,
      kind,
      phase: about.phase,
      ...strings.claim(expression, pointer),
      ...(object ? { object } : {}),
    });
  };

  let body = document;
  let root = ''; // the JSON pointer of `body`
  // The API's envelope: {result, success, errors, messages}.
  if (isObject(body) && 'result' in body && !('rules' in body) && !('expression' in body)) {
    if (body.success === false)
      fail(`the API response reports a failure: ${JSON.stringify(body.errors ?? [])}`);
    body = body.result;
    root = '/result';
  }

  if (Array.isArray(body)) {
    for (const [index, item] of body.entries()) {
      if (!isObject(item)) fail(`item #${index + 1} is not an object; ${expectedShapes}`);
      readLegacyItem(item, index, `${root}/${index}`, add, fail);
    }
  } else if (isObject(body) && Array.isArray(body.rules)) {
    const phase = body.phase ?? undefined;
    if (phase !== undefined && typeof phase !== 'string') fail('the ruleset\'s "phase" is not a string');
    // A managed ruleset's rules are Cloudflare's, read-only: no API check applies to them.
    const checked = body.kind !== 'managed';
    for (const [index, rule] of body.rules.entries()) {
      if (!isObject(rule)) fail(`rule #${index + 1} of the ruleset is not an object`);
      const about = ruleInfo(rule, index, phase);
      if (checked)
        about.object = {
          kind: 'ruleset-rule',
          value: rule,
          pointer: `${root}/rules/${index}`,
          index,
          ...(typeof body.kind === 'string' ? { rulesetKind: body.kind } : {}),
        };
      if (typeof rule.expression !== 'string')
        fail(`rule ${about.rule} of the ruleset has no "expression" string`);
      add(rule.expression, 'filter', 'expression', about, `${root}/rules/${index}/expression`);
      addRewrites(rule, about, add, `${root}/rules/${index}`);
    }
  } else if (isObject(body) && (isObject(body.filter) || typeof body.expression === 'string')) {
    readLegacyItem(body, 0, root, add, fail); // one filter or firewall rule, as GET …/filters/ID returns it
  } else {
    fail(`unrecognised JSON: ${expectedShapes}`);
  }
  return entries;
}

interface RuleInfo {
  rule: string;
  item: 'filter' | 'rule';
  description?: string;
  phase?: string;
  object?: Omit<RuleObject, 'locate'>;
}

/** Takes one expression of the file: its kind, its field in the rule, the rule, and its JSON pointer. */
type Add = (
  expression: string,
  kind: 'filter' | 'rewrite',
  field: string,
  about: RuleInfo,
  pointer: string,
) => void;

/** A filter (`{id, expression}`) or a firewall rule (`{id, filter: {id, expression}, action}`). */
function readLegacyItem(
  item: JsonObject,
  index: number,
  pointer: string,
  add: Add,
  fail: (what: string) => never,
): void {
  const filter = item.filter;
  if (isObject(filter)) {
    const about = ruleInfo(item, index, 'firewall_rules');
    about.object = { kind: 'firewall-rule', value: item, pointer, index };
    if (about.description === undefined && typeof filter.description === 'string' && filter.description)
      about.description = filter.description;
    if (typeof filter.expression !== 'string')
      fail(`the filter of firewall rule ${about.rule} has no "expression" string`);
    add(filter.expression as string, 'filter', 'filter.expression', about, `${pointer}/filter/expression`);
  } else if (typeof item.expression === 'string') {
    // A filter, or a ruleset rule given without its ruleset (it has an action, and no known phase).
    const about =
      'action' in item ? ruleInfo(item, index, undefined) : ruleInfo(item, index, 'firewall_rules', 'filter');
    const kind = 'action' in item ? 'ruleset-rule' : 'filter';
    about.object = { kind, value: item, pointer, index };
    add(item.expression, 'filter', 'expression', about, `${pointer}/expression`);
    addRewrites(item, about, add, pointer);
  } else {
    fail(`item #${index + 1} has neither "expression" nor "filter": ${expectedShapes}`);
  }
}

function ruleInfo(
  item: JsonObject,
  index: number,
  phase: string | undefined,
  kind: 'filter' | 'rule' = 'rule',
): RuleInfo {
  const text = (value: Json | undefined) => (typeof value === 'string' && value !== '' ? value : undefined);
  return {
    rule: text(item.id) ?? text(item.ref) ?? `#${index + 1}`,
    item: kind,
    description: text(item.description),
    phase,
  };
}

/** Rewrite expressions of URL rewrites, header modifications and dynamic redirects. */
function addRewrites(rule: JsonObject, about: RuleInfo, add: Add, pointer: string): void {
  const parameters = rule.action_parameters;
  if (!isObject(parameters)) return;
  const at = (value: Json | undefined, ...keys: string[]): Json | undefined => {
    let current = value;
    for (const key of keys) current = isObject(current) ? current[key] : undefined;
    return current;
  };
  // `keys` are the members from action_parameters to the expression: its field and its JSON pointer.
  const rewrite = (value: Json | undefined, keys: string[]) => {
    if (typeof value !== 'string') return;
    const escaped = keys.map((key) => key.replaceAll('~', '~0').replaceAll('/', '~1'));
    const where = `${pointer}/action_parameters/${escaped.join('/')}`;
    add(value, 'rewrite', `action_parameters.${keys.join('.')}`, about, where);
  };
  rewrite(at(parameters, 'uri', 'path', 'expression'), ['uri', 'path', 'expression']);
  rewrite(at(parameters, 'uri', 'query', 'expression'), ['uri', 'query', 'expression']);
  const headers = parameters.headers;
  if (isObject(headers))
    for (const [header, change] of Object.entries(headers))
      rewrite(at(change, 'expression'), ['headers', header, 'expression']);
  rewrite(at(parameters, 'from_value', 'target_url', 'expression'), [
    'from_value',
    'target_url',
    'expression',
  ]);
}

/**
 * The string literals of a JSON text, to find where an expression is written: the raw text may escape it
 * in several ways (`\"`, `\u00e9`, `\/`), so literals are decoded and compared, not searched for.
 */
class JsonStrings {
  private literals?: { start: number; end: number; value: string; used: boolean }[];
  /** How many literals hold each value. */
  private counts?: Map<string, number>;
  private cursor = 0;
  private lineStarts?: number[];

  /** `base`: where `text` starts in the file (after a byte order mark). */
  constructor(
    private readonly text: string,
    private readonly base = 0,
  ) {}

  /**
   * Where `expression`, the value at JSON pointer `pointer`, is written: a function that maps offsets into
   * it to positions in the file (line 1 if not found), and the literal's extent. The pointer tells it from
   * an equal string elsewhere (a description that reads as the expression).
   */
  claim(expression: string, pointer: string): Pick<ExpressionEntry, 'locate' | 'written'> {
    // Found by value; by pointer only when another string holds the same value, since following a pointer
    // reads the text from its start (for every expression of a large file, that adds up).
    const literal =
      (this.isRepeated(expression)
        ? this.at(jsonPointerOffset(this.text, pointer), expression)
        : undefined) ?? this.find(expression);
    if (!literal) return { locate: () => ({ line: 1, column: 1 }) };
    return {
      locate: (offset) => this.position(rawOffset(this.text, literal.start + 1, literal.end - 1, offset)),
      written: { start: this.base + literal.start, end: this.base + literal.end, json: true },
    };
  }

  /** Whether more than one string literal of the text holds `value`. */
  private isRepeated(value: string): boolean {
    if (!this.counts) {
      this.literals ??= scanStrings(this.text);
      this.counts = new Map();
      for (const literal of this.literals)
        this.counts.set(literal.value, (this.counts.get(literal.value) ?? 0) + 1);
    }
    return (this.counts.get(value) ?? 0) > 1;
  }

  /** The literal starting at `offset`, if it holds `value`. */
  private at(offset: number, value: string) {
    this.literals ??= scanStrings(this.text);
    const literals = this.literals;
    // The literals are in document order: a binary search by start.
    let low = 0;
    let high = literals.length - 1;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (literals[middle].start < offset) low = middle + 1;
      else high = middle;
    }
    const literal = literals[low];
    if (!literal || literal.start !== offset || literal.value !== value) return undefined;
    literal.used = true;
    return literal;
  }

  /** The first unused literal holding `value`, looking after the previous one first (document order). */
  private find(value: string) {
    this.literals ??= scanStrings(this.text);
    const literals = this.literals;
    const matches = (i: number) => !literals[i].used && literals[i].value === value;
    let found = -1;
    for (let i = this.cursor; i < literals.length && found < 0; i++) if (matches(i)) found = i;
    for (let i = 0; i < this.cursor && found < 0; i++) if (matches(i)) found = i;
    if (found < 0) return undefined;
    literals[found].used = true;
    this.cursor = found + 1;
    return literals[found];
  }

  /** The position of the value a JSON pointer leads to (or of the nearest container, if it is not there). */
  locatePointer(pointer: string): Position {
    return this.position(jsonPointerOffset(this.text, pointer));
  }

  private position(offset: number): Position {
    if (!this.lineStarts) {
      this.lineStarts = [0];
      for (let i = 0; i < this.text.length; i++)
        if (this.text.charCodeAt(i) === 10) this.lineStarts.push(i + 1);
    }
    const starts = this.lineStarts;
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (starts[middle] <= offset) low = middle;
      else high = middle - 1;
    }
    return { line: low + 1, column: utf8Length(this.text, starts[low], offset) + 1 };
  }
}

/** Every string value (not the keys) of a valid JSON text, with its decoded value. */
function scanStrings(text: string) {
  const literals: { start: number; end: number; value: string; used: boolean }[] = [];
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) !== 34) continue; // outside strings, a quote always opens one
    const start = i;
    for (i++; i < text.length && text.charCodeAt(i) !== 34; i++) if (text.charCodeAt(i) === 92) i++;
    const end = i + 1;
    if (/^\s*:/.test(text.slice(end, end + 32))) continue; // a key, not a value
    literals.push({ start, end, value: JSON.parse(text.slice(start, end)) as string, used: false });
  }
  return literals;
}

/** The offset in the raw literal `text[from, to)` of the decoded offset `target`. */
function rawOffset(text: string, from: number, to: number, target: number): number {
  let raw = from;
  for (let decoded = 0; decoded < target && raw < to; decoded++) {
    if (text.charCodeAt(raw) !== 92) raw += 1;
    else raw += text[raw + 1] === 'u' ? 6 : 2;
  }
  return raw;
}
