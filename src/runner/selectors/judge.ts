/**
 * The `judge` selector: the judge model sees all n outputs of a case at once and picks one.
 * One call per selection (not n): its tokens are recorded with role `select` and counted
 * toward B when `budget.include_judge`. selected@N from this selector is always reported
 * beside pass@N (oracle), so a judge that picks badly is visible.
 */
import type { ChatMessage } from '../../core/messages.js';
import type { Selector } from './spec.js';

export interface JudgeSelectorOptions {
  model: string;
  maxTokens: number;
}

export function judgeSelector(options: JudgeSelectorOptions): Selector {
  return {
    name: 'judge',
    async select({ outputs, evalCase, models }) {
      if (outputs.length === 0) return { index: undefined, reason: 'no paths' };
      if (outputs.length === 1) return { index: 0, reason: 'one path' };
      if (!models) return { index: 0, reason: 'no model access for the judge: path 0' };
      const reply = await models.complete({ model: options.model, messages: selectionMessages(evalCase.input, outputs), maxTokens: options.maxTokens, path: 0 }, 'select');
      if (!reply.ok) return { index: 0, reason: `judge selection failed (${reply.error}): path 0` };
      const index = parseChoice(reply.text, outputs.length);
      return index === undefined ? { index: 0, reason: `judge reply named no candidate (${JSON.stringify(reply.text.slice(0, 80))}): path 0` } : { index, reason: `judge picked candidate ${index + 1}` };
    },
  };
}

export function selectionMessages(task: string, outputs: readonly string[]): ChatMessage[] {
  const candidates = outputs.map((output, i) => `[${i + 1}]\n${output}`).join('\n\n');
  return [
    { role: 'system', content: 'You compare candidate responses to one task and pick the best: the most correct, then the most concise. Longer is not better.' },
    { role: 'user', content: `Task:\n${task}\n\nCandidates:\n${candidates}\n\nReply with the number of the best candidate only.` },
  ];
}

/** The first candidate number in range (`3`, `[3]`, `Candidate 3`, `best: 3`). */
export function parseChoice(text: string, count: number): number | undefined {
  for (const match of text.matchAll(/\d+/g)) {
    const number = Number(match[0]);
    if (Number.isInteger(number) && number >= 1 && number <= count) return number - 1;
  }
  return undefined;
}
