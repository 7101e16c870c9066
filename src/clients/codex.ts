/**
 * Codex `config.toml`: `model_provider` naming a `[model_providers.<id>]` table with `name`,
 * `base_url`, `env_key` (the NAME of the variable holding the key) and
 * `wire_api = "responses"` — current Codex refuses "chat" at start-up. Build and lint, pure.
 */
import { parse } from 'smol-toml';
import { credentialInUrl, hasDoubledV1, hasVersionSegment, isCredentialParam, isHttpUrl, shownUrl } from './base-url.js';
import { isObject } from './claude-code.js';
import type { Finding } from './finding.js';
import { containsSecret, isEnvName, lineOf, looksLikeSecret } from './secrets.js';

/** Providers Codex knows without a table. */
const BUILTIN_PROVIDERS = new Set(['openai', 'oss', 'ollama', 'lmstudio']);

export interface CodexProvider {
  id: string;
  name: string;
  baseUrl: string;
  envKey: string;
  model: string | undefined;
  /**
   * Behind the isobudget gateway: Codex 0.171.0 offers its hosted `web_search` tool by default,
   * which a budgeted key refuses (`unestimable_field` — its billing is not in the body), so the
   * config turns it off (`web_search = "disabled"`, checked against the real binary: the
   * request then carries no `web_search` tool).
   */
  disableWebSearch?: boolean;
}

/** Sets the provider (and model, if given) in an existing parsed config, keeping everything else. */
export function codexConfig(existing: Record<string, unknown>, provider: CodexProvider): Record<string, unknown> {
  const providers = { ...(isObject(existing['model_providers']) ? existing['model_providers'] : {}) };
  providers[provider.id] = { name: provider.name, base_url: provider.baseUrl, env_key: provider.envKey, wire_api: 'responses' };
  const out: Record<string, unknown> = { ...existing, model_provider: provider.id, model_providers: providers };
  if (provider.model !== undefined) out['model'] = provider.model;
  if (provider.disableWebSearch) out['web_search'] = 'disabled';
  return out;
}

export function lintCodexText(text: string): Finding[] {
  let config: unknown;
  try {
    config = parse(text);
  } catch (error) {
    const line = (error as { line?: number }).line;
    return [{ rule: 'toml-syntax', severity: 'error', message: `not valid TOML: ${(error as Error).message.split('\n')[0] ?? ''}`, hint: 'fix the syntax; Codex will not start with a broken config.toml', line }];
  }
  const findings: Finding[] = [];
  const add = (rule: string, severity: Finding['severity'], message: string, hint: string, needle: string): void => {
    findings.push({ rule, severity, message, hint, line: lineOf(text, needle) });
  };
  const root = isObject(config) ? config : {};
  const providers = isObject(root['model_providers']) ? root['model_providers'] : {};
  // Codex reads whatever variable env_key names — an ANTHROPIC_* one included.
  const envKeys = new Set(Object.values(providers).flatMap((table) => (isObject(table) && typeof table['env_key'] === 'string' ? [table['env_key']] : [])));
  for (const name of new Set(text.match(/ANTHROPIC_[A-Z0-9_]+/g) ?? [])) {
    if (envKeys.has(name)) add('anthropic-var-in-codex', 'error', `env_key = "${name}": Codex sends the value of that variable as its OpenAI bearer key — Claude Code's Anthropic credential, so one variable now drives two tools and switching one switches (or breaks) the other`, 'give Codex its own variable, e.g. env_key = "OPENAI_API_KEY" (or the provider\'s, e.g. TAOTOKEN_API_KEY)', name);
    else add('anthropic-var-in-codex', 'error', `${name} appears in a Codex config: Codex takes its endpoint from base_url and its key from the variable env_key names, so this setting does not configure Codex's model calls (it only reaches the commands Codex runs)`, 'remove it; point base_url and env_key at the provider instead', name);
  }
  const selected = root['model_provider'];
  if (typeof selected === 'string' && !BUILTIN_PROVIDERS.has(selected) && providers[selected] === undefined) {
    add('unknown-model-provider', 'error', `model_provider = "${selected}" but there is no [model_providers.${selected}]`, `add a [model_providers.${selected}] table, or pick one of the defined providers`, 'model_provider');
  }
  for (const [id, table] of Object.entries(providers)) {
    if (!isObject(table)) continue;
    const header = `[model_providers.${id}]`;
    for (const field of ['name', 'base_url']) {
      if (typeof table[field] !== 'string') add('missing-field', 'error', `${header} has no ${field}`, `add ${field} = "…"`, header);
    }
    const wire = table['wire_api'];
    if (wire === 'chat') add('wire-api-chat', 'error', `${header} has wire_api = "chat", which current Codex refuses at start-up ("no longer supported")`, 'set wire_api = "responses" (the upstream or gateway must serve /v1/responses)', 'wire_api');
    else if (wire === undefined) add('wire-api-missing', 'warning', `${header} does not set wire_api`, 'set wire_api = "responses" explicitly', header);
    const base = table['base_url'];
    if (typeof base === 'string') {
      const credential = credentialInUrl(base);
      if (credential) add('key-in-url', 'error', `${header} base_url carries a credential in ${credential}: Codex prints base_url in its error output`, 'keep the key in the environment: env_key = "VAR_NAME", and a bare base_url', base);
      if (!isHttpUrl(base)) add('bad-base-url', 'error', `${header} base_url '${shownUrl(base)}' is not an http(s) URL`, 'e.g. base_url = "https://api.openai.com/v1"', base);
      else if (hasDoubledV1(base)) add('doubled-v1', 'error', `${header} base_url '${shownUrl(base)}' has a doubled /v1`, 'keep one /v1: Codex appends /responses to base_url', base);
      else if (!hasVersionSegment(base)) add('codex-base-url-no-v1', 'error', `${header} base_url '${shownUrl(base)}' has no /v1: Codex appends /responses, the server answers 404, and Codex retries six times before it gives up`, 'end base_url with /v1, e.g. base_url = "https://api.example.com/v1"', base);
    }
    const query = isObject(table['query_params']) ? table['query_params'] : {};
    for (const [name, value] of Object.entries(query)) {
      if (isCredentialParam(name, value)) add('key-in-url', 'error', `${header} query_params.${name} carries a credential in clear: it is sent in every request URL, and Codex prints that URL in its error output`, 'keep keys in env_key (or env_http_headers); query_params are for things like api-version', 'query_params');
    }
    const envKey = table['env_key'];
    if (typeof envKey === 'string' && (!isEnvName(envKey) || looksLikeSecret(envKey))) {
      add('key-in-clear', 'error', `${header} env_key holds what looks like a key pasted in clear; env_key takes the NAME of an environment variable`, 'write env_key = "MY_PROVIDER_API_KEY" and export MY_PROVIDER_API_KEY=… in the shell', 'env_key');
    } else if (envKey === undefined && table['requires_openai_auth'] !== true) {
      add('missing-field', 'warning', `${header} has no env_key: requests go out without a key`, 'add env_key = "NAME_OF_THE_KEY_VARIABLE"', header);
    }
    if (typeof table['experimental_bearer_token'] === 'string') {
      add('key-in-clear', 'error', `${header} experimental_bearer_token holds a key in clear`, 'use env_key = "VAR_NAME" and keep the key in the environment', 'experimental_bearer_token');
    }
    const headers = isObject(table['http_headers']) ? table['http_headers'] : {};
    for (const [name, value] of Object.entries(headers)) {
      if (typeof value === 'string' && containsSecret(value)) add('key-in-clear', 'error', `${header} http_headers.${name} carries a key in clear`, `move it to env_http_headers = { "${name}" = "VAR_NAME" }`, name);
    }
  }
  const top = root['openai_base_url'];
  if (typeof top === 'string') {
    if (credentialInUrl(top)) add('key-in-url', 'error', `openai_base_url carries a credential in ${credentialInUrl(top) ?? ''}`, 'keep the key in OPENAI_API_KEY and the base URL bare', 'openai_base_url');
    if (hasDoubledV1(top)) add('doubled-v1', 'error', `openai_base_url '${shownUrl(top)}' has a doubled /v1`, 'keep one /v1', 'openai_base_url');
    else if (isHttpUrl(top) && !hasVersionSegment(top)) add('codex-base-url-no-v1', 'error', `openai_base_url '${shownUrl(top)}' has no /v1: Codex appends /responses and gets 404`, 'end it with /v1', 'openai_base_url');
  }
  return findings;
}
