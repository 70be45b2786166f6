import type { compileZone } from '../../../src/engine/zone/zone.js';
import type { readSampleRequest } from '../../../src/request/index.js';
import { loadScript } from '../load-script.js';

// Zone mode's engine, loaded the first time zone mode is opened: the zone compiler and the managed rulesets
// (the OWASP Core Ruleset and the Cloudflare Managed Ruleset) are most of the library's code and of its
// start-up work, which Expression mode does without. scripts/web-bundle.mjs bundles ./entry.ts into
// playground-zone.js, a script of its own; it carries its own copy of the core it builds on.

export interface ZoneEngine {
  compileZone: typeof compileZone;
  /** The sample request, read by this script's copy of the library, which simulates it. */
  readSampleRequest: typeof readSampleRequest;
  /** Loads RE2 for this script's copy of the regex layer (the managed rules run regexes). */
  prepareRe2(baseUrl: string): Promise<void>;
  /** The OWASP anomaly-score threshold of a zone that sets none. */
  defaultScoreThreshold: number;
}

/** The global playground-zone.js defines. */
export const ZONE_ENGINE_GLOBAL = 'cfrulesPlaygroundZone';

export const loadZoneEngine = (baseUrl: string): Promise<ZoneEngine> =>
  loadScript<ZoneEngine>(baseUrl, 'playground-zone.js', ZONE_ENGINE_GLOBAL);
