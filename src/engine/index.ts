// The engine: which rules fire on a request, for a whole zone (docs/engine.md).
export type * from './outcome.js';
export { STAGES } from './outcome.js';
export { formatTrace, type RuleNote, ruleNotes, type TraceTreeOptions } from './trace-tree.js';
export type * from './zone/model.js';
export { readZone } from './zone/read.js';
export type * from './zone/types.js';
export { compileZone, simulate, ZoneError } from './zone/zone.js';
