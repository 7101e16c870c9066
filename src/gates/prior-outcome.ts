/**
 * What the memory already says about a candidate that has no active skill_candidate, pure
 * (issue 24 item 6): one approved before is "already promoted", one whose val run was
 * `budget_leakage` is "remembered as a negative pattern — not promotable". Without this the
 * gate told both to "run … and ingest first", which would only screen them again.
 */
import type { MemoryRecord } from '../memory/record.js';

export interface PriorOutcome {
  kind: 'already_promoted' | 'negative_pattern';
  memory_id: string;
  summary: string;
}

/** `text`: the candidate's skill text now (a promoted skill counts only if it is this text). */
export function priorOutcome(records: readonly MemoryRecord[], candidateId: string, text: string): PriorOutcome | undefined {
  const mine = records.filter((r) => r.candidate_id === candidateId && r.status !== 'retired');
  const skill = mine.find((r) => r.type === 'skill' && r.skill?.text === text);
  if (skill) {
    const approval = skill.approvals.at(-1);
    return { kind: 'already_promoted', memory_id: skill.memory_id, summary: `already promoted: ${candidateId} is skill ${skill.memory_id} v${skill.version}${approval ? ` (approved by ${approval.reviewer}${approval.gate_id ? ` in ${approval.gate_id}` : ''})` : ''}; nothing to gate, the test split was not run again` };
  }
  const negative = mine.find((r) => r.type === 'negative_pattern');
  if (negative) {
    return { kind: 'negative_pattern', memory_id: negative.memory_id, summary: `remembered as a negative pattern — not promotable: ${negative.memory_id} (${negative.reason ?? negative.pattern ?? 'budget_leakage'}, run ${negative.source_run}); a new direction needs new same-budget evidence on val` };
  }
  return undefined;
}
