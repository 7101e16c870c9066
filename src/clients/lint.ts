/** `clients lint`: which client a file configures, and what is wrong with it, pure. */
import { basename, extname } from 'node:path';
import { isObject, lintClaudeSettings } from './claude-code.js';
import { lintCcSwitch } from './cc-switch.js';
import { isCcSwitchLink } from './cc-switch-link.js';
import { lintCcSwitchLink } from './cc-switch-link-lint.js';
import { lintCodexText } from './codex.js';
import type { ClientKind, Finding } from './finding.js';

/** TOML is Codex; JSON with `env` (or settings-only keys) is Claude Code; a ccswitch:// link or the seed's three fields are CC Switch. */
export function detectKind(file: string, text: string): ClientKind | undefined {
  if (isCcSwitchLink(text)) return 'cc-switch';
  if (extname(file) === '.toml') return 'codex';
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // Broken JSON still says by its name what it is meant to be.
    if (basename(file).startsWith('settings')) return 'claude-code';
    if (extname(file) === '.json') return /cc-?switch|provider/i.test(basename(file)) ? 'cc-switch' : undefined;
    return /^\s*\[|^\s*[a-z_]+\s*=/m.test(text) ? 'codex' : undefined;
  }
  if (!isObject(value)) return undefined;
  if ('provider' in value || 'baseUrl' in value || 'apiKey' in value || 'providers' in value || 'settingsConfig' in value) return 'cc-switch';
  if ('env' in value || 'permissions' in value || 'apiKeyHelper' in value || basename(file).startsWith('settings')) return 'claude-code';
  return undefined;
}

export function lintText(file: string, text: string, kind: ClientKind | undefined = detectKind(file, text)): { kind: ClientKind | undefined; findings: Finding[] } {
  if (kind === undefined) {
    return { kind, findings: [{ rule: 'unknown-kind', severity: 'error', message: 'cannot tell which client this file configures', hint: 'pass --kind claude-code|codex|cc-switch', line: undefined }] };
  }
  if (kind === 'codex') return { kind, findings: lintCodexText(text) };
  if (kind === 'cc-switch' && isCcSwitchLink(text)) return { kind, findings: lintCcSwitchLink(text) };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { kind, findings: [{ rule: 'json-syntax', severity: 'error', message: `not valid JSON: ${(error as Error).message}`, hint: 'fix the syntax (JSON allows no comments or trailing commas)', line: undefined }] };
  }
  const findings = kind === 'claude-code' ? lintClaudeSettings(value, text) : lintCcSwitch(value, text);
  const seen = new Set<string>();
  return { kind, findings: findings.filter((f) => !seen.has(`${f.rule}|${f.line}|${f.message}`) && seen.add(`${f.rule}|${f.line}|${f.message}`) !== undefined) };
}
