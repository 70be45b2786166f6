import { closestName } from '../lang/closest-name.js';
import { UsageError } from './command.js';

/**
 * The command-line parser of the commands that work on expressions. Node's `util.parseArgs` refuses a
 * value that starts with `-` (`-e '-ssl'`), and its messages speak of its own API ("as in '-- "--x"'");
 * expressions often start with a dash-like character, and users deserve messages in the CLI's words.
 */

export interface OptionSpec {
  type: 'string' | 'boolean';
  short?: string;
  multiple?: boolean;
}

export type OptionSpecs = Record<string, OptionSpec>;

/** An option or an argument, in command-line order (validate checks its inputs in that order). */
export type Token = { kind: 'option'; name: string; value?: string } | { kind: 'positional'; value: string };

type Values<T extends OptionSpecs> = {
  [K in keyof T]?: T[K]['type'] extends 'boolean'
    ? boolean
    : T[K]['multiple'] extends true
      ? string[]
      : string;
};

export interface ParsedArgs<T extends OptionSpecs> {
  values: Values<T>;
  positionals: string[];
  tokens: Token[];
}

interface Scan {
  tokens: Token[];
  /** The first mistake, reported only when the user did not ask for help. */
  problem?: string;
  help: boolean;
}

/**
 * Reads `args` the way getopt does: an option that takes a value takes the next argument whatever it
 * starts with (`-e -ssl`), or the rest of its own (`--format=json`, `-essl`); boolean short options combine
 * (`-qw`); `-` is an argument; after `--`, every argument is one, `-h` included.
 */
function scan(args: readonly string[], specs: OptionSpecs): Scan {
  const tokens: Token[] = [];
  const result: Scan = { tokens, help: false };
  const fail = (problem: string) => {
    result.problem ??= problem;
  };
  const shorts = new Map(
    Object.entries(specs).flatMap(([name, spec]) => (spec.short ? [[spec.short, name]] : [])),
  );
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '--') {
      for (const rest of args.slice(i + 1)) tokens.push({ kind: 'positional', value: rest });
      break;
    }
    if (arg === '-' || !arg.startsWith('-')) {
      tokens.push({ kind: 'positional', value: arg });
      continue;
    }
    if (arg === '-h' || arg === '--help') {
      result.help = true;
      continue;
    }
    if (arg.startsWith('--')) {
      const equals = arg.indexOf('=');
      const name = arg.slice(2, equals < 0 ? undefined : equals);
      const spec = Object.hasOwn(specs, name) ? specs[name] : undefined;
      if (!spec) {
        fail(unknownOption(`--${name}`, Object.keys(specs)));
        continue;
      }
      if (spec.type === 'boolean') {
        if (equals >= 0) fail(`option --${name} takes no value`);
        else tokens.push({ kind: 'option', name });
        continue;
      }
      if (equals >= 0) tokens.push({ kind: 'option', name, value: arg.slice(equals + 1) });
      else if (i + 1 < args.length) tokens.push({ kind: 'option', name, value: args[++i] as string });
      else fail(`option --${name} needs a value`);
      continue;
    }
    // Short options: `-q`, `-qw`, `-e EXPR`, `-eEXPR`.
    for (let j = 1; j < arg.length; j++) {
      const letter = arg[j] as string;
      const name = shorts.get(letter);
      if (letter === 'h') {
        result.help = true;
        continue;
      }
      if (name === undefined) {
        fail(unknownOption(`-${letter}`, Object.keys(specs)));
        break;
      }
      if ((specs[name] as OptionSpec).type === 'boolean') {
        tokens.push({ kind: 'option', name });
        continue;
      }
      if (j + 1 < arg.length) tokens.push({ kind: 'option', name, value: arg.slice(j + 1) });
      else if (i + 1 < args.length) tokens.push({ kind: 'option', name, value: args[++i] as string });
      else fail(`option -${letter} (--${name}) needs a value`);
      break;
    }
  }
  return result;
}

function unknownOption(option: string, names: string[]): string {
  const suggestion = option.startsWith('--') ? closestName(option.slice(2), names) : undefined;
  return `unknown option '${option}'${suggestion ? `; did you mean --${suggestion}?` : ''}`;
}

/**
 * Whether `args` ask for the command's help (`-h`, `--help`, before any `--` and not as an option's value),
 * whatever else is wrong with them. Without the command's options, any `-h` before `--` counts.
 */
export function asksForHelp(args: readonly string[], specs: OptionSpecs | undefined): boolean {
  if (!specs) {
    const end = args.indexOf('--');
    return args.slice(0, end < 0 ? undefined : end).some((arg) => arg === '-h' || arg === '--help');
  }
  return scan(args, specs).help;
}

/**
 * The format `args` ask for (the last `--format`, trimmed and in lower case, as `choice` reads it), even if
 * they are wrong otherwise; undefined without one.
 */
export function requestedFormat(args: readonly string[], specs: OptionSpecs | undefined): string | undefined {
  if (!specs?.format) return undefined;
  const formats = scan(args, specs).tokens.flatMap((t) =>
    t.kind === 'option' && t.name === 'format' ? [t.value] : [],
  );
  return formats.at(-1)?.trim().toLowerCase();
}

/** Parses a command's arguments; a mistake is a UsageError. A repeated single-valued option keeps the last. */
export function parseCommandLine<T extends OptionSpecs>(args: readonly string[], specs: T): ParsedArgs<T> {
  const { tokens, problem } = scan(args, specs);
  if (problem) throw new UsageError(problem);
  const values: Record<string, string | boolean | string[]> = {};
  const positionals: string[] = [];
  for (const token of tokens) {
    if (token.kind === 'positional') {
      positionals.push(token.value);
      continue;
    }
    const spec = specs[token.name] as OptionSpec;
    if (spec.type === 'boolean') values[token.name] = true;
    else if (spec.multiple)
      values[token.name] = [...((values[token.name] as string[]) ?? []), token.value ?? ''];
    else values[token.name] = token.value ?? '';
  }
  return { values: values as Values<T>, positionals, tokens };
}

/**
 * A choice among fixed words (`--format`), in any case, as `--plan` and `--phase` are: `--format JSON` is
 * as clear as `--format json`.
 */
export function choice<T extends string>(
  option: string,
  text: string | undefined,
  known: readonly T[],
): T | undefined {
  if (text === undefined) return undefined;
  const value = text.trim().toLowerCase() as T;
  if (!known.includes(value))
    throw new UsageError(
      `unknown ${option.replace(/^--/, '')} '${text}': expected one of ${known.join(', ')}`,
    );
  return value;
}

/**
 * The same words for what Node's `util.parseArgs` reports (cfrules serve still uses it): the option, and
 * what is wrong with it, without Node's advice about its own API.
 */
export function usageMessage(nodeMessage: string): string {
  const option = /'(?:-\w, )?(--?[\w-]+)/.exec(nodeMessage)?.[1] ?? '';
  if (nodeMessage.startsWith('Unknown option')) return `unknown option '${option}'`;
  if (nodeMessage.includes('argument missing')) return `option ${option} needs a value`;
  if (nodeMessage.includes('does not take an argument')) return `option ${option} takes no value`;
  const argument = /^Unexpected argument '(.*)'/s.exec(nodeMessage);
  if (argument) return `unexpected argument '${argument[1]}': this command takes options only`;
  return nodeMessage.split('\n')[0] as string;
}
