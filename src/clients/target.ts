/**
 * Whom a client config points at: the isobudget gateway, a provider preset, or any base URL.
 * Claude Code and CC Switch take an Anthropic-style base URL (the client appends
 * /v1/messages); Codex takes an OpenAI-style one (it appends /responses).
 */
import { PRESETS, PRESET_NAMES, type PresetName } from '../config/presets.js';
import { IsobudgetError } from '../core/errors.js';
import { endsWithV1, isHttpUrl, trimSlash } from './base-url.js';

export interface ClientTarget {
  /** Display name (`name` in Codex, `provider` in CC Switch). */
  name: string;
  /** Codex provider id, `[model_providers.<id>]`. */
  id: string;
  /** For Claude Code and CC Switch. */
  anthropicBaseUrl: string;
  /** For Codex. */
  openaiBaseUrl: string;
  /** NAME of the variable that holds the key. */
  keyEnv: string;
}

const DISPLAY: Record<PresetName, string> = { sim: 'isobudget sim', openai: 'OpenAI', anthropic: 'Anthropic', taotoken: 'TaoToken', openrouter: 'OpenRouter', deepseek: 'DeepSeek' };

export interface TargetChoice {
  gateway?: string;
  provider?: string;
  baseUrl?: string;
  name?: string;
  id?: string;
  keyEnv?: string;
}

export function resolveTarget(choice: TargetChoice): ClientTarget {
  const given = [choice.gateway, choice.provider, choice.baseUrl].filter((v) => v !== undefined).length;
  if (given !== 1) throw new IsobudgetError('usage', 'clients write: give exactly one of --gateway URL, --provider PRESET or --base-url URL');
  let target: ClientTarget;
  if (choice.gateway !== undefined) {
    const root = trimSlash(checkUrl(choice.gateway)).replace(/\/v1$/, '');
    target = { name: 'isobudget gateway', id: 'isobudget', anthropicBaseUrl: root, openaiBaseUrl: `${root}/v1`, keyEnv: 'ISOBUDGET_API_KEY' };
  } else if (choice.provider !== undefined) {
    const preset = (PRESET_NAMES as readonly string[]).includes(choice.provider) ? PRESETS[choice.provider as PresetName] : undefined;
    if (!preset || choice.provider === 'sim') throw new IsobudgetError('usage', `clients write: unknown provider '${choice.provider}'`, { hint: `one of ${PRESET_NAMES.filter((p) => p !== 'sim').join(', ')}, or --base-url URL` });
    const base = trimSlash(preset.baseUrl);
    // Anthropic-style clients append /v1/messages themselves.
    const anthropic = endsWithV1(base) ? base.replace(/\/v1$/, '') : base;
    target = { name: DISPLAY[choice.provider as PresetName], id: choice.provider, anthropicBaseUrl: anthropic, openaiBaseUrl: base, keyEnv: preset.apiKeyEnv ?? 'API_KEY' };
  } else {
    const base = trimSlash(checkUrl(choice.baseUrl ?? ''));
    target = { name: choice.name ?? new URL(base).hostname, id: 'custom', anthropicBaseUrl: base, openaiBaseUrl: base, keyEnv: 'API_KEY' };
  }
  return { ...target, ...(choice.name ? { name: choice.name } : {}), ...(choice.id ? { id: checkId(choice.id) } : {}), ...(choice.keyEnv ? { keyEnv: choice.keyEnv } : {}) };
}

function checkUrl(url: string): string {
  if (!isHttpUrl(url)) throw new IsobudgetError('usage', `clients write: '${url}' is not an http(s) URL`);
  return url;
}

function checkId(id: string): string {
  if (!/^[A-Za-z0-9_-]+$/.test(id)) throw new IsobudgetError('usage', `clients write: --id '${id}' must use only letters, digits, _ and -`);
  return id;
}
