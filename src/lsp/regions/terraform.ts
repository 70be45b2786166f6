import { TerraformDocument } from '../../terraform/expressions.js';
import type { HclParser } from '../../terraform/parser.js';
import type { DocumentProblem, Region, RegionFinder } from './region.js';

// A Terraform file, read by the HCL reader `cfrules validate` uses (src/terraform/): each `expression` of a
// `cloudflare_ruleset` rule or a `cloudflare_filter` that is a literal string (quoted or heredoc) is a
// region, checked for the resource's `phase` (`firewall_rules` for a filter), with offsets mapped through
// HCL's escapes and a heredoc's indentation both ways. An expression Terraform computes (an interpolation,
// a reference, a function call) cannot be checked, and the editor says so where it is written.

/** Documents whose syntax tree is kept for the next version's incremental parse, the most recent last. */
const KEPT_DOCUMENTS = 32;

/** The finder over a loaded HCL parser (loading it is asynchronous: `cfrules lsp` does it as it starts). */
export function terraformFinder(parser: HclParser): RegionFinder {
  // Each document's last tree, so that a keystroke reparses around the edit only (TerraformDocument).
  const documents = new Map<string, TerraformDocument>();
  const documentOf = (uri: string): TerraformDocument => {
    let document = documents.get(uri);
    if (document) documents.delete(uri);
    else document = new TerraformDocument(parser);
    documents.set(uri, document);
    if (documents.size > KEPT_DOCUMENTS) {
      const [oldest, forgotten] = documents.entries().next().value as [string, TerraformDocument];
      forgotten.dispose();
      documents.delete(oldest);
    }
    return document;
  };
  return {
    name: 'Terraform',
    accepts: ({ uri, languageId }) =>
      languageId === 'terraform' || languageId === 'hcl' || /\.tf$/i.test(uri),
    find(text, uri) {
      const file = documentOf(uri).read(text);
      const regions: Region[] = [];
      const problems: DocumentProblem[] = [];
      for (const found of file.expressions) {
        const literal = found.literal;
        if (!literal) {
          problems.push({
            start: found.start,
            end: found.end,
            severity: 'warning',
            code: 'unchecked-expression',
            message: `the expression of ${found.address}${found.rule ? ` (${found.rule})` : ''} is computed by Terraform, so it cannot be checked before Terraform runs`,
          });
          continue;
        }
        const { expression } = literal;
        regions.push({
          text: expression,
          start: literal.toFile(0),
          end: literal.toFile(expression.length),
          kind: 'filter',
          ...(found.phase === undefined ? {} : { phase: found.phase }),
          toDocument: literal.toFile,
          fromDocument: (offset) => literal.fromFile(offset),
          encode: literal.encode,
        });
      }
      if (file.problem) {
        const at = Math.min(file.problem.offset, text.length);
        problems.push({ start: at, end: Math.min(at + 1, text.length), message: file.problem.message });
      }
      regions.sort((a, b) => a.start - b.start);
      return { regions, problems };
    },
  };
}
