/** Named providers: one word in the config fills protocol, base URL and key variable. */
import type { Protocol } from '../providers/spec.js';

export const PRESET_NAMES = ['sim', 'openai', 'anthropic', 'taotoken', 'openrouter', 'deepseek'] as const;
export type PresetName = (typeof PRESET_NAMES)[number];

export interface ProviderPreset {
  protocol: Protocol;
  baseUrl: string;
  /** Env var the key is read from; undefined when the provider needs no key. */
  apiKeyEnv: string | undefined;
}

export const PRESETS: Readonly<Record<PresetName, ProviderPreset>> = {
  sim: { protocol: 'sim', baseUrl: 'sim://local', apiKeyEnv: undefined },
  openai: { protocol: 'openai-chat', baseUrl: 'https://api.openai.com/v1', apiKeyEnv: 'OPENAI_API_KEY' },
  anthropic: { protocol: 'anthropic-messages', baseUrl: 'https://api.anthropic.com', apiKeyEnv: 'ANTHROPIC_API_KEY' },
  taotoken: { protocol: 'openai-chat', baseUrl: 'https://taotoken.net/api', apiKeyEnv: 'TAOTOKEN_API_KEY' },
  openrouter: { protocol: 'openai-chat', baseUrl: 'https://openrouter.ai/api/v1', apiKeyEnv: 'OPENROUTER_API_KEY' },
  deepseek: { protocol: 'openai-chat', baseUrl: 'https://api.deepseek.com', apiKeyEnv: 'DEEPSEEK_API_KEY' },
};
