/**
 * CC Switch's deep link, parsed as CC Switch parses it (src-tauri/src/deeplink/parser.rs in
 * farion1231/cc-switch; the cases below mirror its tests.rs), and linted for the app it imports into.
 */
import { describe, expect, test } from 'vitest';
import { buildCcSwitchLink, parseCcSwitchLink } from './cc-switch-link.js';
import { detectKind, lintText } from './lint.js';

const error = (link: string): string => {
  const parsed = parseCcSwitchLink(link);
  return parsed.ok ? '' : parsed.error;
};

describe("CC Switch's parser", () => {
  test('accepts its own examples', () => {
    const parsed = parseCcSwitchLink('ccswitch://v1/import?resource=provider&app=claude&name=Test%20Provider&homepage=https%3A%2F%2Fexample.com&endpoint=https%3A%2F%2Fapi.example.com&apiKey=sk-test-123&icon=claude');
    expect(parsed).toEqual({ ok: true, request: { resource: 'provider', app: 'claude', name: 'Test Provider', endpoint: 'https://api.example.com', homepage: 'https://example.com', apiKey: 'sk-test-123', model: undefined } });
    expect(parseCcSwitchLink('ccswitch://v1/import?resource=provider&app=claude&name=Test&endpoint=https%3A%2F%2Fapi1.example.com%20,%20https%3A%2F%2Fapi2.example.com&apiKey=sk-test').ok).toBe(true);
    expect(parseCcSwitchLink('ccswitch://v1/import?resource=skill&repo=owner/repo&directory=skills&branch=dev').ok).toBe(true);
    expect(parseCcSwitchLink('ccswitch://v1/import?resource=mcp&apps=claude,codex&config=e30&enabled=true').ok).toBe(true);
  });

  test('refuses what it refuses, with its messages', () => {
    expect(error('https://v1/import?resource=provider&app=claude&name=Test')).toContain('Invalid scheme');
    expect(error('ccswitch://v2/import?resource=provider&app=claude&name=Test')).toContain('Unsupported protocol version');
    expect(error('ccswitch:v1/import?resource=provider&app=claude&name=Test')).toBe('Missing version in URL host');
    expect(error('ccswitch://v1/import/?resource=provider&app=claude&name=Test')).toBe("Invalid path: expected '/import', got '/import/'");
    expect(error('ccswitch://v1/import?app=claude&name=Test')).toBe("Missing 'resource' parameter");
    expect(error('ccswitch://v1/import?resource=theme&app=claude&name=Test')).toBe('Unsupported resource type: theme');
    expect(error('ccswitch://v1/import?resource=provider&app=claude')).toContain("Missing 'name' parameter");
    expect(error('ccswitch://v1/import?resource=provider&name=Test')).toBe("Missing 'app' parameter");
    expect(error('ccswitch://v1/import?resource=provider&app=pi&name=Pi')).toContain('Invalid provider app type');
    expect(error('ccswitch://v1/import?resource=provider&app=claude&name=T&homepage=ftp%3A%2F%2Fexample.com')).toContain('must be http or https');
    expect(error('ccswitch://v1/import?resource=provider&app=claude&name=T&endpoint=https%3A%2F%2Fok.example,not-a-url')).toContain("'endpoint[1]'");
    expect(error('ccswitch://v1/import?resource=skill&repo=owner')).toContain('Invalid repo format');
  });

  test('a repeated parameter keeps its last value, as a Rust HashMap collect does', () => {
    const parsed = parseCcSwitchLink('ccswitch://v1/import?resource=provider&app=pi&app=codex&name=T');
    expect(parsed.ok && parsed.request.app).toBe('codex');
  });

  test('what clients write builds is what the parser reads back, + and & and spaces included', () => {
    const link = buildCcSwitchLink({ app: 'codex', name: 'A & B + C', endpoint: 'https://api.example.com/v1', homepage: 'https://example.com', model: 'gpt-5.4', apiKey: undefined });
    expect(link.startsWith('ccswitch://v1/import?resource=provider&app=codex&name=')).toBe(true);
    expect(parseCcSwitchLink(link)).toEqual({ ok: true, request: { resource: 'provider', app: 'codex', name: 'A & B + C', endpoint: 'https://api.example.com/v1', homepage: 'https://example.com', apiKey: undefined, model: 'gpt-5.4' } });
  });
});

describe('clients lint on a link (or a file holding one)', () => {
  const KEY = ['sk', 'ant', 'api03', 'Qw8Er7Ty6Ui5Op4As3Df2Gh1'].join('-');
  const link = (params: string): string => `ccswitch://v1/import?resource=provider&${params}`;
  const rules = (text: string): string[] => lintText('link', text, 'cc-switch').findings.map((f) => `${f.severity} ${f.rule}`);

  test("CC Switch's own refusals are errors; its importer's need for a key is a warning", () => {
    expect(rules(link('app=claude'))).toEqual(['error cc-switch-link-invalid']);
    expect(rules(link('app=claude&name=T&endpoint=https%3A%2F%2Fx.example'))).toEqual(['warning cc-switch-no-api-key']);
    expect(rules(link('app=claude&name=T'))).toEqual(['error cc-switch-no-endpoint', 'warning cc-switch-no-api-key']);
  });

  test('Claude and Codex rules apply to the endpoint by app', () => {
    expect(rules(link('app=claude&name=T&endpoint=https%3A%2F%2Fx.example%2Fv1'))).toContain('error doubled-v1');
    expect(rules(link('app=codex&name=T&endpoint=https%3A%2F%2Fx.example'))).toContain('error codex-base-url-no-v1');
    expect(rules(link('app=codex&name=T&endpoint=https%3A%2F%2Fx.example%2Fv1'))).toEqual(['warning cc-switch-no-api-key']);
    expect(rules(link('app=claude&name=T&endpoint=https%3A%2F%2Fapi.anthropic.com'))).toContain('warning auth-token-for-anthropic-api');
  });

  test('keys: in the endpoint an error, in apiKey a warning — neither ever printed', () => {
    const inUrl = lintText('link', link(`app=claude&name=T&endpoint=${encodeURIComponent(`https://x.example/?key=${KEY}`)}`), 'cc-switch').findings;
    expect(inUrl.map((f) => f.rule)).toContain('key-in-url');
    const inKey = lintText('link', link(`app=claude&name=T&endpoint=https%3A%2F%2Fx.example&apiKey=${KEY}`), 'cc-switch').findings;
    expect(inKey.map((f) => f.rule)).toEqual(['key-in-link']);
    expect(JSON.stringify([...inUrl, ...inKey])).not.toContain(KEY);
  });

  test('a file holding a link is a CC Switch file', () => {
    expect(detectKind('provider.txt', `\n${link('app=claude&name=T')}\n`)).toBe('cc-switch');
    expect(lintText('provider.txt', `\n${link('app=claude&name=T')}\n`).findings[0]?.line).toBe(2);
  });
});
