/**
 * Layer 5's question: must a person decide? Seed §7 names the nodes that always need one —
 * rule-level memory writes, new domains (cold start), regression decisions and budget-policy
 * changes. Every promotion also goes to a human unless `--auto-confirm` is given, which
 * grants autonomy only where none of those reasons applies (a stable domain). Pure.
 */
import type { MemoryRecord } from '../memory/record.js';
import { describeChange, type PolicyChange } from './budget-policy.js';

export interface HumanContext {
  changes: readonly PolicyChange[];
  skillName: string;
  level: 'note' | 'rule';
  records: readonly MemoryRecord[];
}

/** Reasons that always need a human (empty: a stable-domain change a machine may confirm). */
export function alwaysHumanReasons(context: HumanContext): string[] {
  const reasons = context.changes.map((change) => `budget policy change: ${describeChange(change)}`);
  const history = context.records.some((r) => r.type === 'skill' && r.skill?.name === context.skillName);
  if (!history) reasons.push(`new domain: no skill named ${context.skillName} has been approved before`);
  if (context.level === 'rule') reasons.push('rule-level write (front matter `level: rule`)');
  return reasons;
}

export const PROMOTION_REASON = 'promotion to skill: human confirmation (layer 5)';
