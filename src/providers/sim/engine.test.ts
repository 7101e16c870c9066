import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../core/messages.js';
import { countPromptTokens, countTokens } from '../../core/tokens.js';
import { pathIndependence, simulate, type SimRequest } from './engine.js';

const THOROUGH_SKILL = 'Explain your reasoning thoroughly, step by step. Give the final answer in double square brackets, like [[42]].';

function request(messages: ChatMessage[], overrides: Partial<SimRequest> = {}): SimRequest {
  return { model: 'sim-small', messages, maxTokens: 512, temperature: 0.2, n: 1, ...overrides };
}

describe('simulate', () => {
  const messages: ChatMessage[] = [
    { role: 'system', content: THOROUGH_SKILL },
    { role: 'user', content: 'Compute 47 + 38 * 3.' },
  ];

  it('is deterministic for the same request and seed', () => {
    const a = simulate(request(messages, { n: 4, temperature: 1 }), { seed: 7 });
    const b = simulate(request(messages, { n: 4, temperature: 1 }), { seed: 7 });
    expect(b).toEqual(a);
  });

  it('changes with the seed', () => {
    const texts = new Set<string>();
    for (let seed = 0; seed < 40; seed += 1) {
      texts.add(simulate(request([{ role: 'user', content: 'Find a three-digit number whose digits sum to 15 and that is divisible by 7.' }]), { seed }).choices[0]?.text ?? '');
    }
    expect(texts.size).toBeGreaterThan(3);
  });

  it('bills the prompt with countPromptTokens and each completion with countTokens', () => {
    const result = simulate(request(messages), { seed: 1 });
    const choice = result.choices[0];
    expect(choice?.finishReason).toEqual({ unified: 'stop', raw: 'stop' });
    expect(result.usage.inputTokens).toBe(countPromptTokens(messages));
    expect(result.usage.outputTokens).toBe(countTokens(choice?.text ?? ''));
    expect(result.usage.totalTokens).toBe((result.usage.inputTokens ?? 0) + (result.usage.outputTokens ?? 0));
  });

  it('truncates at maxTokens with finish reason length and exactly maxTokens completion tokens', () => {
    const full = simulate(request(messages), { seed: 1 });
    const fullTokens = full.usage.outputTokens ?? 0;
    expect(fullTokens).toBeGreaterThan(100);
    for (const maxTokens of [1, 17, 50, fullTokens - 1]) {
      const cut = simulate(request(messages, { maxTokens }), { seed: 1 });
      const choice = cut.choices[0];
      expect(choice?.finishReason).toEqual({ unified: 'length', raw: 'length' });
      expect(cut.usage.outputTokens).toBe(maxTokens);
      expect(countTokens(choice?.text ?? '')).toBe(maxTokens);
      expect(full.choices[0]?.text.startsWith(choice?.text ?? '?')).toBe(true);
    }
    const exact = simulate(request(messages, { maxTokens: fullTokens }), { seed: 1 });
    expect(exact.choices[0]?.finishReason.unified).toBe('stop');
  });

  it('bills the prompt once for native n and sums the completions', () => {
    const result = simulate(request(messages, { n: 8, temperature: 1 }), { seed: 3 });
    expect(result.choices).toHaveLength(8);
    const completions = result.choices.reduce((sum, c) => sum + countTokens(c.text), 0);
    expect(result.usage.inputTokens).toBe(countPromptTokens(messages));
    expect(result.usage.outputTokens).toBe(completions);
    expect(result.usage.totalTokens).toBe(countPromptTokens(messages) + completions);
    expect(result.usage.cachedTokens).toBe(0);
  });

  it('gives path 0 of a native call the same answer as an n=1 call', () => {
    const single = simulate(request(messages, { temperature: 1 }), { seed: 5 });
    const many = simulate(request(messages, { n: 8, temperature: 1 }), { seed: 5 });
    expect(many.choices[0]?.text).toBe(single.choices[0]?.text);
  });

  it('repeats itself at low temperature and varies at high temperature', () => {
    const search = [{ role: 'user' as const, content: 'Find a four-digit number whose digits sum to 20 and that is divisible by 13.' }];
    const cold = simulate(request(search, { n: 8, temperature: 0.2 }), { seed: 2 });
    expect(new Set(cold.choices.map((c) => c.text)).size).toBe(1);
    const hot = simulate(request(search, { n: 8, temperature: 1 }), { seed: 2 });
    expect(new Set(hot.choices.map((c) => c.text)).size).toBeGreaterThan(3);
    expect(pathIndependence(0.2, false)).toBe(0);
    expect(pathIndependence(0.2, true)).toBe(1);
  });

  it('ignores the model name and the system prompt when drawing luck (common random numbers)', () => {
    const user = { role: 'user' as const, content: 'Find a three-digit number whose digits sum to 12 and that is divisible by 11.' };
    const a = simulate(request([{ role: 'system', content: 'Reply with the number only.' }, user]), { seed: 9 });
    const b = simulate(request([{ role: 'system', content: 'You are careful. Reply with the number only.' }, user]), { seed: 9 });
    expect(b.choices[0]?.text).toBe(a.choices[0]?.text);
  });

  it('answers an unrecognized prompt with a short deterministic reply', () => {
    const result = simulate(request([{ role: 'user', content: 'Say hello.' }]), { seed: 0 });
    expect(result.task).toBe('fallback');
    expect(result.choices[0]?.text).toContain('Hello, world!');
  });

  it('reports a latency from the profile', () => {
    const small = simulate(request(messages), { seed: 1 });
    const large = simulate(request(messages, { model: 'sim-large' }), { seed: 1 });
    expect(small.latencyMs).toBeGreaterThan(0);
    expect(large.latencyMs).toBeGreaterThan(small.latencyMs);
  });

  it('rejects a non-positive n', () => {
    expect(() => simulate(request(messages, { n: 0 }), { seed: 0 })).toThrow(RangeError);
  });
});
