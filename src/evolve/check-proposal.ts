/**
 * The checks every proposal must pass before it is screened, pure, in order: it applies
 * cleanly; its front matter is valid, keeps the skill's name and takes the version it was
 * given (above the incumbent's, used by no earlier proposal); the skill stays within
 * `max_skill_growth` × the starting skill's tokens; it quotes no val, test or regression
 * input or expected output (the gate's contamination check); it changes the skill; and it
 * repeats neither an earlier proposal nor a negative pattern's direction (direction.ts).
 */
import type { EvalCase } from '../core/case.js';
import { countTokens } from '../core/tokens.js';
import { findContamination } from '../gates/contamination.js';
import { checkSkillFile } from '../gates/skill-file.js';
import { parseFrontMatter } from '../memory/front-matter.js';
import { applyUnifiedDiff } from './apply-diff.js';
import { addedLines, directionWords, NEGATIVE_OVERLAP, novel, overlap, REPEAT_OVERLAP } from './direction.js';
import type { ParsedProposal } from './parse-proposals.js';
import { compareVersions } from './versions.js';

export interface EarlierProposal {
  /** e.g. `round 1 version 3`, or a memory id. */
  label: string;
  words: ReadonlySet<string>;
  /** Skill body (without front matter) it led to, when known. */
  body: string | undefined;
}

export interface NegativeDirection {
  memoryId: string;
  words: ReadonlySet<string>;
}

export interface CheckContext {
  skillName: string;
  incumbent: { version: string; text: string };
  /** The version this slot was given. */
  expectedVersion: string;
  startTokens: number;
  maxGrowth: number;
  /** Cases the skill must not quote: val, test and regression. */
  heldOut: ReadonlyArray<{ split: string; cases: readonly EvalCase[] }>;
  contaminationMinChars: number;
  earlier: readonly EarlierProposal[];
  negatives: readonly NegativeDirection[];
}

export type CheckResult =
  | { ok: true; text: string; version: string; words: Set<string> }
  | { ok: false; code: string; reason: string; version: string | null };

export function checkProposal(proposal: ParsedProposal, context: CheckContext): CheckResult {
  const fail = (code: string, reason: string, version: string | null = null): CheckResult => ({ ok: false, code, reason, version });
  if (proposal.diff === undefined) return fail('no_diff', 'the reply has no ```diff block for it');
  const applied = applyUnifiedDiff(context.incumbent.text, proposal.diff);
  if (!applied.ok) return fail('does_not_apply', applied.reason);
  const text = applied.text;
  const front = checkSkillFile(text, 'SKILL.md');
  const version = front.version ?? null;
  if (front.problems.length > 0) return fail('front_matter', front.problems.join('; '), version);
  if (front.name !== context.skillName) return fail('front_matter', `the front matter renames the skill to \`${front.name ?? ''}\`; keep \`name: ${context.skillName}\``, version);
  if (version === null || compareVersions(version, context.incumbent.version) <= 0) return fail('version', `version ${version ?? '(none)'} is not above the incumbent's ${context.incumbent.version}: bump it to ${context.expectedVersion}`, version);
  if (version !== context.expectedVersion) return fail('version', `version ${version} is not the one given for this proposal (${context.expectedVersion})`, version);
  const tokens = countTokens(text);
  const limit = Math.floor(context.maxGrowth * context.startTokens);
  if (tokens > limit) return fail('growth', `the skill grows to ${tokens} tokens, over ${limit} (${context.maxGrowth} × the starting ${context.startTokens})`, version);
  const contamination = findContamination(text, context.heldOut, context.contaminationMinChars);
  const hit = contamination.hits[0];
  if (hit) return fail('contamination', `it quotes the ${hit.field} of ${hit.split} case ${hit.case_id} ("${hit.text}"): evaluation cases must never be in a skill`, version);
  const body = bodyOf(text);
  if (body === bodyOf(context.incumbent.text)) return fail('no_change', 'it changes nothing but the front matter', version);
  const known = directionWords(bodyOf(context.incumbent.text).split('\n'));
  const words = novel(directionWords(addedLines(proposal.diff)), known);
  for (const negative of context.negatives) {
    const shared = overlap(words, novel(negative.words, known));
    if (shared >= NEGATIVE_OVERLAP) return fail('negative_direction', `it goes in the direction of negative pattern ${negative.memoryId} (${Math.round(shared * 100)}% of its words shared; limit ${NEGATIVE_OVERLAP * 100}%)`, version);
  }
  for (const earlier of context.earlier) {
    if (earlier.body !== undefined && earlier.body === body) return fail('repeat', `it leads to the same skill as ${earlier.label}`, version);
    const shared = overlap(words, novel(earlier.words, known));
    if (shared >= REPEAT_OVERLAP) return fail('repeat', `it repeats ${earlier.label} (${Math.round(shared * 100)}% of its words shared; limit ${REPEAT_OVERLAP * 100}%)`, version);
  }
  return { ok: true, text, version, words };
}

/** The skill without its front matter: what an edit changes for the model besides the version. */
export function bodyOf(text: string): string {
  return parseFrontMatter(text).body.trim();
}
