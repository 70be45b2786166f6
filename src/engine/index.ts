// The engine: which rules fire on a request, for a whole zone (docs/engine.md).
export type * from './outcome.js';
export { STAGES } from './outcome.js';
export type * from './zone/model.js';
export type * from './zone/types.js';
