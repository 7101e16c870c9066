/**
 * CC Switch's import deep link, `ccswitch://v1/import?resource=provider&app=claude&name=…&
 * endpoint=…&homepage=…[&model=…][&apiKey=…]`: built for `clients write cc-switch`, and parsed
 * exactly as CC Switch parses it, so `clients lint` says what the app would say.
 *
 * The parser follows CC Switch's own, src-tauri/src/deeplink/parser.rs (parse_deeplink_url,
 * parse_provider_deeplink, …) and utils.rs (validate_url) in farion1231/cc-switch at
 * 84e75ad2 (2026-08-14): scheme `ccswitch`, host `v1`, path exactly `/import`, form-decoded
 * query parameters (a repeated one: the last wins, as when Rust collects them into a
 * HashMap), `resource` in provider / prompt / mcp / skill; a provider needs `app` (claude,
 * codex, gemini, grokbuild, opencode, openclaw, hermes) and `name`; `homepage` and every
 * comma-separated `endpoint` must be http(s) URLs when given. Its importer (provider.rs,
 * import_provider_from_deeplink) then also requires a non-empty `apiKey` and an endpoint.
 * Pure.
 */

export const CC_SWITCH_APPS = ['claude', 'codex', 'gemini', 'grokbuild', 'opencode', 'openclaw', 'hermes'] as const;
/** The apps `clients write cc-switch --app` writes for. */
export type CcSwitchApp = 'claude' | 'codex';

export interface CcSwitchLinkInput {
  app: CcSwitchApp;
  name: string;
  /** Claude: an Anthropic-style base URL; Codex: an OpenAI-style one (CC Switch writes it as base_url). */
  endpoint: string;
  homepage: string;
  model: string | undefined;
  /** Only with --include-key. */
  apiKey: string | undefined;
}

export function buildCcSwitchLink(input: CcSwitchLinkInput): string {
  const params = new URLSearchParams({ resource: 'provider', app: input.app, name: input.name, endpoint: input.endpoint, homepage: input.homepage });
  if (input.model !== undefined) params.set('model', input.model);
  if (input.apiKey !== undefined) params.set('apiKey', input.apiKey);
  return `ccswitch://v1/import?${params.toString()}`;
}

/** What CC Switch's parser returns for a provider link (the fields isobudget checks). */
export interface CcSwitchImport {
  resource: string;
  app: string | undefined;
  name: string | undefined;
  endpoint: string | undefined;
  homepage: string | undefined;
  apiKey: string | undefined;
  model: string | undefined;
}

export type CcSwitchParse = { ok: true; request: CcSwitchImport } | { ok: false; error: string };

const fail = (error: string): CcSwitchParse => ({ ok: false, error });

export function parseCcSwitchLink(text: string): CcSwitchParse {
  let url: URL;
  try {
    url = new URL(text);
  } catch (error) {
    return fail(`Invalid deep link URL: ${(error as Error).message}`);
  }
  const scheme = url.protocol.replace(/:$/, '');
  if (scheme !== 'ccswitch') return fail(`Invalid scheme: expected 'ccswitch', got '${scheme}'`);
  if (url.hostname === '') return fail('Missing version in URL host');
  if (url.hostname !== 'v1') return fail(`Unsupported protocol version: ${url.hostname}`);
  if (url.pathname !== '/import') return fail(`Invalid path: expected '/import', got '${url.pathname}'`);
  // Rust collects the pairs into a HashMap: a repeated parameter keeps its last value.
  const params = new Map<string, string>();
  for (const [key, value] of url.searchParams) params.set(key, value);
  const resource = params.get('resource');
  if (resource === undefined) return fail("Missing 'resource' parameter");
  switch (resource) {
    case 'provider':
      return provider(params);
    case 'prompt':
      return other(params, resource, ['app', 'name', 'content'], 'for prompt');
    case 'mcp':
      return other(params, resource, ['apps', 'config'], 'for MCP');
    case 'skill': {
      const repo = params.get('repo');
      if (repo === undefined) return fail("Missing 'repo' parameter for skill");
      if (!repo.includes('/') || repo.split('/').length !== 2) return fail(`Invalid repo format: expected 'owner/name', got '${repo}'`);
      return { ok: true, request: { resource, app: 'claude', name: undefined, endpoint: undefined, homepage: undefined, apiKey: undefined, model: undefined } };
    }
    default:
      return fail(`Unsupported resource type: ${resource}`);
  }
}

function provider(params: Map<string, string>): CcSwitchParse {
  const app = params.get('app');
  if (app === undefined) return fail("Missing 'app' parameter");
  if (!(CC_SWITCH_APPS as readonly string[]).includes(app)) return fail(`Invalid provider app type: '${app}'`);
  const name = params.get('name');
  if (name === undefined) return fail("Missing 'name' parameter");
  const homepage = params.get('homepage');
  const endpoint = params.get('endpoint');
  if (homepage !== undefined && homepage !== '') {
    const problem = urlProblem(homepage, 'homepage');
    if (problem) return fail(problem);
  }
  if (endpoint !== undefined) {
    const parts = endpoint.split(',');
    for (const [i, part] of parts.entries()) {
      const trimmed = part.trim();
      const problem = trimmed === '' ? undefined : urlProblem(trimmed, `endpoint[${i}]`);
      if (problem) return fail(problem);
    }
  }
  return { ok: true, request: { resource: 'provider', app, name, endpoint, homepage, apiKey: params.get('apiKey'), model: params.get('model') } };
}

function other(params: Map<string, string>, resource: string, required: string[], what: string): CcSwitchParse {
  for (const key of required) if (params.get(key) === undefined) return fail(`Missing '${key}' parameter ${what}`);
  return { ok: true, request: { resource, app: params.get('app'), name: params.get('name'), endpoint: undefined, homepage: undefined, apiKey: undefined, model: undefined } };
}

/** utils.rs validate_url: an absolute URL whose scheme is http or https. */
function urlProblem(value: string, field: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch (error) {
    return `Invalid URL for '${field}': ${(error as Error).message}`;
  }
  const scheme = url.protocol.replace(/:$/, '');
  return scheme === 'http' || scheme === 'https' ? undefined : `Invalid URL scheme for '${field}': must be http or https, got '${scheme}'`;
}

/** Does this text hold a deep link (rather than JSON)? */
export function isCcSwitchLink(text: string): boolean {
  return /^ccswitch:/i.test(text.trim());
}
