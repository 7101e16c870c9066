/**
 * The one place a Protocol name becomes a Provider. The API key arrives as a value (config/
 * read it from the env var the experiment names); providers never read process.env.
 */
import { IsobudgetError } from '../core/errors.js';
import { isLoopbackUrl } from './loopback.js';
import { createOpenAIChatProvider } from './openai-chat/index.js';
import { createOpenAIResponsesProvider } from './openai-responses/index.js';
import { createSimProvider } from './sim/index.js';
import type { Protocol, Provider } from './spec.js';

export interface CreateProviderConfig {
  protocol: Protocol;
  /** Exactly as configured; OpenAI protocols include the version path (`…/v1`), Anthropic does not. */
  baseUrl: string;
  /** The key's value, or undefined when its env var is unset. */
  apiKey: string | undefined;
  /** Name of the env var that should hold the key, for the error message. */
  apiKeyEnv?: string | undefined;
  /** Per-attempt deadline (ms). */
  timeoutMs: number;
  /** Extra headers sent upstream (never secrets). */
  headers: Record<string, string>;
}

export interface CreateProviderOptions {
  /** Seed of the in-process simulator (protocol `sim`); DEFAULT_SIM_SEED when unset. */
  simSeed?: number;
  /** Multiplier on the simulator's modelled latency; 0 answers at once. */
  simLatencyScale?: number;
}

/**
 * Sent when no key is set and the base URL is loopback: a local simulator or gateway needs
 * no credential, but the SDKs refuse to build a client without one.
 */
export const LOOPBACK_PLACEHOLDER_KEY = 'isobudget-loopback-no-key';

/** Seed of the simulator when the experiment names none: runs stay reproducible by default. */
export const DEFAULT_SIM_SEED = 0;

export function createProvider(config: CreateProviderConfig, options: CreateProviderOptions = {}): Provider {
  if (config.protocol === 'sim') {
    return createSimProvider({
      seed: options.simSeed ?? DEFAULT_SIM_SEED,
      // Left out when unset so the simulator keeps its own default.
      ...(options.simLatencyScale === undefined ? {} : { latencyScale: options.simLatencyScale }),
    });
  }
  const common = {
    baseUrl: config.baseUrl,
    apiKey: resolveApiKey(config),
    timeoutMs: config.timeoutMs,
    headers: config.headers,
  };
  switch (config.protocol) {
    case 'openai-chat':
      return createOpenAIChatProvider(common);
    case 'openai-responses':
      return createOpenAIResponsesProvider(common);
    case 'anthropic-messages':
      // Loaded on first use: the Anthropic SDK costs ~20 MB of RSS that an OpenAI run never needs.
      return lazyProvider({ protocol: 'anthropic-messages', baseUrl: common.baseUrl, supportsNativeN: false }, async () =>
        (await import('./anthropic-messages/anthropic-messages-provider.js')).createAnthropicMessagesProvider(common),
      );
  }
}

function resolveApiKey(config: CreateProviderConfig): string {
  if (config.apiKey !== undefined && config.apiKey !== '') return config.apiKey;
  if (isLoopbackUrl(config.baseUrl)) return LOOPBACK_PLACEHOLDER_KEY;
  const variable = config.apiKeyEnv ?? 'the API key environment variable';
  throw new IsobudgetError(
    'missing_api_key',
    `${variable} is not set: ${config.protocol} at ${config.baseUrl} needs an API key`,
    {
      location: { key: 'provider.api_key_env' },
      hint:
        config.apiKeyEnv === undefined
          ? 'set provider.api_key_env to the name of the variable holding the key, and export it'
          : `export ${config.apiKeyEnv}=<your key> (the key is read from the environment, never from the config file)`,
    },
  );
}

function lazyProvider(meta: Pick<Provider, 'protocol' | 'baseUrl' | 'supportsNativeN'>, load: () => Promise<Provider>): Provider {
  let loading: Promise<Provider> | undefined;
  // Only a protocol whose API counts prompts offers the method (the runner asks whether it is there).
  const counts = meta.protocol === 'anthropic-messages';
  return {
    ...meta,
    async generate(request) {
      return (await (loading ??= load())).generate(request);
    },
    ...(counts
      ? {
          async countPromptTokens(request, signal) {
            const provider = await (loading ??= load());
            if (provider.countPromptTokens === undefined) throw new Error(`${meta.protocol} cannot count prompts`);
            return provider.countPromptTokens(request, signal);
          },
        }
      : {}),
    async close() {
      if (loading) await (await loading).close?.();
    },
  };
}
