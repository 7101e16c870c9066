/**
 * Claude Code `settings.json`: `env` with ANTHROPIC_BASE_URL and exactly one of
 * ANTHROPIC_AUTH_TOKEN (sent as `Authorization: Bearer`) or ANTHROPIC_API_KEY (sent as
 * `x-api-key`; with both set Claude Code sends both headers). Build and lint, pure.
 */
import { credentialInUrl, endsWithV1, hasDoubledV1, isHttpUrl, shownUrl } from './base-url.js';
import type { Finding } from './finding.js';
import { containsSecret, isEnvReference, isPlaceholder, lineOf, looksLikeSecret } from './secrets.js';

export const AUTH_VARS = ['ANTHROPIC_AUTH_TOKEN', 'ANTHROPIC_API_KEY'] as const;
export type ClaudeAuthVar = (typeof AUTH_VARS)[number];

const OPENAI_VAR = /^(OPENAI_|CODEX_|AZURE_OPENAI_)/;

/** Sets base URL and one auth variable in `existing` settings, keeping everything else. */
export function claudeSettings(existing: Record<string, unknown>, baseUrl: string, authVar: ClaudeAuthVar, keyValue: string): Record<string, unknown> {
  const env = { ...(isObject(existing['env']) ? existing['env'] : {}) } as Record<string, unknown>;
  for (const name of AUTH_VARS) delete env[name];
  env['ANTHROPIC_BASE_URL'] = baseUrl;
  env[authVar] = keyValue;
  return { ...existing, env };
}

export function lintClaudeEnv(env: Record<string, unknown>, text: string, where = 'env'): Finding[] {
  const findings: Finding[] = [];
  const add = (rule: string, severity: Finding['severity'], message: string, hint: string, needle: string): void => {
    findings.push({ rule, severity, message, hint, line: lineOf(text, needle) });
  };
  const set = AUTH_VARS.filter((name) => typeof env[name] === 'string' && env[name] !== '');
  if (set.length === 2) {
    add('both-auth-vars', 'error', `${where} sets both ANTHROPIC_AUTH_TOKEN and ANTHROPIC_API_KEY`, 'keep exactly one: ANTHROPIC_AUTH_TOKEN (Bearer) for gateways and most proxies, ANTHROPIC_API_KEY (x-api-key) for api.anthropic.com; with both, Claude Code sends two credentials', '"ANTHROPIC_API_KEY"');
  } else if (set.length === 0 && typeof env['ANTHROPIC_BASE_URL'] === 'string') {
    add('no-auth-var', 'warning', `${where} sets ANTHROPIC_BASE_URL but neither ANTHROPIC_AUTH_TOKEN nor ANTHROPIC_API_KEY`, 'add exactly one of them, or export it in the shell that starts Claude Code', '"ANTHROPIC_BASE_URL"');
  }
  for (const name of Object.keys(env).filter((n) => OPENAI_VAR.test(n))) {
    add('openai-var-in-claude', 'error', `${where} sets ${name}, an OpenAI/Codex variable, in Claude Code settings`, 'Claude Code speaks the Anthropic protocol and ignores OpenAI variables; configure Codex in ~/.codex/config.toml instead', `"${name}"`);
  }
  const base = env['ANTHROPIC_BASE_URL'];
  if (typeof base === 'string') {
    const credential = credentialInUrl(base);
    if (credential) add('key-in-url', 'error', `ANTHROPIC_BASE_URL carries a credential in ${credential}`, 'keep the key in ANTHROPIC_AUTH_TOKEN / ANTHROPIC_API_KEY and the base URL bare', '"ANTHROPIC_BASE_URL"');
    if (!isHttpUrl(base)) add('bad-base-url', 'error', `ANTHROPIC_BASE_URL '${shownUrl(base)}' is not an http(s) URL`, 'e.g. https://api.anthropic.com or http://127.0.0.1:8788', '"ANTHROPIC_BASE_URL"');
    else if (hasDoubledV1(base) || endsWithV1(base)) add('doubled-v1', 'error', `ANTHROPIC_BASE_URL '${shownUrl(base)}' ends in /v1: Claude Code appends /v1/messages itself, so requests go to …/v1/v1/messages`, 'drop the trailing /v1', '"ANTHROPIC_BASE_URL"');
    else if (isAnthropicApiHost(base) && set.length === 1 && set[0] === 'ANTHROPIC_AUTH_TOKEN') {
      add('auth-token-for-anthropic-api', 'warning', `${where} sends the key to api.anthropic.com as ANTHROPIC_AUTH_TOKEN (Authorization: Bearer); the Anthropic API takes API keys as x-api-key`, 'use ANTHROPIC_API_KEY for api.anthropic.com (keep ANTHROPIC_AUTH_TOKEN for gateways, proxies and OAuth tokens)', '"ANTHROPIC_AUTH_TOKEN"');
    }
  }
  for (const [name, value] of Object.entries(env)) {
    if (typeof value !== 'string') continue;
    if ((AUTH_VARS as readonly string[]).includes(name)) {
      if (isPlaceholder(value)) add('placeholder-key', 'warning', `${name} is still the placeholder '${value}'`, 'put the key here (or export it in the shell and delete this line)', `"${name}"`);
      else if (isEnvReference(value)) add('env-reference-not-expanded', 'warning', `${name} is '${value}': settings.json env values are literal, the reference is sent as the key`, 'write the key itself here (keep the file private), or delete the line and export the variable in the shell', `"${name}"`);
    } else if (name !== 'ANTHROPIC_BASE_URL' && (isHttpUrl(value) ? credentialInUrl(value) !== undefined : containsSecret(value) || (looksLikeSecret(value) && name !== 'ANTHROPIC_MODEL'))) {
      // A URL is judged by its user info and query (a path like /v1beta/openai is no key); ANTHROPIC_BASE_URL has key-in-url.
      add('key-in-clear', 'error', `${name} carries what looks like a key pasted in clear`, 'credentials belong in ANTHROPIC_AUTH_TOKEN / ANTHROPIC_API_KEY (or an apiKeyHelper command), not in other variables', `"${name}"`);
    }
  }
  return findings;
}

export function lintClaudeSettings(settings: unknown, text: string): Finding[] {
  if (!isObject(settings)) return [{ rule: 'not-an-object', severity: 'error', message: 'settings.json must be a JSON object', hint: 'e.g. { "env": { "ANTHROPIC_BASE_URL": "…", "ANTHROPIC_AUTH_TOKEN": "…" } }', line: 1 }];
  const env = settings['env'];
  if (env === undefined) return [{ rule: 'no-env', severity: 'warning', message: 'no `env` block: Claude Code will use its default endpoint and login', hint: 'add "env": { "ANTHROPIC_BASE_URL": "…", "ANTHROPIC_AUTH_TOKEN": "…" }', line: 1 }];
  if (!isObject(env)) return [{ rule: 'bad-env', severity: 'error', message: '`env` must be an object of string values', hint: 'e.g. "env": { "ANTHROPIC_BASE_URL": "https://…" }', line: lineOf(text, '"env"') }];
  return lintClaudeEnv(env, text);
}

/** The Anthropic API itself, where API keys go in x-api-key (ANTHROPIC_API_KEY), not Bearer. */
export function isAnthropicApiHost(url: string): boolean {
  try {
    return new URL(url).hostname.toLowerCase() === 'api.anthropic.com';
  } catch {
    return false;
  }
}

/** ANTHROPIC_API_KEY for the Anthropic API itself, ANTHROPIC_AUTH_TOKEN (Bearer) for gateways and proxies. */
export function defaultAuthVar(baseUrl: string): ClaudeAuthVar {
  return isAnthropicApiHost(baseUrl) ? 'ANTHROPIC_API_KEY' : 'ANTHROPIC_AUTH_TOKEN';
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
