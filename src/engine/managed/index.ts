// The managed rulesets: the catalogue (data and lookups) and their evaluation.
export * from './catalogue.js';
export * from './evaluate.js';
