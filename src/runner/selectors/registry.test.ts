import { describe, expect, test } from 'vitest';
import type { SelectorConfig } from '../../config/types.js';
import type { EvalCase } from '../../core/case.js';
import { exactScorer } from '../../scorers/exact.js';
import { createSelector } from './registry.js';

const evalCase: EvalCase = { id: 'c1', input: 'q', messages: undefined, expected: 'Paris', reference: undefined, category: undefined, tags: [], cluster: undefined, metadata: {}, source: { file: 't.jsonl', line: 1 } };
const outputs = ['Lyon', 'PARIS', 'Lyon', 'Paris'];

describe('createSelector', () => {
  test.each<{ config: SelectorConfig; name: string; index: number }>([
    { config: { type: 'oracle' }, name: 'oracle', index: 3 },
    { config: { type: 'majority' }, name: 'majority', index: 0 },
    { config: { type: 'verifier', scorer: undefined }, name: 'verifier', index: 3 },
    { config: { type: 'verifier', scorer: { type: 'normalized' } }, name: 'verifier', index: 1 },
    { config: { type: 'verifier', scorer: { type: 'regex', pattern: '^[A-Z]+$', flags: '' } }, name: 'verifier', index: 1 },
  ])('$config.type → $name picks $index', async ({ config, name, index }) => {
    const selector = createSelector(config, exactScorer());
    expect(selector.name).toBe(name);
    expect((await selector.select({ outputs, evalCase })).index).toBe(index);
  });
});
