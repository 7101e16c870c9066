/** The attribution findings as terminal text, pure. */
import type { Attribution } from '../analysis/attribution/attribute.js';

export function renderAttribution(attribution: Attribution, all = false): string {
  const lines: string[] = [];
  for (const f of attribution.findings) {
    if (!all && !f.flagged) continue;
    const mark = f.flagged ? 'FLAG' : f.applicable ? 'ok  ' : 'n/a ';
    lines.push(`  ${mark} ${f.detector}: ${f.summary}`);
    if (f.flagged && f.action) lines.push(`       → ${f.cause}: ${f.action}`);
  }
  return lines.length === 0 ? '' : `attribution:\n${lines.join('\n')}\n`;
}
