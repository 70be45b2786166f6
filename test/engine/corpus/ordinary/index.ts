import type { Entry } from '../http.js';
import { cliCall, graphql, jsonRpc, mobileWrite, restRead, restWrite } from './api.js';
import { listing, mailTracking, media, oauth, preflight, searchVisit, signedUrl, visit } from './browse.js';
import { CorpusBuilder } from './build.js';
import { BORDERLINE_POSTS } from './data/content.js';
import { SEARCHES_EN, SEARCHES_WORLD } from './data/text.js';
import { borderlinePost, formPost, upload } from './forms.js';
import { crawl, monitor } from './machines.js';
import { Random } from './random.js';
import { webhook } from './webhooks.js';

/**
 * Ordinary traffic (README.md beside this file): browser visits, searches, API calls, forms, uploads,
 * webhooks, monitors and crawlers, generated from a seed. The same seed gives the same corpus.
 */

export const DEFAULT_SEED = 20240501;

/** How many times each generator runs (a visit or a search yields several requests). */
const PLAN: readonly (readonly [(corpus: CorpusBuilder) => void, number])[] = [
  [visit, 240],
  [listing, 200],
  [preflight, 120],
  [media, 60],
  [oauth, 70],
  [signedUrl, 70],
  [mailTracking, 50],
  [restWrite, 400],
  [restRead, 200],
  [mobileWrite, 150],
  [cliCall, 60],
  [graphql, 160],
  [jsonRpc, 50],
  [formPost, 230],
  [upload, 90],
  [webhook, 130],
  [monitor, 150],
  [crawl, 160],
];

/** Kinds whose requests a real site receives from legitimate users but that discuss or show attacks. */
export const BORDERLINE_KINDS: ReadonlySet<string> = new Set(BORDERLINE_POSTS.map((post) => post.kind));

export function ordinaryCorpus(seed: number = DEFAULT_SEED): Entry[] {
  const corpus = new CorpusBuilder(new Random(seed));
  for (const [generate, times] of PLAN) for (let i = 0; i < times; i++) generate(corpus);
  // Every search text is typed twice, on different sites.
  for (const text of [...SEARCHES_EN, ...SEARCHES_WORLD]) {
    searchVisit(corpus, text);
    searchVisit(corpus, text);
  }
  for (let i = 0; i < BORDERLINE_POSTS.length * 3; i++) borderlinePost(corpus, i);
  return corpus.entries;
}
