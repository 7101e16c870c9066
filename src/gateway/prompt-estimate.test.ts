import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { countTokens } from '../core/tokens.js';
import { estimateBodyTokens, estimatePromptTokens } from './prompt-estimate.js';

const claudeCode = JSON.parse(readFileSync('/work/shared/fixtures/real-clients/claude-code-2.1.332.jsonl', 'utf8').split('\n')[0] ?? '{}') as { body: Record<string, unknown> };

describe('prompt estimates', () => {
  test('a body is never estimated below the tokens of its own text, and the margin is added', async () => {
    const raw = JSON.stringify(claudeCode.body);
    const exact = await estimateBodyTokens(claudeCode.body, raw, true);
    expect(exact).toBeGreaterThanOrEqual(countTokens(raw));
    expect(exact).toBeLessThan(countTokens(raw) * 1.1);
    expect(await estimateBodyTokens(claudeCode.body, raw)).toBe(Math.ceil(exact * 1.15) + 16);
  });

  test('long strings are counted once: the next turn, with the same system prompt and tools, costs little', async () => {
    const body = { ...claudeCode.body, messages: [{ role: 'user', content: 'turn one' }] };
    const first = await estimateBodyTokens(body, JSON.stringify(body), true);
    const next = { ...body, messages: [{ role: 'user', content: 'turn one' }, { role: 'assistant', content: 'ok' }, { role: 'user', content: 'turn two' }] };
    const second = estimateBodyTokens(next, JSON.stringify(next), true);
    // A number, not a promise: the long strings were answered from memory, synchronously
    // (unseen long text is counted in slices and returns a promise). No wall-clock bound: CI load would make it flaky.
    expect(typeof second).toBe('number');
    expect(second as number).toBeGreaterThan(first);
  });

  test('text larger than a slice is counted in slices, asynchronously, never below the whole', async () => {
    const text = 'lorem ipsum dolor sit amet, '.repeat(5000);
    const estimate = estimatePromptTokens(text, true);
    expect(estimate).toBeInstanceOf(Promise);
    expect(await estimate).toBeGreaterThanOrEqual(countTokens(text));
    expect(estimatePromptTokens('short', true)).toBe(countTokens('short'));
  });
});
