import { describe, expect, test, vi } from 'vitest';
import { IsobudgetError } from '../core/errors.js';
import type { Provider } from './spec.js';

// The simulator is its own module; here we only check what createProvider hands it.
const simProvider: Provider = { protocol: 'sim', baseUrl: 'sim://local', supportsNativeN: true, generate: vi.fn() };
const createSimProvider = vi.fn((_options: { seed: number; latencyScale?: number }) => simProvider);
vi.mock('./sim/index.js', () => ({ createSimProvider }));

const { createProvider, DEFAULT_SIM_SEED, LOOPBACK_PLACEHOLDER_KEY } = await import('./create-provider.js');

const base = { apiKey: 'sk-real', timeoutMs: 1_000, headers: {} };

describe('createProvider', () => {
  test.each([
    ['openai-chat', 'https://api.example.com/v1', true],
    ['openai-responses', 'https://api.example.com/v1', false],
    ['anthropic-messages', 'https://api.example.com', false],
  ] as const)('%s builds the matching provider', (protocol, baseUrl, supportsNativeN) => {
    const provider = createProvider({ ...base, protocol, baseUrl });
    expect(provider).toMatchObject({ protocol, baseUrl, supportsNativeN });
  });

  test('sim goes to createSimProvider with the seed and latency scale', () => {
    const provider = createProvider({ ...base, protocol: 'sim', baseUrl: 'sim://local', apiKey: undefined }, { simSeed: 42, simLatencyScale: 0 });
    expect(provider).toBe(simProvider);
    expect(createSimProvider).toHaveBeenLastCalledWith({ seed: 42, latencyScale: 0 });
  });

  test('sim without options gets the default seed and the simulator latency default', () => {
    createProvider({ ...base, protocol: 'sim', baseUrl: 'sim://local', apiKey: undefined });
    expect(createSimProvider).toHaveBeenLastCalledWith({ seed: DEFAULT_SIM_SEED });
  });

  test('no key on a loopback base URL uses the placeholder', async () => {
    const { startStubServer } = await import('./test-support/stub-server.js');
    const { chatCompletionBody } = await import('./test-support/canned-bodies.js');
    const stub = await startStubServer(() => ({ kind: 'json', body: chatCompletionBody() }));
    try {
      const provider = createProvider({ ...base, protocol: 'openai-chat', baseUrl: `${stub.url}/v1`, apiKey: undefined });
      await provider.generate({ model: 'm', messages: [{ role: 'user', content: 'hi' }], maxTokens: 5, temperature: 0, n: 1 });
      expect(stub.requests[0]?.headers['authorization']).toBe(`Bearer ${LOOPBACK_PLACEHOLDER_KEY}`);
    } finally {
      await stub.close();
    }
  });

  test.each(['openai-chat', 'openai-responses', 'anthropic-messages'] as const)(
    'no key on a remote base URL is a user error naming the env var (%s)',
    (protocol) => {
      const build = () =>
        createProvider({ ...base, protocol, baseUrl: 'https://taotoken.net/api', apiKey: undefined, apiKeyEnv: 'TAOTOKEN_API_KEY' });
      expect(build).toThrow(IsobudgetError);
      expect(build).toThrow(/TAOTOKEN_API_KEY is not set/);
    },
  );

  test('an empty key counts as unset', () => {
    expect(() => createProvider({ ...base, protocol: 'openai-chat', baseUrl: 'https://api.example.com/v1', apiKey: '' })).toThrow(
      /API key environment variable is not set/,
    );
  });
});
