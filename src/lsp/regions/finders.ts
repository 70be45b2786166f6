import { loadHclParser } from '../../terraform/parser.js';
import { expressionFileFinder } from './expression-file.js';
import { jsonRulesFinder } from './json-rules.js';
import type { DocumentKind, RegionFinder } from './region.js';
import { terraformFinder } from './terraform.js';

/**
 * The kinds of document the server reads whatever it has loaded, the first that accepts a document wins.
 * `cfrules lsp` adds Terraform files (./terraform.ts) once its HCL parser has loaded (allFinders).
 */
export const REGION_FINDERS: readonly RegionFinder[] = [expressionFileFinder, jsonRulesFinder];

/** Every kind of document, Terraform files included: the HCL parser (WebAssembly) loads first. */
export async function allFinders(): Promise<readonly RegionFinder[]> {
  return [...REGION_FINDERS, terraformFinder(await loadHclParser())];
}

export function finderFor(
  document: DocumentKind,
  finders: readonly RegionFinder[] = REGION_FINDERS,
): RegionFinder | undefined {
  return finders.find((finder) => finder.accepts(document));
}
