import { describe, expect, test } from 'vitest';
import { didYouMean, editDistance } from './did-you-mean.js';

describe('didYouMean', () => {
  test.each([
    ['total_token_per_case', ['total_tokens_per_case', 'per_case_max_tokens'], 'total_tokens_per_case'],
    ['best_of_N', ['best_of_n', 'include_judge'], 'best_of_n'],
    ['totalTokensPerCase', ['total_tokens_per_case'], 'total_tokens_per_case'],
    ['max-attempts', ['max_attempts', 'max_delay_ms'], 'max_attempts'],
    ['expriment', ['experiment', 'epochs'], 'experiment'],
    ['banana', ['experiment', 'epochs'], undefined],
  ])('%s → %s', (input, candidates, expected) => {
    expect(didYouMean(input, candidates)).toBe(expected);
  });

  test('an adjacent swap costs one edit', () => {
    expect(editDistance('sede', 'seed')).toBe(1); // plain Levenshtein would say 2
    expect(editDistance('ab', 'ba')).toBe(1);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
  });
});
