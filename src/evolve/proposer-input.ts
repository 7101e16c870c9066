/**
 * The proposer's input, pure: a short system prompt and one user message holding the
 * request, the memory (negative patterns first), the incumbent skill, the train diagnosis
 * and the answer format. The same text is saved as `round-<r>/proposer-input.md` for audit;
 * a repair request is a follow-up turn appended to it. Only train cases (and production
 * failures assigned to train) ever appear here.
 */
import type { ChatMessage } from '../core/messages.js';
import type { Recall } from './recall.js';
import type { Diagnosis } from './types.js';

export const PROPOSER_SYSTEM = 'You are a careful prompt engineer. You improve a skill — the system prompt an LLM agent follows — with small, targeted edits written as unified diffs, and you explain each edit in one line.';
export const REQUEST_TITLE = '# Skill edit request';
export const REPAIR_TITLE = '# Repair request';
/** The label diffs use for the skill file, so every proposal names the same file. */
export const SKILL_LABEL = 'SKILL.md';

export interface ProposerRequest {
  skillName: string;
  incumbent: { version: string; text: string };
  /** Versions to give the K proposals, in order. */
  versions: readonly string[];
  /** Largest skill allowed (tokens) and the starting skill's size. */
  maxTokens: number;
  startTokens: number;
  maxGrowth: number;
  recall: Recall;
  diagnosis: Diagnosis | undefined;
}

export function proposerUserText(request: ProposerRequest): string {
  const k = request.versions.length;
  const lines: string[] = [
    REQUEST_TITLE,
    '',
    `You improve the skill \`${request.skillName}\` by proposing small edits as unified diffs against ${SKILL_LABEL}. Diff mode: change only what needs changing; do not rewrite the skill.`,
    '',
    `Propose exactly ${k} edit${k === 1 ? '' : 's'}, each a different direction, and give them versions ${request.versions.join(', ')} (the \`version:\` line of the front matter), in that order.`,
    'Each edit must keep these rules (a proposal that breaks one is sent back once with the reason, then dropped):',
    `- the diff applies cleanly to the skill below, and the front matter stays valid (\`name: ${request.skillName}\`, \`description\`, \`version\`);`,
    `- the skill stays within ${request.maxTokens} tokens (${request.maxGrowth} × the starting skill's ${request.startTokens}): a longer skill costs prompt tokens under the same budget;`,
    '- no input or expected answer of an evaluation case is quoted;',
    '- no repeat of an earlier proposal, and nothing in the direction of a negative pattern below.',
    '',
    ...negativeSection(request.recall),
    ...skillsSection(request.recall),
    ...triedSection(request.recall),
    `## Incumbent skill (version ${request.incumbent.version})`,
    '',
    '````markdown',
    request.incumbent.text.replace(/\n$/, ''),
    '````',
    '',
    ...diagnosisSection(request.diagnosis),
    '## Answer format',
    '',
    `For each edit, a heading and one diff (${SKILL_LABEL} on both sides):`,
    '',
    '### Proposal 1: <one line: what the edit changes and why>',
    '```diff',
    `--- ${SKILL_LABEL}`,
    `+++ ${SKILL_LABEL}`,
    '@@ -12,3 +12,4 @@',
    ' (context line)',
    '-(removed line)',
    '+(added line)',
    '```',
    '',
  ];
  return lines.join('\n');
}

export function proposerMessages(request: ProposerRequest): ChatMessage[] {
  return [
    { role: 'system', content: PROPOSER_SYSTEM },
    { role: 'user', content: proposerUserText(request) },
  ];
}

/** The follow-up turn asking once more for proposal `slot` after a check refused it. */
export function repairText(input: { slot: number; version: string; reason: string; diff: string | undefined; skillName: string }): string {
  return [
    REPAIR_TITLE,
    '',
    `Proposal ${input.slot} (version ${input.version}) for \`${input.skillName}\` was refused: ${input.reason}.`,
    `Send it again as one corrected proposal in the same format — "### Proposal ${input.slot}: …" and one \`\`\`diff block against the incumbent ${SKILL_LABEL} above — with version ${input.version}.`,
    '',
    '## The refused proposal',
    '',
    '```diff',
    (input.diff ?? '(no diff block was found)').replace(/\n$/, ''),
    '```',
    '',
  ].join('\n');
}

/** The whole input of a round, as saved in proposer-input.md (repairs appended as they happen). */
export function proposerInputMarkdown(messages: readonly ChatMessage[]): string {
  return messages.map((m) => (m.role === 'system' ? `<!-- system prompt -->\n> ${m.content}\n` : m.role === 'assistant' ? `<!-- proposer reply -->\n${fence(m.content)}\n` : `${m.content}\n`)).join('\n');
}

function negativeSection(recall: Recall): string[] {
  const lines = ['## Memory 1 — negative patterns: do not repeat these directions', ''];
  if (recall.negatives.length === 0) return [...lines, '(none yet)', ''];
  for (const pattern of recall.negatives) {
    lines.push(`### NEGATIVE PATTERN ${pattern.memoryId}: ${pattern.pattern}`);
    lines.push(`verdict ${pattern.verdict} (gain only at n=${pattern.n}${pattern.bestofnRatio === null ? '' : `, ${pattern.bestofnRatio.toFixed(1)}× the n=1 tokens`}); ${pattern.reason}`);
    lines.push('Direction (the lines that change added):', '```diff', ...pattern.direction.map((line) => `+${line}`), '```', '');
  }
  return lines;
}

function skillsSection(recall: Recall): string[] {
  const lines = ['## Memory 2 — skills and candidates of this skill', ''];
  if (recall.skills.length === 0) return [...lines, '(none yet)', ''];
  for (const skill of recall.skills) {
    lines.push(`- ${skill.type} ${skill.memoryId}: ${skill.candidateId} (version ${skill.version}), verdict ${skill.verdict}, same-budget n=1 delta ${signed(skill.sameBudgetDelta)}; it added: ${skill.direction.map((l) => `"${l.trim()}"`).join(' ') || '(nothing)'}`);
  }
  return [...lines, ''];
}

function triedSection(recall: Recall): string[] {
  const lines = ['## Memory 3 — what earlier rounds of this loop tried', ''];
  if (recall.tried.length === 0) return [...lines, '(nothing yet: this is the first round)', ''];
  for (const entry of recall.tried) {
    const added = entry.diff === '' ? [] : entry.diff.split('\n').filter((l) => l.startsWith('+') && !l.startsWith('+++') && !/^\+\s*version\s*:/.test(l)).map((l) => `"${l.slice(1).trim()}"`);
    lines.push(`- round ${entry.round}, version ${entry.version ?? '?'} (from ${entry.parent}): ${entry.status}${entry.verdict ? `, ${entry.verdict}` : ''}${entry.n1_delta === null ? '' : `, n=1 delta ${signed(entry.n1_delta)}`} — ${entry.summary || '(no summary)'}; added: ${added.join(' ') || '(nothing)'}${entry.status === 'dropped' ? `; dropped: ${entry.reason}` : ''}`);
  }
  return [...lines, ''];
}

function diagnosisSection(diagnosis: Diagnosis | undefined): string[] {
  if (!diagnosis) return ['## Diagnosis', '', '(no diagnosis this round)', ''];
  const lines = [
    `## Diagnosis on the train split (round ${diagnosis.round})`,
    '',
    `The incumbent passed ${diagnosis.passed} of ${diagnosis.cases} train cases (${(diagnosis.pass_rate * 100).toFixed(1)}%) at n=1 under the experiment's budget.`,
    '',
    '| category | failure | failed | of cases |',
    '|---|---|---|---|',
    ...diagnosis.modes.map((m) => `| ${m.category} | ${m.reason} | ${m.failures} | ${m.cases} |`),
    '',
  ];
  if (diagnosis.examples.length > 0) {
    lines.push('### Failure examples (train split only)', '', '```jsonl');
    for (const e of diagnosis.examples) {
      lines.push(JSON.stringify({ case_id: e.case_id, source: e.source, category: e.category, input: e.input, expected: e.expected, output: e.output, reason: e.reason, finish_reason: e.finish_reason, ...(e.budget === undefined ? {} : { budget: e.budget, n: e.n }) }));
    }
    lines.push('```', '');
  }
  return lines;
}

function fence(text: string): string {
  return `\`\`\`\`text\n${text.replace(/\n$/, '')}\n\`\`\`\``;
}

function signed(value: number | null): string {
  return value === null ? 'n/a' : `${value >= 0 ? '+' : ''}${value.toFixed(3)}`;
}
