/**
 * `clients write`: the seed's three client configs for a target, pure. An existing file is
 * merged into (its other settings and providers kept), never silently replaced. A key value
 * appears only when the caller asked for it; otherwise the slot holds the seed's
 * `YOUR_API_KEY` placeholder, and Codex only ever names the variable (`env_key`).
 */
import { parse, stringify } from 'smol-toml';
import { IsobudgetError } from '../core/errors.js';
import { ccSwitchProvider } from './cc-switch.js';
import { claudeSettings, isObject, type ClaudeAuthVar } from './claude-code.js';
import { codexConfig } from './codex.js';
import type { ClientKind } from './finding.js';
import type { ClientTarget } from './target.js';

export const KEY_PLACEHOLDER = 'YOUR_API_KEY';

export interface RenderRequest {
  client: ClientKind;
  target: ClientTarget;
  authVar: ClaudeAuthVar;
  model: string | undefined;
  /** The key itself, only when the user asked for it (--include-key). */
  keyValue: string | undefined;
  /** The file being replaced, if any. */
  existing: string | undefined;
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
      const existing = request.existing === undefined ? {} : parseExisting(request.existing, 'json');
      return { text: `${JSON.stringify(claudeSettings(existing, target.anthropicBaseUrl, request.authVar, key), null, 2)}\n`, containsKey };
    }
    case 'codex': {
      const existing = request.existing === undefined ? {} : parseExisting(request.existing, 'toml');
      const config = codexConfig(existing, { id: target.id, name: target.name, baseUrl: target.openaiBaseUrl, envKey: target.keyEnv, model: request.model });
      return { text: `${stringify(config)}\n`, containsKey: false };
    }
    case 'cc-switch':
      return { text: `${JSON.stringify(ccSwitchProvider(target.name, target.anthropicBaseUrl, key), null, 2)}\n`, containsKey };
  }
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
