/**
 * Issue 15 item 9: `clients write` and `clients lint` agree. Everything write produces —
 * every target (gateway, each preset, base URLs with and without /v1) × every client and
 * app × every option — lints with no error and no warning but the unfilled key slot; what
 * lint would flag, write refuses with the reason instead.
 */
import { describe, expect, test } from 'vitest';
import { IsobudgetError } from '../core/errors.js';
import { parseCcSwitchLink } from './cc-switch-link.js';
import type { ClaudeAuthVar } from './claude-code.js';
import { detectKind, lintText } from './lint.js';
import { renderClientConfig, type CcSwitchFormat } from './render.js';
import { resolveTarget, type TargetChoice } from './target.js';

const KEY = ['sk', 'live', '0a1b2c3d4e5f60718293a4b5c6d7'].join('-');

const TARGETS: TargetChoice[] = [
  { gateway: 'http://127.0.0.1:8788' },
  { gateway: 'http://127.0.0.1:8788/v1/' },
  ...['openai', 'anthropic', 'taotoken', 'openrouter', 'deepseek'].map((provider) => ({ provider })),
  { baseUrl: 'https://api.example.com/v1' },
  { baseUrl: 'https://api.example.com/v1/' },
  { baseUrl: 'https://api.example.com' },
  { baseUrl: 'https://llm.example/api' },
  { baseUrl: 'http://localhost:11434/v1' },
  { baseUrl: 'https://generativelanguage.googleapis.com/v1beta/openai' },
  { baseUrl: 'https://api.anthropic.com' },
];

interface Combination {
  label: string;
  client: 'claude-code' | 'codex' | 'cc-switch';
  authVar?: ClaudeAuthVar | undefined;
  format?: CcSwitchFormat;
  app?: 'claude' | 'codex';
  model: string | undefined;
  keyValue: string | undefined;
}

function combinations(): Combination[] {
  const out: Combination[] = [];
  for (const keyValue of [undefined, KEY]) {
    for (const model of [undefined, 'gpt-5.4']) {
      for (const authVar of [undefined, 'ANTHROPIC_AUTH_TOKEN', 'ANTHROPIC_API_KEY'] as const) out.push({ label: `claude-code auth=${authVar ?? 'default'}`, client: 'claude-code', authVar, model, keyValue });
      out.push({ label: 'codex', client: 'codex', model, keyValue });
      for (const format of ['link', 'seed'] as const) for (const app of ['claude', 'codex'] as const) out.push({ label: `cc-switch ${format} app=${app}`, client: 'cc-switch', format, app, model, keyValue });
    }
  }
  return out;
}

const FILE = { 'claude-code': 'settings.json', codex: 'config.toml', 'cc-switch': 'cc-switch.json' } as const;
/** Refusals write may give, each because lint (or the client itself) would reject the result. */
const REFUSALS = [
  /serves no Anthropic Messages API/,
  /serves no OpenAI Responses API/,
  /api\.anthropic\.com takes API keys/,
  /the three-field JSON is the Claude side only/,
];

describe('clients write ↔ clients lint', () => {
  test('everything write produces lints clean (but for the key slot); what lint would flag, write refuses', () => {
    let written = 0;
    let refused = 0;
    for (const choice of TARGETS) {
      const target = resolveTarget(choice);
      for (const c of combinations()) {
        const where = `${JSON.stringify(choice)} ${c.label} model=${c.model ?? '-'} key=${c.keyValue ? 'yes' : 'no'}`;
        let text: string;
        try {
          text = renderClientConfig({ client: c.client, target, authVar: c.authVar, model: c.model, keyValue: c.keyValue, existing: undefined, ...(c.format ? { format: c.format } : {}), ...(c.app ? { app: c.app } : {}) }).text;
        } catch (error) {
          expect(error, where).toBeInstanceOf(IsobudgetError);
          expect(REFUSALS.some((r) => r.test((error as Error).message)), `${where}: ${(error as Error).message}`).toBe(true);
          refused += 1;
          continue;
        }
        written += 1;
        const kind = detectKind(FILE[c.client], text);
        expect(kind, where).toBe(c.client);
        const findings = lintText(FILE[c.client], text).findings;
        expect(findings.filter((f) => f.severity === 'error'), where).toEqual([]);
        const allowed = c.keyValue === undefined ? ['placeholder-key', 'cc-switch-no-api-key'] : ['key-in-link'];
        expect(findings.filter((f) => !allowed.includes(f.rule)), where).toEqual([]);
        // The key appears only when asked, and Codex never holds one.
        expect(text.includes(KEY), where).toBe(c.keyValue !== undefined && c.client !== 'codex');
        if (c.client === 'cc-switch' && c.format === 'link') {
          const parsed = parseCcSwitchLink(text.trim());
          expect(parsed.ok, where).toBe(true);
          if (parsed.ok) expect(parsed.request).toMatchObject({ resource: 'provider', app: c.app, name: target.name, apiKey: c.keyValue, model: c.model });
        }
      }
    }
    expect(written).toBeGreaterThan(300);
    expect(refused).toBeGreaterThan(0);
  });

  test('--base-url https://api.example.com/v1: Claude gets it without /v1, Codex with one — never doubled', () => {
    const target = resolveTarget({ baseUrl: 'https://api.example.com/v1' });
    const claude = JSON.parse(renderClientConfig({ client: 'claude-code', target, authVar: undefined, model: undefined, keyValue: undefined, existing: undefined }).text) as { env: Record<string, string> };
    expect(claude.env['ANTHROPIC_BASE_URL']).toBe('https://api.example.com');
    const codex = renderClientConfig({ client: 'codex', target, authVar: undefined, model: undefined, keyValue: undefined, existing: undefined }).text;
    expect(codex).toContain('base_url = "https://api.example.com/v1"');
    const bare = renderClientConfig({ client: 'codex', target: resolveTarget({ baseUrl: 'https://api.example.com' }), authVar: undefined, model: undefined, keyValue: undefined, existing: undefined }).text;
    expect(bare).toContain('base_url = "https://api.example.com/v1"');
  });

  test('--provider anthropic writes ANTHROPIC_API_KEY, and lint says the same about api.anthropic.com', () => {
    const target = resolveTarget({ provider: 'anthropic' });
    const settings = JSON.parse(renderClientConfig({ client: 'claude-code', target, authVar: undefined, model: undefined, keyValue: undefined, existing: undefined }).text) as { env: Record<string, string> };
    expect(Object.keys(settings.env)).toEqual(['ANTHROPIC_BASE_URL', 'ANTHROPIC_API_KEY']);
    const bearer = JSON.stringify({ env: { ANTHROPIC_BASE_URL: 'https://api.anthropic.com', ANTHROPIC_AUTH_TOKEN: 'YOUR_API_KEY' } });
    expect(lintText('settings.json', bearer).findings.map((f) => f.rule)).toContain('auth-token-for-anthropic-api');
    expect(() => renderClientConfig({ client: 'claude-code', target, authVar: 'ANTHROPIC_AUTH_TOKEN', model: undefined, keyValue: undefined, existing: undefined })).toThrow(/x-api-key/);
    // Gateways and proxies keep the Bearer token, and lint does not object there.
    const taotoken = JSON.parse(renderClientConfig({ client: 'claude-code', target: resolveTarget({ provider: 'taotoken' }), authVar: undefined, model: undefined, keyValue: undefined, existing: undefined }).text) as { env: Record<string, string> };
    expect(Object.keys(taotoken.env)).toEqual(['ANTHROPIC_BASE_URL', 'ANTHROPIC_AUTH_TOKEN']);
  });

  test('a base URL carrying a key is refused, and the key is not repeated in the error', () => {
    let message = '';
    try {
      resolveTarget({ baseUrl: `https://api.example.com/v1?api_key=${KEY}` });
    } catch (error) {
      message = (error as IsobudgetError).format();
    }
    expect(message).toContain("the query parameter `api_key`");
    expect(message).not.toContain(KEY);
  });
});
