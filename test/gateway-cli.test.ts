/** `isobudget clients …` and `isobudget gateway keys …` as a user runs them (the built CLI). */
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'smol-toml';
import { describe, expect, test } from 'vitest';
import { runCli } from './support/cli.js';

const KEY = 'tt-live-0a1b2c3d4e5f60718293a4b5c6d7e8f9';

describe('isobudget clients', () => {
  test('write prints the config, with no key unless asked; lint accepts it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'isobudget-clients-'));
    const env = { TAOTOKEN_API_KEY: KEY };
    const printed = await runCli(['clients', 'write', 'claude-code', '--provider', 'taotoken'], { env });
    expect(printed.code, printed.stderr).toBe(0);
    expect(JSON.parse(printed.stdout)).toEqual({ env: { ANTHROPIC_BASE_URL: 'https://taotoken.net/api', ANTHROPIC_AUTH_TOKEN: 'YOUR_API_KEY' } });
    expect(`${printed.stdout}${printed.stderr}`).not.toContain(KEY);
    for (const client of ['claude-code', 'codex', 'cc-switch']) {
      const file = join(dir, `${client}.${client === 'codex' ? 'toml' : 'json'}`);
      const written = await runCli(['clients', 'write', client, '--gateway', 'http://127.0.0.1:8788', '--out', file], { env });
      expect(written.code, written.stderr).toBe(0);
      expect(`${written.stdout}${written.stderr}${readFileSync(file, 'utf8')}`).not.toContain(KEY);
      const lint = await runCli(['clients', 'lint', file]);
      expect(lint.code, lint.stdout).toBe(0);
    }
    expect(parse(readFileSync(join(dir, 'codex.toml'), 'utf8'))).toMatchObject({ model_provider: 'isobudget', model_providers: { isobudget: { wire_api: 'responses', env_key: 'ISOBUDGET_API_KEY' } } });
  });

  test('--include-key copies the key from the env var (owner-only file); an existing file is backed up first', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'isobudget-clients-'));
    const file = join(dir, 'settings.json');
    writeFileSync(file, JSON.stringify({ model: 'opus', env: { ANTHROPIC_API_KEY: 'old-key-value' } }));
    const written = await runCli(['clients', 'write', 'claude-code', '--provider', 'taotoken', '--include-key', '--out', file], { env: { TAOTOKEN_API_KEY: KEY } });
    expect(written.code, written.stderr).toBe(0);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ model: 'opus', env: { ANTHROPIC_BASE_URL: 'https://taotoken.net/api', ANTHROPIC_AUTH_TOKEN: KEY } });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(`${written.stdout}${written.stderr}`).not.toContain(KEY);
    const backups = readdirSync(dir).filter((name) => name.startsWith('settings.json.bak-'));
    expect(backups).toHaveLength(1);
    expect(readFileSync(join(dir, backups[0] ?? ''), 'utf8')).toContain('old-key-value');
    expect(written.stderr).toContain('previous file kept as');
    // Asked for a key that is not there: refused, nothing written.
    const missing = await runCli(['clients', 'write', 'cc-switch', '--provider', 'taotoken', '--include-key', '--out', join(dir, 'cc.json')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('TAOTOKEN_API_KEY is not set');
    expect(existsSync(join(dir, 'cc.json'))).toBe(false);
  });

  test('lint exits 2 on errors and names file, line, rule and fix', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'isobudget-clients-'));
    const file = join(dir, 'config.toml');
    writeFileSync(file, 'model_provider = "taotoken"\n\n[model_providers.taotoken]\nname = "TaoToken"\nbase_url = "https://taotoken.net/api"\nenv_key = "TAOTOKEN_API_KEY"\nwire_api = "chat"\n');
    const result = await runCli(['clients', 'lint', file]);
    expect(result.code).toBe(2);
    expect(result.stdout).toContain(`${file}:7: error wire-api-chat`);
    expect(result.stdout).toContain('hint: set wire_api = "responses"');
    const asJson = await runCli(['clients', 'lint', file, '--json']);
    expect(JSON.parse(asJson.stdout)[0].findings[0].rule).toBe('wire-api-chat');
  });
});

describe('isobudget gateway keys', () => {
  test('create prints the key once; list shows budget and tags but never the key; revoke', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'isobudget-keys-'));
    const created = await runCli(['gateway', 'keys', 'create', '--budget', '25000', '--tag', 'run=bf-1,case=c7,arm=candidate_best_of_8', '--data-dir', dir]);
    expect(created.code, created.stderr).toBe(0);
    const key = created.stdout.trim();
    expect(key).toMatch(/^ibk-[0-9a-f]{12}-[A-Za-z0-9_-]+$/);
    expect(created.stderr).toContain('shown only now');
    const id = key.slice(4, 16);
    const list = await runCli(['gateway', 'keys', 'list', '--data-dir', dir, '--json']);
    expect(JSON.parse(list.stdout)).toEqual([{ id, budget: 25000, spent: 0, tags: { run: 'bf-1', case: 'c7', arm: 'candidate_best_of_8' }, created_at: expect.any(String), revoked: false, closed: null, over_reservation: 0 }]);
    expect(list.stdout).not.toContain(key);
    for (const name of readdirSync(dir)) if (statSync(join(dir, name)).isFile()) expect(readFileSync(join(dir, name)).includes(Buffer.from(key))).toBe(false);
    expect((await runCli(['gateway', 'keys', 'revoke', id, '--data-dir', dir])).code).toBe(0);
    expect((await runCli(['gateway', 'keys', 'list', '--data-dir', dir])).stdout).toContain('(revoked)');
    const unknown = await runCli(['gateway', 'keys', 'revoke', 'nope', '--data-dir', dir]);
    expect(unknown.code, unknown.stderr).toBe(2);
    expect((await runCli(['gateway', 'keys', 'create', '--tag', 'Bad=x', '--data-dir', dir])).code).toBe(2);
  });

  test('the gateway needs --upstream; --upstream-key-env takes a name, not a key', async () => {
    const noUpstream = await runCli(['gateway']);
    expect(noUpstream.code).toBe(2);
    expect(noUpstream.stderr).toContain('--upstream URL is required');
    const pasted = await runCli(['gateway', '--upstream', 'http://127.0.0.1:9', '--upstream-key-env', 'sk-abc-123-pasted']);
    expect(pasted.code).toBe(2);
    expect(pasted.stderr).not.toContain('sk-abc-123-pasted');
  });
});
