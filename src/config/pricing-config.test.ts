import { describe, expect, test } from 'vitest';
import { IsobudgetErrors } from '../core/errors.js';
import { configHash } from '../runner/inputs.js';
import type { ConfigFileAccess } from './file-access.js';
import { parseConfigText } from './load.js';

const files: ConfigFileAccess = { readText: () => 'Answer the question.', isFile: () => true };
const BASE = [
  'experiment: hash-check',
  'provider: { preset: sim }',
  'models: { candidate: sim-small }',
  'variants: { baseline: { id: a, skill: a.md }, candidate: { id: b, skill: b.md } }',
  'datasets: { val: val.jsonl }',
].join('\n');

describe('pricing: in the config', () => {
  test('without `pricing:` the config and its hash are what they were before prices existed (old runs resume)', () => {
    const config = parseConfigText(`${BASE}\n`, '/virtual/experiment.yaml', { files });
    expect('pricing' in config).toBe(false);
    // Computed with the code before prices existed (main at 507468f) on the same text and path.
    expect(configHash(config)).toBe(PRE_PRICING_HASH);
  });

  test('a `pricing:` block is validated with strict keys, normalized, and part of the hash', () => {
    const config = parseConfigText(`${BASE}\npricing:\n  sim-small: { input: 1.5, cached_input: 0.15, output: 6 }\n  gpt-5.4: { input: 2.5, output: 15 }\n`, '/virtual/experiment.yaml', { files });
    expect(config.pricing).toEqual({ 'sim-small': { input: 1.5, cachedInput: 0.15, output: 6 }, 'gpt-5.4': { input: 2.5, cachedInput: undefined, output: 15 } });
    expect(configHash(config)).not.toBe(PRE_PRICING_HASH);
    let error: unknown;
    try {
      parseConfigText(`${BASE}\npricing:\n  sim-small: { input: -1, cache_input: 0.1, output: 2 }\n`, '/virtual/experiment.yaml', { files });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(IsobudgetErrors);
    const text = (error as IsobudgetErrors).format();
    expect(text).toContain('/virtual/experiment.yaml:7:');
    expect(text).toContain('pricing.sim-small.input');
    expect(text).toContain('pricing.sim-small.cache_input');
    expect(text).toContain('cached_input');
  });
});

const PRE_PRICING_HASH = 'b07a65660d95345817a5b9516c82d9a4c6eac5d7acba4a8430e4b6e5a9456624';
