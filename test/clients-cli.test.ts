/** Issue 15 item 9 as a user runs it: `clients write` output passes `clients lint`; CC Switch's import link. */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { parseCcSwitchLink } from '../src/clients/cc-switch-link.js';
import { runCli } from './support/cli.js';

const KEY = ['tt', 'live', '9f8e7d6c5b4a39281706abcdef12'].join('-');

describe('isobudget clients write → lint', () => {
  test('--base-url …/v1: the Claude settings and the Codex config both pass lint (no doubled /v1)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'isobudget-clients-v1-'));
    for (const [client, file] of [['claude-code', 'settings.json'], ['codex', 'config.toml'], ['cc-switch', 'cc-switch.txt']] as const) {
      const out = join(dir, file);
      const written = await runCli(['clients', 'write', client, '--base-url', 'https://api.example.com/v1', '--out', out]);
      expect(written.code, written.stderr).toBe(0);
      expect(written.stderr).not.toMatch(/error/);
      const lint = await runCli(['clients', 'lint', out]);
      expect(lint.code, lint.stdout).toBe(0);
      expect(lint.stdout).not.toContain('doubled-v1');
    }
    expect(JSON.parse(readFileSync(join(dir, 'settings.json'), 'utf8'))).toEqual({ env: { ANTHROPIC_BASE_URL: 'https://api.example.com', ANTHROPIC_AUTH_TOKEN: 'YOUR_API_KEY' } });
  });

  test('cc-switch prints the import deep link; --format seed the three fields; --app codex its Codex side; the key only with --include-key', async () => {
    const link = await runCli(['clients', 'write', 'cc-switch', '--provider', 'taotoken'], { env: { TAOTOKEN_API_KEY: KEY } });
    expect(link.code, link.stderr).toBe(0);
    expect(link.stdout).toBe('ccswitch://v1/import?resource=provider&app=claude&name=TaoToken&endpoint=https%3A%2F%2Ftaotoken.net%2Fapi&homepage=https%3A%2F%2Ftaotoken.net\n');
    expect(`${link.stdout}${link.stderr}`).not.toContain(KEY);
    expect(link.stderr).toContain('API key is required');
    const codex = await runCli(['clients', 'write', 'cc-switch', '--provider', 'taotoken', '--app', 'codex', '--model', 'gpt-5.4', '--include-key'], { env: { TAOTOKEN_API_KEY: KEY } });
    const parsed = parseCcSwitchLink(codex.stdout.trim());
    expect(parsed).toEqual({ ok: true, request: { resource: 'provider', app: 'codex', name: 'TaoToken', endpoint: 'https://taotoken.net/api/v1', homepage: 'https://taotoken.net', apiKey: KEY, model: 'gpt-5.4' } });
    expect(codex.stderr).not.toContain(KEY);
    const seed = await runCli(['clients', 'write', 'cc-switch', '--provider', 'taotoken', '--format', 'seed']);
    expect(JSON.parse(seed.stdout)).toEqual({ provider: 'TaoToken', baseUrl: 'https://taotoken.net/api', apiKey: 'YOUR_API_KEY' });
    const refused = await runCli(['clients', 'write', 'codex', '--provider', 'anthropic']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('no OpenAI Responses API');
    const anthropic = await runCli(['clients', 'write', 'claude-code', '--provider', 'anthropic']);
    expect(JSON.parse(anthropic.stdout)).toEqual({ env: { ANTHROPIC_BASE_URL: 'https://api.anthropic.com', ANTHROPIC_API_KEY: 'YOUR_API_KEY' } });
  });

  test('lint takes a link on the command line and never echoes it (it may hold a key)', async () => {
    const withKey = `ccswitch://v1/import?resource=provider&app=codex&name=T&endpoint=${encodeURIComponent('https://x.example')}&apiKey=${KEY}`;
    const result = await runCli(['clients', 'lint', withKey]);
    expect(result.code).toBe(2);
    expect(result.stdout).toContain('ccswitch link:1: error codex-base-url-no-v1');
    expect(result.stdout).toContain('warning key-in-link');
    expect(result.stdout).not.toContain(KEY);
    const broken = await runCli(['clients', 'lint', 'ccswitch://v2/import?resource=provider&app=claude&name=T', '--json']);
    expect(broken.code).toBe(2);
    expect(JSON.parse(broken.stdout)[0].findings[0]).toMatchObject({ rule: 'cc-switch-link-invalid', message: 'CC Switch refuses this link: Unsupported protocol version: v2' });
  });
});
