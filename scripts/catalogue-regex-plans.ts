/**
 * Writes src/engine/managed/regex-plans.json: the regex layer's plan for every pattern of the managed
 * rulesets' catalogue, worked out afresh (src/engine/managed/regex-plans.ts says why). Run it after changing
 * a catalogue pattern or the regex layer's planning: `npm run catalogue:regex-plans`.
 */
import { writeFileSync } from 'node:fs';
import { catalogueRegexPlanTable } from '../src/engine/managed/regex-plans-table.js';

const path = new URL('../src/engine/managed/regex-plans.json', import.meta.url);
const table = catalogueRegexPlanTable();
// One plan per line, so that a change shows as the lines of the patterns it touched.
writeFileSync(path, `[\n${table.map((plan) => JSON.stringify(plan)).join(',\n')}\n]\n`);
console.log(`wrote ${table.length} regex plans to src/engine/managed/regex-plans.json`);
