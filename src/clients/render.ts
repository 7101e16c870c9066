/**
 * `clients write`: the client configs for a target, pure. An existing file is merged into
 * (its other settings and providers kept), never silently replaced. A key value appears only
 * when the caller asked for it; otherwise the slot holds the seed's `YOUR_API_KEY`
 * placeholder (CC Switch's link simply has no `apiKey`), and Codex only ever names the
 * variable (`env_key`). What is written passes `clients lint` — a combination lint would
 * flag (Codex on a server without /v1/responses, a Bearer key for api.anthropic.com) is
 * refused here instead.
 */
import { parse, stringify } from 'smol-toml';
import { IsobudgetError } from '../core/errors.js';
import { ccSwitchProvider } from './cc-switch.js';
import { buildCcSwitchLink, type CcSwitchApp } from './cc-switch-link.js';
import { claudeSettings, defaultAuthVar, isAnthropicApiHost, isObject, type ClaudeAuthVar } from './claude-code.js';
import { codexConfig } from './codex.js';
import type { ClientKind } from './finding.js';
import { sideUrl, type ClientTarget } from './target.js';

export const KEY_PLACEHOLDER = 'YOUR_API_KEY';

/** CC Switch: its import deep link (what the app imports), or the seed's three-field JSON. */
export type CcSwitchFormat = 'link' | 'seed';

export interface RenderRequest {
  client: ClientKind;
  target: ClientTarget;
  /** Claude Code's auth variable; undefined: ANTHROPIC_API_KEY for api.anthropic.com, else ANTHROPIC_AUTH_TOKEN. */
  authVar: ClaudeAuthVar | undefined;
  model: string | undefined;
  /** The key itself, only when the user asked for it (--include-key). */
  keyValue: string | undefined;
  /** The file being replaced, if any. */
  existing: string | undefined;
  /** CC Switch only (defaults: link, claude). */
  format?: CcSwitchFormat;
  app?: CcSwitchApp;
}

export interface Rendered {
  text: string;
  /** The text holds a real key (write it owner-only, never print it unasked). */
  containsKey: boolean;
}

export function renderClientConfig(request: RenderRequest): Rendered {
  const { target } = request;
  const key = request.keyValue ?? KEY_PLACEHOLDER;
  const containsKey = request.keyValue !== undefined;
  switch (request.client) {
    case 'claude-code': {
      const base = sideUrl(target.anthropic, 'claude-code');
      const existing = request.existing === undefined ? {} : parseExisting(request.existing, 'json');
      return { text: `${JSON.stringify(claudeSettings(existing, base, claudeAuthVar(base, request.authVar), key), null, 2)}\n`, containsKey };
    }
    case 'codex': {
      const existing = request.existing === undefined ? {} : parseExisting(request.existing, 'toml');
      const config = codexConfig(existing, { id: target.id, name: target.name, baseUrl: sideUrl(target.openai, 'codex'), envKey: target.keyEnv, model: request.model, disableWebSearch: target.gateway === true });
      return { text: `${stringify(config)}\n`, containsKey: false };
    }
    case 'cc-switch': {
      const app = request.app ?? 'claude';
      if (request.format === 'seed') {
        if (app !== 'claude') throw new IsobudgetError('usage', 'clients write cc-switch --format seed: the three-field JSON is the Claude side only', { hint: 'drop --app codex, or use the link (the default format)' });
        return { text: `${JSON.stringify(ccSwitchProvider(target.name, sideUrl(target.anthropic, 'cc-switch'), key), null, 2)}\n`, containsKey };
      }
      const endpoint = app === 'claude' ? sideUrl(target.anthropic, 'cc-switch --app claude') : sideUrl(target.openai, 'cc-switch --app codex');
      // CC Switch writes a Claude provider's key as ANTHROPIC_AUTH_TOKEN (Bearer), which the Anthropic API does not take.
      if (app === 'claude' && isAnthropicApiHost(endpoint)) {
        throw new IsobudgetError('usage', 'clients write cc-switch: CC Switch stores a Claude provider\'s key as ANTHROPIC_AUTH_TOKEN (Authorization: Bearer), and api.anthropic.com takes API keys only as x-api-key', {
          hint: 'use `isobudget clients write claude-code --provider anthropic` (writes ANTHROPIC_API_KEY), or CC Switch\'s built-in official Anthropic preset',
        });
      }
      return { text: `${buildCcSwitchLink({ app, name: target.name, endpoint, homepage: target.homepage, model: request.model, apiKey: request.keyValue })}\n`, containsKey };
    }
  }
}

/** The configured or default auth variable; a Bearer token for api.anthropic.com is refused (lint would flag it). */
function claudeAuthVar(baseUrl: string, asked: ClaudeAuthVar | undefined): ClaudeAuthVar {
  if (asked === 'ANTHROPIC_AUTH_TOKEN' && isAnthropicApiHost(baseUrl)) {
    throw new IsobudgetError('usage', 'clients write claude-code: api.anthropic.com takes API keys as x-api-key (ANTHROPIC_API_KEY), not as a Bearer ANTHROPIC_AUTH_TOKEN', { hint: 'drop --auth token (the default for api.anthropic.com is ANTHROPIC_API_KEY)' });
  }
  return asked ?? defaultAuthVar(baseUrl);
}

function parseExisting(text: string, format: 'json' | 'toml'): Record<string, unknown> {
  let value: unknown;
  try {
    value = format === 'json' ? JSON.parse(text) : parse(text);
  } catch (error) {
    throw new IsobudgetError('parse', `the existing file is not valid ${format.toUpperCase()}, so it cannot be merged: ${(error as Error).message.split('\n')[0] ?? ''}`, {
      hint: 'fix it or move it away, then run clients write again',
    });
  }
  if (!isObject(value)) throw new IsobudgetError('parse', 'the existing file is not an object, so it cannot be merged', { hint: 'move it away, then run clients write again' });
  return value;
}
