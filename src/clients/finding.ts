/** One problem `clients lint` found in a client config. */
export type ClientKind = 'claude-code' | 'codex' | 'cc-switch';

export const CLIENT_KINDS: readonly ClientKind[] = ['claude-code', 'codex', 'cc-switch'];

export interface Finding {
  /** Stable rule id, e.g. `wire-api-chat`. */
  rule: string;
  severity: 'error' | 'warning';
  message: string;
  hint: string;
  line: number | undefined;
}

export function formatFinding(file: string, finding: Finding): string {
  return `${file}${finding.line === undefined ? '' : `:${finding.line}`}: ${finding.severity} ${finding.rule}: ${finding.message}\n  hint: ${finding.hint}`;
}
