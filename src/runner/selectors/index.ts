export type { Selection, Selector, SelectorInput } from './spec.js';
export { createSelector } from './registry.js';
export { oracleSelector } from './oracle.js';
export { majoritySelector } from './majority.js';
export { verifierSelector, type VerifierSelectorOptions } from './verifier.js';
