import { describe, expect, it } from 'vitest';
import { ProviderError } from '../../core/provider-error.js';
import { countPromptTokens } from '../../core/tokens.js';
import { simulate } from './engine.js';
import { createSimProvider } from './provider.js';

const MESSAGES = [
  { role: 'system' as const, content: 'Reply with the number only.' },
  { role: 'user' as const, content: 'Find a four-digit number whose digits sum to 19 and that is divisible by 13.' },
];

describe('createSimProvider', () => {
  it('describes itself as the in-process sim with native n', () => {
    const provider = createSimProvider({ seed: 1 });
    expect([provider.protocol, provider.baseUrl, provider.supportsNativeN]).toEqual(['sim', 'sim://local', true]);
  });

  it('returns the engine result as a GenerateResult', async () => {
    const provider = createSimProvider({ seed: 4, latencyScale: 0 });
    const result = await provider.generate({ model: 'sim-small', messages: MESSAGES, maxTokens: 100, temperature: 0.2, n: 3 });
    const engine = simulate({ model: 'sim-small', messages: MESSAGES, maxTokens: 100, temperature: 0.2, n: 3 }, { seed: 4 });
    expect(result.status).toBe(200);
    expect(result.responseModel).toBe('sim-small');
    expect(result.choices).toEqual(engine.choices.map((c) => ({ text: c.text, finishReason: c.finishReason })));
    expect(result.usage).toEqual(engine.usage);
    expect(result.usage.inputTokens).toBe(countPromptTokens(MESSAGES));
  });

  it('really waits the simulated latency, scaled', async () => {
    const engine = simulate({ model: 'sim-large', messages: MESSAGES, maxTokens: 100, temperature: 0.2, n: 1 }, { seed: 2 });
    const provider = createSimProvider({ seed: 2, latencyScale: 2 });
    const started = performance.now();
    await provider.generate({ model: 'sim-large', messages: MESSAGES, maxTokens: 100, temperature: 0.2, n: 1 });
    expect(performance.now() - started).toBeGreaterThanOrEqual(engine.latencyMs * 2 - 5);
  });

  it('honours an abort signal, before and during the wait', async () => {
    const provider = createSimProvider({ seed: 0, latencyScale: 100 });
    const aborted = AbortSignal.abort();
    await expect(provider.generate({ model: 'sim-small', messages: MESSAGES, maxTokens: 10, temperature: 0, n: 1, signal: aborted })).rejects.toMatchObject({ kind: 'aborted' });
    const controller = new AbortController();
    const pending = provider.generate({ model: 'sim-small', messages: MESSAGES, maxTokens: 10, temperature: 0, n: 1, signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    const error: unknown = await pending.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).isRetryable).toBe(false);
  });
});
