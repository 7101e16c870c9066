import { describe, expect, test } from 'vitest';
import { mergeCumulativeUsage, saneUsage } from './usage-sanity.js';

describe('mergeCumulativeUsage (Anthropic message_start → message_delta…)', () => {
  test('a trailing zero usage event does not win over the real one', () => {
    const usage: Record<string, unknown> = {};
    expect(mergeCumulativeUsage(usage, { input_tokens: 1200, output_tokens: 1 })).toBe(true);
    mergeCumulativeUsage(usage, { output_tokens: 2400 });
    mergeCumulativeUsage(usage, { input_tokens: 0, output_tokens: 0 });
    expect(usage).toEqual({ input_tokens: 1200, output_tokens: 2400 });
  });

  test('null fields change nothing; a bad count makes the stream unknown', () => {
    const usage: Record<string, unknown> = {};
    mergeCumulativeUsage(usage, { output_tokens: 10, cache_read_input_tokens: null });
    expect(mergeCumulativeUsage(usage, { output_tokens: -5 })).toBe(false);
    expect('cache_read_input_tokens' in usage).toBe(false);
  });

  test('the raw object is judged at any depth, the mapped counts by the runs\' rule', () => {
    const mapped = { inputTokens: 10, outputTokens: 5, totalTokens: 3, cachedTokens: undefined, reasoningTokens: undefined };
    expect(saneUsage({ input_tokens: 10, details: { cached_tokens: -1 } }, mapped).totalTokens).toBeUndefined();
    expect(saneUsage({ input_tokens: 10 }, mapped).totalTokens).toBe(15);
  });
});
