import { describe, expect, test } from 'vitest';
import { detectKind, lintText } from './lint.js';

// Fake keys, assembled at run time so no key-shaped literal sits in the repository.
const FAKE_OPENAI_KEY = ['sk', '0a1b2c3d4e5f60718293a4b5'].join('-');
const FAKE_ANTHROPIC_KEY = ['sk', 'ant', 'api03', 'abcdefghijklmnop1234'].join('-');

const rules = (file: string, text: string) => lintText(file, text).findings.map((f) => `${f.severity} ${f.rule}`);
const errors = (file: string, text: string) => lintText(file, text).findings.filter((f) => f.severity === 'error').map((f) => f.rule);

const SEED_CLAUDE = JSON.stringify({ env: { ANTHROPIC_BASE_URL: 'https://taotoken.net/api', ANTHROPIC_AUTH_TOKEN: 'YOUR_API_KEY' } }, null, 2);
// Codex appends /responses to base_url: a good base_url has its /v1.
const GOOD_CODEX = `model = "gpt-5-codex"
model_provider = "taotoken"

[model_providers.taotoken]
name = "TaoToken"
base_url = "https://taotoken.net/api/v1"
env_key = "TAOTOKEN_API_KEY"
wire_api = "responses"
`;
const SEED_CC_SWITCH = JSON.stringify({ provider: 'TaoToken', baseUrl: 'https://taotoken.net/api', apiKey: 'YOUR_API_KEY' }, null, 2);

describe('clients lint: each mistake the issue lists', () => {
  test.each([
    { mistake: 'ANTHROPIC_* variables in a Codex config', file: 'config.toml', text: `${GOOD_CODEX}\n[shell_environment_policy]\nset = { ANTHROPIC_BASE_URL = "https://taotoken.net/api" }\n`, rule: 'anthropic-var-in-codex' },
    { mistake: 'ANTHROPIC_* as a Codex env_key', file: 'config.toml', text: GOOD_CODEX.replace('TAOTOKEN_API_KEY', 'ANTHROPIC_AUTH_TOKEN'), rule: 'anthropic-var-in-codex' },
    { mistake: 'OpenAI variables in Claude settings', file: 'settings.json', text: JSON.stringify({ env: { ANTHROPIC_BASE_URL: 'https://taotoken.net/api', ANTHROPIC_AUTH_TOKEN: 'x', OPENAI_BASE_URL: 'https://taotoken.net/api' } }), rule: 'openai-var-in-claude' },
    { mistake: 'Codex variables in Claude settings', file: 'settings.json', text: JSON.stringify({ env: { ANTHROPIC_BASE_URL: 'https://a.example', ANTHROPIC_API_KEY: 'x', CODEX_HOME: '/tmp/c' } }), rule: 'openai-var-in-claude' },
    { mistake: 'both auth variables set', file: 'settings.json', text: JSON.stringify({ env: { ANTHROPIC_BASE_URL: 'https://taotoken.net/api', ANTHROPIC_AUTH_TOKEN: 'a', ANTHROPIC_API_KEY: 'b' } }), rule: 'both-auth-vars' },
    { mistake: 'both auth variables in a CC Switch export', file: 'cc.json', text: JSON.stringify({ providers: { t: { name: 'T', settingsConfig: { env: { ANTHROPIC_AUTH_TOKEN: 'a', ANTHROPIC_API_KEY: 'b' } } } } }), rule: 'both-auth-vars' },
    { mistake: 'wire_api = "chat"', file: 'config.toml', text: GOOD_CODEX.replace('"responses"', '"chat"'), rule: 'wire-api-chat' },
    { mistake: 'a doubled /v1 in a Codex base_url', file: 'config.toml', text: GOOD_CODEX.replace('https://taotoken.net/api/v1', 'https://api.openai.com/v1/v1'), rule: 'doubled-v1' },
    { mistake: 'ANTHROPIC_BASE_URL ending in /v1 (Claude Code appends /v1/messages)', file: 'settings.json', text: JSON.stringify({ env: { ANTHROPIC_BASE_URL: 'https://taotoken.net/api/v1', ANTHROPIC_AUTH_TOKEN: 'x' } }), rule: 'doubled-v1' },
    { mistake: 'a CC Switch baseUrl ending in /v1', file: 'cc.json', text: JSON.stringify({ provider: 'T', baseUrl: 'https://taotoken.net/api/v1/', apiKey: 'k' }), rule: 'doubled-v1' },
    { mistake: 'a key pasted in clear as the Codex env_key', file: 'config.toml', text: GOOD_CODEX.replace('"TAOTOKEN_API_KEY"', '"sk-live-9f8e7d6c5b4a39281706abcdef"'), rule: 'key-in-clear' },
    { mistake: 'a bearer token in clear instead of env_key', file: 'config.toml', text: `${GOOD_CODEX}experimental_bearer_token = "tt-0a1b2c3d4e5f60718293a4b5c6d7e8f9"\n`, rule: 'key-in-clear' },
    { mistake: 'a key in clear in Codex http_headers', file: 'config.toml', text: `${GOOD_CODEX}http_headers = { "X-Api-Key" = "${FAKE_OPENAI_KEY}" }\n`, rule: 'key-in-clear' },
    { mistake: 'a key in clear in another Claude variable', file: 'settings.json', text: JSON.stringify({ env: { ANTHROPIC_BASE_URL: 'https://a.example', ANTHROPIC_AUTH_TOKEN: 'x', ANTHROPIC_CUSTOM_HEADERS: `x-api-key: ${FAKE_ANTHROPIC_KEY}` } }), rule: 'key-in-clear' },
  ])('$mistake → $rule', ({ file, text, rule }) => {
    expect(errors(file, text)).toContain(rule);
  });

  test('findings carry the line they are on', () => {
    const finding = lintText('config.toml', GOOD_CODEX.replace('"responses"', '"chat"')).findings.find((f) => f.rule === 'wire-api-chat');
    expect(finding?.line).toBe(8);
  });
});

describe('clients lint: the seed\'s own configs', () => {
  test('Claude Code and CC Switch as the seed writes them: no errors, only the placeholder warning', () => {
    expect(rules('settings.json', SEED_CLAUDE)).toEqual(['warning placeholder-key']);
    expect(rules('cc-switch.json', SEED_CC_SWITCH)).toEqual(['warning placeholder-key']);
  });

  test('Codex with wire_api = "responses" is clean; the seed\'s wire_api = "chat" is the one error', () => {
    expect(rules('config.toml', GOOD_CODEX)).toEqual([]);
    expect(errors('config.toml', GOOD_CODEX.replace('"responses"', '"chat"'))).toEqual(['wire-api-chat']);
  });

  test('more Claude checks: env references are not expanded; no auth variable at all', () => {
    expect(rules('settings.json', JSON.stringify({ env: { ANTHROPIC_BASE_URL: 'https://a.example', ANTHROPIC_AUTH_TOKEN: '$TAOTOKEN_API_KEY' } }))).toEqual(['warning env-reference-not-expanded']);
    expect(rules('settings.json', JSON.stringify({ env: { ANTHROPIC_BASE_URL: 'https://a.example' } }))).toEqual(['warning no-auth-var']);
  });

  test('broken files, unknown providers and unknown kinds are errors', () => {
    expect(errors('config.toml', 'model_provider = "x"\n')).toEqual(['unknown-model-provider']);
    expect(errors('config.toml', '[model_providers.x\n')).toEqual(['toml-syntax']);
    expect(errors('settings.json', '{ "env": ')).toEqual(['json-syntax']);
    expect(errors('notes.json', '{ "hello": 1 }')).toEqual(['unknown-kind']);
  });

  test('kinds are detected from name and content', () => {
    expect(detectKind('x/config.toml', '')).toBe('codex');
    expect(detectKind('settings.local.json', '{}')).toBe('claude-code');
    expect(detectKind('p.json', SEED_CC_SWITCH)).toBe('cc-switch');
    expect(detectKind('p.json', SEED_CLAUDE)).toBe('claude-code');
  });
});

// Issue 15 item 9: what lint missed, and what it claimed wrongly.
describe('clients lint: Codex base URLs, keys in URLs, and what Codex reads', () => {
  const FAKE_KEY = ['sk', 'proj', 'Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2'].join('-');
  const provider = (lines: string): string => `model_provider = "p"\n\n[model_providers.p]\nname = "P"\nenv_key = "P_KEY"\nwire_api = "responses"\n${lines}\n`;

  test('a base_url without /v1 is an error (Codex appends /responses and gets 404); a version elsewhere in the path is fine', () => {
    const bare = lintText('config.toml', provider('base_url = "https://api.example.com"')).findings;
    expect(bare.map((f) => `${f.severity} ${f.rule}`)).toEqual(['error codex-base-url-no-v1']);
    expect(bare[0]?.message).toContain('404');
    expect(bare[0]?.line).toBe(7);
    expect(errors('config.toml', provider('base_url = "https://taotoken.net/api"'))).toEqual(['codex-base-url-no-v1']);
    expect(rules('config.toml', provider('base_url = "https://generativelanguage.googleapis.com/v1beta/openai"'))).toEqual([]);
    expect(rules('config.toml', provider('base_url = "http://localhost:11434/v1/"'))).toEqual([]);
    expect(errors('config.toml', 'openai_base_url = "https://proxy.example.com"\n')).toEqual(['codex-base-url-no-v1']);
  });

  test('a key in a base_url query, in its user info or in query_params is an error — and the key is never printed', () => {
    const cases = [
      provider(`base_url = "https://api.example.com/v1?api_key=${FAKE_KEY}"`),
      provider(`base_url = "https://user:${FAKE_KEY}@api.example.com/v1"`),
      provider(`base_url = "https://api.example.com/v1"\nquery_params = { key = "${FAKE_KEY}" }`),
      provider(`base_url = "https://api.example.com/v1"\nquery_params = { x = "${FAKE_KEY}" }`),
    ];
    for (const text of cases) {
      const findings = lintText('config.toml', text).findings;
      expect(findings.map((f) => f.rule), text).toContain('key-in-url');
      expect(JSON.stringify(findings), text).not.toContain(FAKE_KEY);
      expect(JSON.stringify(findings)).not.toContain(FAKE_KEY.slice(4, 20));
    }
    // Azure's api-version is what query_params are for.
    expect(rules('config.toml', provider('base_url = "https://x.openai.azure.com/openai/v1"\nquery_params = { api-version = "2025-04-01-preview" }'))).toEqual([]);
    // A base_url that is itself a key is reported without quoting it.
    const pasted = lintText('config.toml', provider(`base_url = "${FAKE_KEY}"`)).findings;
    expect(pasted.map((f) => f.rule)).toContain('bad-base-url');
    expect(JSON.stringify(pasted)).not.toContain(FAKE_KEY);
  });

  test('Codex reads whatever env_key names: an ANTHROPIC_* env_key is flagged for what it does, not as a variable Codex "never reads"', () => {
    const findings = lintText('config.toml', GOOD_CODEX.replace('TAOTOKEN_API_KEY', 'ANTHROPIC_AUTH_TOKEN')).findings;
    const finding = findings.find((f) => f.rule === 'anthropic-var-in-codex');
    expect(finding?.message).toContain('Codex sends the value of that variable');
    expect(JSON.stringify(findings)).not.toMatch(/never reads/);
    expect(JSON.stringify(lintText('config.toml', `${GOOD_CODEX}\n[shell_environment_policy]\nset = { ANTHROPIC_BASE_URL = "https://x" }\n`).findings)).not.toMatch(/never reads/);
  });

  test('Claude settings: a key in the base URL is an error, without the key; a Bearer token for api.anthropic.com is flagged', () => {
    const inUrl = lintText('settings.json', JSON.stringify({ env: { ANTHROPIC_BASE_URL: `https://proxy.example.com/?token=${FAKE_KEY}`, ANTHROPIC_AUTH_TOKEN: 'x' } })).findings;
    expect(inUrl.map((f) => f.rule)).toContain('key-in-url');
    expect(JSON.stringify(inUrl)).not.toContain(FAKE_KEY);
    expect(rules('settings.json', JSON.stringify({ env: { ANTHROPIC_BASE_URL: 'https://api.anthropic.com', ANTHROPIC_AUTH_TOKEN: 'x' } }))).toEqual(['warning auth-token-for-anthropic-api']);
    expect(rules('settings.json', JSON.stringify({ env: { ANTHROPIC_BASE_URL: 'https://api.anthropic.com', ANTHROPIC_API_KEY: 'x' } }))).toEqual([]);
  });
});
