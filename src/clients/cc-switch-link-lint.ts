/**
 * `clients lint` for a CC Switch deep link: first what CC Switch itself would refuse (its
 * parser, then its importer), then the client rules the provider's app will meet — Claude
 * Code appends /v1/messages, Codex appends /responses — and keys where they do not belong.
 * Findings never quote the key. Pure.
 */
import { credentialInUrl, endsWithV1, hasDoubledV1, hasVersionSegment, shownUrl } from './base-url.js';
import { parseCcSwitchLink } from './cc-switch-link.js';
import { isAnthropicApiHost } from './claude-code.js';
import type { Finding } from './finding.js';
import { isPlaceholder } from './secrets.js';

export function lintCcSwitchLink(text: string): Finding[] {
  const link = text.trim();
  const line = 1 + text.slice(0, text.indexOf(link)).split('\n').length - 1;
  const findings: Finding[] = [];
  const add = (rule: string, severity: Finding['severity'], message: string, hint: string): void => {
    findings.push({ rule, severity, message, hint, line });
  };
  const parsed = parseCcSwitchLink(link);
  if (!parsed.ok) {
    add('cc-switch-link-invalid', 'error', `CC Switch refuses this link: ${parsed.error}`, 'write it with `isobudget clients write cc-switch`: ccswitch://v1/import?resource=provider&app=claude&name=…&endpoint=…&homepage=…');
    return findings;
  }
  const request = parsed.request;
  if (request.resource !== 'provider') {
    add('cc-switch-not-provider', 'warning', `a ${request.resource} link: isobudget checks provider links only`, 'nothing else to check here');
    return findings;
  }
  const endpoints = (request.endpoint ?? '').split(',').map((e) => e.trim()).filter((e) => e !== '');
  const primary = endpoints[0];
  if (primary === undefined) add('cc-switch-no-endpoint', 'error', 'the link has no endpoint: CC Switch refuses to import it ("Endpoint is required")', 'add endpoint=<the provider base URL>');
  const key = request.apiKey?.trim() ?? '';
  if (key === '') {
    add('cc-switch-no-api-key', 'warning', 'the link carries no apiKey: CC Switch refuses to import a provider without one ("API key is required")', 'rerun `clients write cc-switch --include-key` (the key is read from --key-env), or add the provider in CC Switch by hand');
  } else if (isPlaceholder(key)) {
    add('placeholder-key', 'warning', 'apiKey is still a placeholder', 'put the real key in (only in a link you do not share)');
  } else {
    add('key-in-link', 'warning', 'the link carries an API key in clear: anyone who sees the link can use the key', 'share links without the key (omit --include-key) and paste the key in CC Switch');
  }
  for (const [i, endpoint] of endpoints.entries()) {
    const where = endpoints.length > 1 ? `endpoint[${i}]` : 'endpoint';
    const credential = credentialInUrl(endpoint);
    if (credential) add('key-in-url', 'error', `${where} carries a credential in ${credential}`, 'keep keys out of URLs: the key goes in apiKey, and the endpoint is the bare base URL');
    if (request.app === 'claude') {
      if (hasDoubledV1(endpoint) || endsWithV1(endpoint)) add('doubled-v1', 'error', `${where} '${shownUrl(endpoint)}' ends in /v1: CC Switch writes it as ANTHROPIC_BASE_URL and Claude Code appends /v1/messages itself`, 'drop the trailing /v1');
      else if (isAnthropicApiHost(endpoint)) add('auth-token-for-anthropic-api', 'warning', `${where} is api.anthropic.com, but CC Switch writes the key as ANTHROPIC_AUTH_TOKEN (Authorization: Bearer); api.anthropic.com takes API keys as x-api-key (ANTHROPIC_API_KEY)`, 'for the Anthropic API use `isobudget clients write claude-code --provider anthropic` (ANTHROPIC_API_KEY), or CC Switch\'s own official preset');
    }
    if (request.app === 'codex') {
      if (hasDoubledV1(endpoint)) add('doubled-v1', 'error', `${where} '${shownUrl(endpoint)}' has a doubled /v1`, 'keep one /v1: Codex appends /responses to base_url');
      else if (!hasVersionSegment(endpoint)) add('codex-base-url-no-v1', 'error', `${where} '${shownUrl(endpoint)}' has no /v1: CC Switch writes it as Codex's base_url, Codex appends /responses, and the server answers 404 (Codex retries six times)`, 'end the endpoint with /v1, e.g. https://api.example.com/v1');
    }
  }
  return findings;
}
