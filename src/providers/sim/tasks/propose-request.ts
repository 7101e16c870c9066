/**
 * How the simulated proposer reads an edit request: the skill it is asked to edit, the
 * versions to use, the failures it is shown, the negative patterns' directions and what was
 * tried before — all from the prompt text, as a model would (no side channel).
 */
import type { ChatMessage } from '../../../core/messages.js';

export const REQUEST_TITLE = '# Skill edit request';
export const REPAIR_TITLE = '# Repair request';

export interface ShownFailure {
  input: string;
  expected: string;
  category: string;
}

export interface EditRequest {
  skill: string;
  versions: string[];
  failures: ShownFailure[];
  /** Lines the negative patterns' changes added (their directions). */
  negativeLines: string[];
  /** Lines earlier proposals added. */
  triedLines: string[];
  /** Set when the last turn asks to repair one proposal. */
  repair: { slot: number; version: string } | undefined;
  /** The largest skill the request allows (tokens), when it says. */
  maxTokens: number | undefined;
}

export function readEditRequest(conversation: readonly ChatMessage[]): EditRequest | undefined {
  const request = conversation.find((m) => m.role === 'user' && m.content.startsWith(REQUEST_TITLE))?.content;
  if (request === undefined) return undefined;
  const skill = /^````markdown\n([\s\S]*?)\n````$/m.exec(request)?.[1];
  const versions = /give them versions ([^(]+?) \(/.exec(request)?.[1]?.split(',').map((v) => v.trim()).filter(Boolean) ?? [];
  if (skill === undefined || versions.length === 0) return undefined;
  const last = [...conversation].reverse().find((m) => m.role === 'user');
  const repairMatch = last?.content.startsWith(REPAIR_TITLE) ? /Proposal (\d+) \(version ([^)]+)\)/.exec(last.content) : null;
  return {
    skill: `${skill}\n`,
    versions,
    failures: readFailures(request),
    negativeLines: section(request, '## Memory 1').split('\n').filter((l) => l.startsWith('+')).map((l) => l.slice(1)),
    triedLines: [...section(request, '## Memory 3').matchAll(/"([^"]+)"/g)].map((m) => m[1] ?? ''),
    repair: repairMatch ? { slot: Number(repairMatch[1]), version: repairMatch[2] ?? '' } : undefined,
    maxTokens: Number(/stays within (\d+) tokens/.exec(request)?.[1] ?? Number.NaN) || undefined,
  };
}

function readFailures(request: string): ShownFailure[] {
  const block = /^```jsonl\n([\s\S]*?)\n```$/m.exec(request)?.[1] ?? '';
  const failures: ShownFailure[] = [];
  for (const line of block.split('\n')) {
    try {
      const row = JSON.parse(line) as Partial<ShownFailure>;
      if (typeof row.input === 'string') failures.push({ input: row.input, expected: typeof row.expected === 'string' ? row.expected : '', category: typeof row.category === 'string' ? row.category : '' });
    } catch {
      // A line the model cannot read is skipped, as a model would skim past it.
    }
  }
  return failures;
}

/** The text of the `## …` section that starts with `heading`, up to the next `## `. */
function section(text: string, heading: string): string {
  const start = text.indexOf(`\n${heading}`);
  if (start < 0) return '';
  const end = text.indexOf('\n## ', start + heading.length + 1);
  return text.slice(start, end < 0 ? undefined : end);
}
