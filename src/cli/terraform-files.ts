import { readTerraform, type TerraformExpression } from '../terraform/expressions.js';
import type { HclParser } from '../terraform/parser.js';
import { type CliIo, UsageError } from './command.js';
import { filesUnder } from './files.js';
import type { ExpressionEntry } from './rule-files.js';

/**
 * Terraform files (`.tf`) as the commands that read expressions see them: each `expression` of a
 * `cloudflare_ruleset` rule or a `cloudflare_filter` is an entry, positioned in the `.tf` file through
 * HCL's escapes and heredocs; one that Terraform computes is an entry marked `unchecked`.
 */

export const isTerraformPath = (path: string): boolean => path.toLowerCase().endsWith('.tf');

/** Whether any of these paths is, or holds, a Terraform file: the parser is then loaded first. */
export function namesTerraform(io: CliIo, paths: readonly string[], extensions: readonly string[]): boolean {
  return paths.some(
    (path) => isTerraformPath(path) || (filesUnder(io, path, extensions) ?? []).some(isTerraformPath),
  );
}

/** The message of an expression that cannot be checked. */
export const uncheckedMessage = (what: string): string =>
  `${what} is computed by Terraform (an interpolation, a reference or a function call), not a literal ` +
  'string: cfrules cannot check it; write the expression as a string or a heredoc to have it checked';

/** The entries of a Terraform file; a file that is not valid HCL is a usage error at its position. */
export function readTerraformFile(
  name: string,
  path: string | undefined,
  text: string,
  parser: HclParser,
): ExpressionEntry[] {
  const file = readTerraform(parser, text);
  if (file.problem) {
    const { line, column } = file.problem.position;
    throw new UsageError(
      `${name}:${line}:${column}: error[${file.problem.code}]: ${name} is not valid HCL: ${file.problem.message}`,
      path === undefined ? undefined : { file: path, line, column },
      file.problem.code,
    );
  }
  return file.expressions.map((found) => entryOf(name, path, found, file.position));
}

function entryOf(
  name: string,
  path: string | undefined,
  found: TerraformExpression,
  position: (offset: number) => { line: number; column: number },
): ExpressionEntry {
  const about = {
    source: name,
    path,
    rule: found.rule === undefined ? found.address : `${found.address}.${found.rule}`,
    item: found.resourceType === 'cloudflare_filter' ? ('filter' as const) : ('rule' as const),
    ...(found.description === undefined ? {} : { description: found.description }),
    field: 'expression',
    kind: 'filter' as const,
    phase: found.phase,
  };
  const literal = found.literal;
  if (!literal)
    return {
      ...about,
      expression: found.source,
      unchecked: uncheckedMessage(found.rule === 'rules' ? 'the rules list' : 'the expression'),
      locate: (offset) => position(found.start + Math.min(offset, found.end - found.start)),
    };
  return {
    ...about,
    expression: literal.expression,
    locate: (offset) => position(literal.toFile(offset)),
    written: { start: found.start, end: found.end, json: false, rewrite: literal.rewrite },
  };
}
