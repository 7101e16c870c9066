import { parse } from 'smol-toml';
import { describe, expect, test } from 'vitest';
import { IsobudgetError } from '../core/errors.js';
import type { ClientKind } from './finding.js';
import { lintText } from './lint.js';
import { KEY_PLACEHOLDER, renderClientConfig } from './render.js';
import { resolveTarget } from './target.js';

const gateway = resolveTarget({ gateway: 'http://127.0.0.1:8788/' });
const taotoken = resolveTarget({ provider: 'taotoken' });
const FILES: Record<ClientKind, string> = { 'claude-code': 'settings.json', codex: 'config.toml', 'cc-switch': 'cc-switch.json' };
const KEY = 'ibk-0a1b2c3d4e5f-QWERTYqwerty0123456789abcdefgh';

describe('clients write', () => {
  test.each(['claude-code', 'codex', 'cc-switch'] as const)('%s for the gateway and for TaoToken: parses, and passes the lint (CC Switch in the seed format)', (client) => {
    for (const target of [gateway, taotoken]) {
      for (const keyValue of [undefined, KEY]) {
        const rendered = renderClientConfig({ client, target, authVar: 'ANTHROPIC_AUTH_TOKEN', model: 'gpt-5-codex', keyValue, existing: undefined, format: 'seed' });
        const parsed: unknown = client === 'codex' ? parse(rendered.text) : JSON.parse(rendered.text);
        expect(parsed).toBeTypeOf('object');
        const findings = lintText(FILES[client], rendered.text, client).findings;
        expect(findings.filter((f) => f.severity === 'error')).toEqual([]);
        // The only warning a write may leave is the key slot the user has to fill.
        expect(findings.every((f) => f.rule === 'placeholder-key')).toBe(true);
        if (keyValue !== undefined || client === 'codex') expect(findings).toEqual([]);
      }
    }
  });

  test('the shapes the seed gives, pointed at the gateway', () => {
    const claude = JSON.parse(renderClientConfig({ client: 'claude-code', target: gateway, authVar: 'ANTHROPIC_AUTH_TOKEN', model: undefined, keyValue: undefined, existing: undefined }).text);
    expect(claude).toEqual({ env: { ANTHROPIC_BASE_URL: 'http://127.0.0.1:8788', ANTHROPIC_AUTH_TOKEN: KEY_PLACEHOLDER } });
    const codex = parse(renderClientConfig({ client: 'codex', target: gateway, authVar: 'ANTHROPIC_AUTH_TOKEN', model: undefined, keyValue: KEY, existing: undefined }).text);
    expect(codex).toEqual({ model_provider: 'isobudget', web_search: 'disabled', model_providers: { isobudget: { name: 'isobudget gateway', base_url: 'http://127.0.0.1:8788/v1', env_key: 'ISOBUDGET_API_KEY', wire_api: 'responses' } } });
    const cc = JSON.parse(renderClientConfig({ client: 'cc-switch', target: taotoken, authVar: 'ANTHROPIC_AUTH_TOKEN', model: undefined, keyValue: undefined, existing: undefined, format: 'seed' }).text);
    expect(cc).toEqual({ provider: 'TaoToken', baseUrl: 'https://taotoken.net/api', apiKey: KEY_PLACEHOLDER });
  });

  test("Codex behind the gateway has its hosted web search off (a budgeted key refuses it); a provider's config keeps the user's choice", () => {
    const existing = 'web_search = "live"\nmodel = "o3"\n';
    const viaGateway = parse(renderClientConfig({ client: 'codex', target: gateway, authVar: 'ANTHROPIC_AUTH_TOKEN', model: undefined, keyValue: undefined, existing }).text) as Record<string, unknown>;
    expect(viaGateway['web_search']).toBe('disabled');
    expect(viaGateway['model']).toBe('o3');
    const direct = parse(renderClientConfig({ client: 'codex', target: taotoken, authVar: 'ANTHROPIC_AUTH_TOKEN', model: undefined, keyValue: undefined, existing }).text) as Record<string, unknown>;
    expect(direct['web_search']).toBe('live');
    const fresh = renderClientConfig({ client: 'codex', target: gateway, authVar: 'ANTHROPIC_AUTH_TOKEN', model: undefined, keyValue: undefined, existing: undefined }).text;
    // A root key after a table would belong to the table: it must come first.
    expect(fresh.indexOf('web_search')).toBeLessThan(fresh.indexOf('[model_providers'));
  });

  test('a key is written only when asked, and Codex never holds one', () => {
    for (const client of ['claude-code', 'codex', 'cc-switch'] as const) {
      const unasked = renderClientConfig({ client, target: gateway, authVar: 'ANTHROPIC_API_KEY', model: undefined, keyValue: undefined, existing: undefined });
      expect(unasked.containsKey).toBe(false);
      const asked = renderClientConfig({ client, target: gateway, authVar: 'ANTHROPIC_API_KEY', model: undefined, keyValue: KEY, existing: undefined });
      if (client === 'cc-switch') expect(asked.text).toContain(`&apiKey=${KEY}`);
      expect(asked.text.includes(KEY)).toBe(client !== 'codex');
      expect(asked.containsKey).toBe(client !== 'codex');
    }
  });

  test('an existing file is merged: other settings and providers kept, the other auth variable dropped', () => {
    const existingClaude = JSON.stringify({ model: 'opus', env: { ANTHROPIC_API_KEY: 'old', DISABLE_TELEMETRY: '1' } });
    const claude = JSON.parse(renderClientConfig({ client: 'claude-code', target: gateway, authVar: 'ANTHROPIC_AUTH_TOKEN', model: undefined, keyValue: undefined, existing: existingClaude }).text);
    expect(claude).toEqual({ model: 'opus', env: { DISABLE_TELEMETRY: '1', ANTHROPIC_BASE_URL: 'http://127.0.0.1:8788', ANTHROPIC_AUTH_TOKEN: KEY_PLACEHOLDER } });
    const existingCodex = 'model = "o3"\n[model_providers.other]\nname = "O"\nbase_url = "https://o.example/v1"\nenv_key = "O_KEY"\nwire_api = "responses"\n[analytics]\nenabled = false\n';
    const codex = parse(renderClientConfig({ client: 'codex', target: taotoken, authVar: 'ANTHROPIC_AUTH_TOKEN', model: undefined, keyValue: undefined, existing: existingCodex }).text) as Record<string, any>;
    expect(codex['model']).toBe('o3');
    expect(codex['analytics']).toEqual({ enabled: false });
    expect(Object.keys(codex['model_providers'])).toEqual(['other', 'taotoken']);
    expect(codex['model_provider']).toBe('taotoken');
    expect(() => renderClientConfig({ client: 'codex', target: taotoken, authVar: 'ANTHROPIC_AUTH_TOKEN', model: undefined, keyValue: undefined, existing: '[broken' })).toThrow(IsobudgetError);
  });

  test('targets: exactly one of gateway, provider, base URL', () => {
    expect(() => resolveTarget({})).toThrow(IsobudgetError);
    expect(() => resolveTarget({ gateway: 'http://x', provider: 'openai' })).toThrow(IsobudgetError);
    expect(() => resolveTarget({ provider: 'nope' })).toThrow(/unknown provider/);
    expect(resolveTarget({ provider: 'openai' })).toMatchObject({ anthropic: { unsupported: expect.stringContaining('no Anthropic Messages API') }, openai: { url: 'https://api.openai.com/v1' }, keyEnv: 'OPENAI_API_KEY' });
    expect(resolveTarget({ baseUrl: 'https://llm.example/api/', name: 'Mine', keyEnv: 'MINE_KEY', id: 'mine' })).toMatchObject({ name: 'Mine', id: 'mine', anthropic: { url: 'https://llm.example/api' }, openai: { url: 'https://llm.example/api/v1' }, keyEnv: 'MINE_KEY' });
  });
});
