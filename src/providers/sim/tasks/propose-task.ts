/**
 * The simulated proposers (`sim-proposer`, `sim-proposer-null`): answer an `isobudget evolve`
 * edit request with K proposals, each a heading and a unified diff that bumps the version and
 * adds one direction's lines under the skill's rules. They skip directions the prompt lists as
 * negative patterns or as tried before, as a model that read its memory would. A repair
 * request gets the same slot's proposal again.
 */
import { countTokens } from '../../../core/tokens.js';
import { applyEdits, editsDiff, type LineEdit } from './line-edits.js';
import { dateDirections, nullDirections, type Direction } from './propose-directions.js';
import { readEditRequest, type EditRequest } from './propose-request.js';
import type { SimTask, SolveContext } from './spec.js';

export const PROPOSER_MODELS = ['sim-proposer', 'sim-proposer-null'] as const;

export const proposeTask: SimTask = {
  name: 'propose',
  solve(context: SolveContext): string | undefined {
    if (!(PROPOSER_MODELS as readonly string[]).includes(context.model)) return undefined;
    const request = readEditRequest(context.conversation);
    if (!request) return undefined;
    const directions = fresh(context.model === 'sim-proposer-null' ? nullDirections(request.skill, request.triedLines) : dateDirections(request.skill, request.failures), request);
    const slots = request.repair ? [{ slot: request.repair.slot, version: request.repair.version }] : request.versions.map((version, i) => ({ slot: i + 1, version }));
    const blocks: string[] = [];
    for (const { slot, version } of slots) {
      const direction = directions[slot - 1];
      if (!direction) continue;
      const { diff, dropped } = proposal(request.skill, version, direction, request.maxTokens);
      const summary = dropped === 0 ? direction.summary : `${direction.summary}; drops ${dropped} example line${dropped === 1 ? '' : 's'} to stay within the size limit`;
      blocks.push(`### Proposal ${slot}: ${summary}\n\`\`\`diff\n${diff}\`\`\``);
    }
    return blocks.length === 0 ? 'I have no further edit to propose for this skill.' : `${blocks.join('\n\n')}\n`;
  },
};

/** Directions whose lines are not already in the skill, not tried before, and not a negative pattern's. */
function fresh(directions: readonly Direction[], request: EditRequest): Direction[] {
  const seen = new Set([...request.skill.split('\n'), ...request.triedLines, ...request.negativeLines].map(normalize));
  return directions.filter((direction) => direction.lines.every((line) => !seen.has(normalize(line))));
}

function normalize(line: string): string {
  return line.replace(/^[-*]\s*/, '').trim().toLowerCase();
}

/**
 * The version bump and the direction's lines; when the skill would outgrow the request's size
 * limit, example lines go (from the end of `## Examples`, one at a time) to make room — the
 * trade a proposer makes when a longer skill costs prompt tokens under the same budget.
 */
function proposal(skill: string, version: string, direction: Direction, maxTokens: number | undefined): { diff: string; dropped: number } {
  const lines = skill.replace(/\n$/, '').split('\n');
  const edits: LineEdit[] = [];
  const versionAt = lines.findIndex((line) => /^version\s*:/.test(line));
  if (versionAt >= 0) edits.push({ at: versionAt, remove: 1, add: [`version: ${version}`] });
  edits.push(insertion(lines, direction.lines));
  const examples = exampleLines(lines);
  let dropped = 0;
  while (maxTokens !== undefined && dropped < examples.length - 1 && countTokens(`${applyEdits(lines, edits).join('\n')}\n`) > maxTokens) {
    edits.push({ at: examples[examples.length - 1 - dropped] as number, remove: 1, add: [] });
    dropped += 1;
  }
  return { diff: editsDiff(lines, edits, 'SKILL.md'), dropped };
}

/** Indexes of the bullet lines of the `## Examples` section. */
function exampleLines(lines: readonly string[]): number[] {
  const start = lines.findIndex((line) => /^##\s+Examples\b/i.test(line));
  const indexes: number[] = [];
  for (let i = start + 1; start >= 0 && i < lines.length && !/^#{1,2}\s/.test(lines[i] ?? ''); i += 1) if (/^\s*[-*]\s/.test(lines[i] ?? '')) indexes.push(i);
  return indexes;
}

/** After the last line of the `## Rules` section, or a new section at the end. */
function insertion(lines: readonly string[], added: readonly string[]): LineEdit {
  const rules = lines.findIndex((line) => /^##\s+Rules\b/i.test(line));
  if (rules < 0) return { at: lines.length, remove: 0, add: ['', '## Rules', ...added] };
  let end = lines.length;
  for (let i = rules + 1; i < lines.length; i += 1) {
    if (/^#{1,2}\s/.test(lines[i] ?? '')) {
      end = i;
      break;
    }
  }
  let last = end - 1;
  while (last > rules && (lines[last] ?? '').trim() === '') last -= 1;
  return { at: last + 1, remove: 0, add: added };
}
