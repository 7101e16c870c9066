/**
 * CC Switch provider in the seed's three fields, `{ provider, baseUrl, apiKey }`
 * (`clients write cc-switch --format seed`) — a note for a human: the app itself imports
 * providers through its deep link (cc-switch-link.ts). baseUrl is the Claude side's,
 * an Anthropic-style base URL. Full CC Switch exports (`settingsConfig.env`, a `providers`
 * map) are linted with the Claude Code rules. Build and lint, pure.
 */
import { credentialInUrl, endsWithV1, hasDoubledV1, isHttpUrl, shownUrl } from './base-url.js';
import { isObject, lintClaudeEnv } from './claude-code.js';
import type { Finding } from './finding.js';
import { isEnvReference, isPlaceholder, lineOf } from './secrets.js';

export function ccSwitchProvider(name: string, baseUrl: string, apiKey: string): Record<string, string> {
  return { provider: name, baseUrl, apiKey };
}

export function lintCcSwitch(value: unknown, text: string): Finding[] {
  if (!isObject(value)) return [{ rule: 'not-an-object', severity: 'error', message: 'a CC Switch provider must be a JSON object', hint: 'e.g. { "provider": "TaoToken", "baseUrl": "https://…", "apiKey": "…" }', line: 1 }];
  if (isObject(value['providers'])) return Object.entries(value['providers']).flatMap(([id, entry]) => lintEntry(entry, text, `providers.${id}`));
  return lintEntry(value, text, 'provider');
}

function lintEntry(entry: unknown, text: string, where: string): Finding[] {
  if (!isObject(entry)) return [];
  const findings: Finding[] = [];
  const add = (rule: string, severity: Finding['severity'], message: string, hint: string, needle: string): void => {
    findings.push({ rule, severity, message, hint, line: lineOf(text, needle) });
  };
  if (isObject(entry['settingsConfig']) && isObject(entry['settingsConfig']['env'])) {
    findings.push(...lintClaudeEnv(entry['settingsConfig']['env'], text, `${where}.settingsConfig.env`));
  }
  const seedShape = 'provider' in entry || 'baseUrl' in entry || 'apiKey' in entry;
  if (!seedShape) return findings;
  for (const field of ['provider', 'baseUrl', 'apiKey']) {
    if (typeof entry[field] !== 'string' || entry[field] === '') add('missing-field', 'error', `${where} has no ${field}`, 'a CC Switch provider needs provider (name), baseUrl and apiKey', `"${field}"`);
  }
  const base = entry['baseUrl'];
  if (typeof base === 'string' && base !== '') {
    const credential = credentialInUrl(base);
    if (credential) add('key-in-url', 'error', `baseUrl carries a credential in ${credential}`, 'the key belongs in apiKey; keep baseUrl bare', '"baseUrl"');
    if (!isHttpUrl(base)) add('bad-base-url', 'error', `baseUrl '${shownUrl(base)}' is not an http(s) URL`, 'e.g. https://taotoken.net/api', '"baseUrl"');
    else if (hasDoubledV1(base) || endsWithV1(base)) add('doubled-v1', 'error', `baseUrl '${shownUrl(base)}' ends in /v1: Claude Code appends /v1/messages itself`, 'drop the trailing /v1', '"baseUrl"');
  }
  const key = entry['apiKey'];
  if (typeof key === 'string') {
    if (isPlaceholder(key)) add('placeholder-key', 'warning', `apiKey is still the placeholder '${key}'`, 'paste the key in CC Switch itself; do not commit this file with a real key', '"apiKey"');
    else if (isEnvReference(key)) add('env-reference-not-expanded', 'warning', `apiKey is '${key}': CC Switch writes it into Claude Code settings literally`, 'paste the key value in CC Switch', '"apiKey"');
  }
  const json = JSON.stringify(entry);
  for (const name of new Set(json.match(/(OPENAI|CODEX)_[A-Z0-9_]+/g) ?? [])) {
    add('openai-var-in-claude', 'error', `${where} mentions ${name}: this is a Claude Code provider, and Claude Code reads no OpenAI/Codex variables`, 'for Codex, write its own provider: `isobudget clients write cc-switch --app codex` (or clients write codex)', name);
  }
  return findings;
}
