/** Client configs (Claude Code, Codex, CC Switch): write them for a target, lint them. */
export { renderClientConfig, KEY_PLACEHOLDER, type CcSwitchFormat, type RenderRequest, type Rendered } from './render.js';
export { buildCcSwitchLink, isCcSwitchLink, parseCcSwitchLink, type CcSwitchApp } from './cc-switch-link.js';
export { lintText, detectKind } from './lint.js';
export { resolveTarget, type ClientTarget, type TargetChoice } from './target.js';
export { writeWithBackup } from './write-file.js';
export { CLIENT_KINDS, formatFinding, type ClientKind, type Finding } from './finding.js';
export { AUTH_VARS, type ClaudeAuthVar } from './claude-code.js';
