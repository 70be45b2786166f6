import { expressionFileFinder } from './expression-file.js';
import { jsonRulesFinder } from './json-rules.js';
import type { DocumentKind, RegionFinder } from './region.js';

/**
 * The kinds of document the server reads, the first that accepts a document wins. Terraform is the next:
 * a finder over the HCL reader of src/terraform/ (each `expression` of a `cloudflare_ruleset` rule or a
 * `cloudflare_filter`, with the resource's `phase`, offsets mapped through HCL's escapes and heredocs)
 * goes in this list, and every feature of the server then works in .tf files.
 */
export const REGION_FINDERS: readonly RegionFinder[] = [expressionFileFinder, jsonRulesFinder];

export function finderFor(
  document: DocumentKind,
  finders: readonly RegionFinder[] = REGION_FINDERS,
): RegionFinder | undefined {
  return finders.find((finder) => finder.accepts(document));
}
