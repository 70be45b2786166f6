import { DEFAULT_SCORE_THRESHOLD } from '../../../src/engine/managed/constants.js';
import { compileZone } from '../../../src/engine/zone/zone.js';
import { readSampleRequest } from '../../../src/request/index.js';
import { prepareRe2 } from '../regex/re2-browser.js';
import { ZONE_ENGINE_GLOBAL, type ZoneEngine } from './engine.js';

// The entry of playground-zone.js (see ./engine.ts): defines the zone engine for the page.

const engine: ZoneEngine = {
  compileZone,
  readSampleRequest,
  prepareRe2,
  defaultScoreThreshold: DEFAULT_SCORE_THRESHOLD,
};
(globalThis as unknown as Record<string, ZoneEngine>)[ZONE_ENGINE_GLOBAL] = engine;
