/** The only place API keys are read from the environment. The key never appears in an error. */
import { IsobudgetError } from '../core/errors.js';
import type { ExperimentConfig } from './types.js';

/**
 * The API key for `config.provider`, from the env var it names; undefined when the provider
 * needs none (protocol sim, or no `api_key_env` for a keyless local server).
 */
export function readApiKey(config: Pick<ExperimentConfig, 'provider' | 'configPath'>, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const { protocol, apiKeyEnv, preset } = config.provider;
  if (protocol === 'sim' || apiKeyEnv === undefined) return undefined;
  const value = env[apiKeyEnv];
  if (value !== undefined && value.trim() !== '') return value.trim();
  const origin = preset === undefined ? '`provider.api_key_env`' : `preset \`${preset}\``;
  throw new IsobudgetError('api_key_missing', `environment variable ${apiKeyEnv} is not set (named by ${origin})`, {
    location: { file: config.configPath, key: 'provider.api_key_env' },
    hint: `export ${apiKeyEnv}=<your key> in the shell that runs isobudget (or use \`preset: sim\` to run without a key)`,
  });
}
