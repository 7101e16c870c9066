/**
 * Whom a client config points at: the isobudget gateway, a provider preset, or any base URL.
 * Claude Code (and CC Switch's Claude side) take an Anthropic-style base URL — the client
 * appends /v1/messages, so it never ends in /v1; Codex (and CC Switch's Codex side) take an
 * OpenAI-style one — Codex appends /responses, so it has its /v1. A side a provider does not
 * serve is refused with the reason, never written.
 */
import { PRESETS, PRESET_NAMES, type PresetName } from '../config/presets.js';
import { IsobudgetError } from '../core/errors.js';
import { anthropicBaseUrl, codexBaseUrl, credentialInUrl, isHttpUrl, shownUrl, trimSlash } from './base-url.js';

/** A client side: its base URL, or why the target cannot serve it. */
export type Side = { url: string } | { unsupported: string };

export interface ClientTarget {
  /** Display name (`name` in Codex, `provider` / `name` in CC Switch). */
  name: string;
  /** Codex provider id, `[model_providers.<id>]`. */
  id: string;
  /** For Claude Code and CC Switch's Claude side (no trailing /v1). */
  anthropic: Side;
  /** For Codex and CC Switch's Codex side (with its /v1). */
  openai: Side;
  /** NAME of the variable that holds the key. */
  keyEnv: string;
  /** The provider's website (CC Switch's `homepage`). */
  homepage: string;
  /** The isobudget gateway: its budgeted keys refuse what they cannot bound (hosted web search). */
  gateway?: boolean;
}

interface PresetSides {
  name: string;
  anthropic: Side;
  openai: Side;
  homepage: string;
}

/**
 * Where each preset serves each protocol. DeepSeek's Anthropic API is at /anthropic
 * (api-docs.deepseek.com, "Anthropic API"); OpenRouter's at /api; TaoToken serves both under
 * /api. OpenAI serves no Anthropic Messages API and Anthropic no OpenAI Responses API.
 */
const PRESET_SIDES: Record<Exclude<PresetName, 'sim'>, PresetSides> = {
  openai: { name: 'OpenAI', anthropic: { unsupported: 'api.openai.com serves no Anthropic Messages API (/v1/messages), which Claude Code speaks' }, openai: { url: 'https://api.openai.com/v1' }, homepage: 'https://openai.com' },
  anthropic: { name: 'Anthropic', anthropic: { url: 'https://api.anthropic.com' }, openai: { unsupported: 'api.anthropic.com serves no OpenAI Responses API (/v1/responses), the only one current Codex speaks' }, homepage: 'https://www.anthropic.com' },
  taotoken: { name: 'TaoToken', anthropic: { url: 'https://taotoken.net/api' }, openai: { url: 'https://taotoken.net/api/v1' }, homepage: 'https://taotoken.net' },
  openrouter: { name: 'OpenRouter', anthropic: { url: 'https://openrouter.ai/api' }, openai: { url: 'https://openrouter.ai/api/v1' }, homepage: 'https://openrouter.ai' },
  deepseek: { name: 'DeepSeek', anthropic: { url: 'https://api.deepseek.com/anthropic' }, openai: { url: 'https://api.deepseek.com/v1' }, homepage: 'https://www.deepseek.com' },
};

export interface TargetChoice {
  gateway?: string | undefined;
  provider?: string | undefined;
  baseUrl?: string | undefined;
  name?: string | undefined;
  id?: string | undefined;
  keyEnv?: string | undefined;
}

export function resolveTarget(choice: TargetChoice): ClientTarget {
  const given = [choice.gateway, choice.provider, choice.baseUrl].filter((v) => v !== undefined).length;
  if (given !== 1) throw new IsobudgetError('usage', 'clients write: give exactly one of --gateway URL, --provider PRESET or --base-url URL');
  let target: ClientTarget;
  if (choice.gateway !== undefined) {
    const root = anthropicBaseUrl(checkUrl(choice.gateway));
    target = { name: 'isobudget gateway', id: 'isobudget', anthropic: { url: root }, openai: { url: `${root}/v1` }, keyEnv: 'ISOBUDGET_API_KEY', homepage: root, gateway: true };
  } else if (choice.provider !== undefined) {
    const preset = (PRESET_NAMES as readonly string[]).includes(choice.provider) && choice.provider !== 'sim' ? (choice.provider as Exclude<PresetName, 'sim'>) : undefined;
    if (!preset) throw new IsobudgetError('usage', `clients write: unknown provider '${choice.provider}'`, { hint: `one of ${PRESET_NAMES.filter((p) => p !== 'sim').join(', ')}, or --base-url URL` });
    const sides = PRESET_SIDES[preset];
    target = { name: sides.name, id: preset, anthropic: sides.anthropic, openai: sides.openai, keyEnv: PRESETS[preset].apiKeyEnv ?? 'API_KEY', homepage: sides.homepage };
  } else {
    // One URL for both sides: the Claude side without its /v1, the Codex side with one.
    const base = trimSlash(checkUrl(choice.baseUrl ?? ''));
    target = { name: choice.name ?? new URL(base).hostname, id: 'custom', anthropic: { url: anthropicBaseUrl(base) }, openai: { url: codexBaseUrl(base) }, keyEnv: 'API_KEY', homepage: homepageOf(base) };
  }
  return { ...target, ...(choice.name ? { name: choice.name } : {}), ...(choice.id ? { id: checkId(choice.id) } : {}), ...(choice.keyEnv ? { keyEnv: choice.keyEnv } : {}) };
}

/** The base URL of a side, or a usage error saying why the target does not serve it. */
export function sideUrl(side: Side, client: string): string {
  if ('url' in side) return side.url;
  throw new IsobudgetError('usage', `clients write ${client}: ${side.unsupported}`, { hint: 'pick a provider that serves this protocol, or put the isobudget gateway in front of one that does' });
}

/** Like CC Switch's own guess (utils.rs infer_homepage_from_endpoint): the host without `api.` / `api-`. */
function homepageOf(base: string): string {
  const url = new URL(base);
  const host = url.host.replace(/^api[.-]/, '');
  return `${url.protocol}//${host}`;
}

function checkUrl(url: string): string {
  if (!isHttpUrl(url)) throw new IsobudgetError('usage', `clients write: '${shownUrl(url)}' is not an http(s) URL`);
  const credential = credentialInUrl(url);
  if (credential) throw new IsobudgetError('usage', `clients write: the URL carries a credential in ${credential}`, { hint: 'pass the bare base URL; the key is read from --key-env and written only with --include-key' });
  return url;
}

function checkId(id: string): string {
  if (!/^[A-Za-z0-9_-]+$/.test(id)) throw new IsobudgetError('usage', `clients write: --id '${id}' must use only letters, digits, _ and -`);
  return id;
}
