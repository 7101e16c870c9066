/**
 * The terminal review session (node:readline): one card at a time, one keystroke-and-Enter
 * choice, an optional note. Lines are read from any stream, so tests drive it with text.
 */
import { createInterface } from 'node:readline';
import type { Decision, ReviewItem } from '../memory/store/records.js';
import { renderCard } from './card.js';
import type { DecisionInput } from './decide.js';

export interface InteractiveOptions {
  input: NodeJS.ReadableStream;
  write: (text: string) => void;
  reviewer: string;
  decide: (reviewId: string, input: DecisionInput) => Promise<string>;
}

export interface SessionSummary {
  decided: Array<{ review_id: string; decision: Decision }>;
  skipped: string[];
  quit: boolean;
}

const CHOICES: Record<string, Decision | 'skip' | 'quit'> = { a: 'approve', approve: 'approve', r: 'reject', reject: 'reject', d: 'defer', defer: 'defer', s: 'skip', skip: 'skip', q: 'quit', quit: 'quit' };

export async function reviewInteractively(items: readonly ReviewItem[], options: InteractiveOptions): Promise<SessionSummary> {
  const summary: SessionSummary = { decided: [], skipped: [], quit: false };
  const rl = createInterface({ input: options.input, terminal: false });
  const lines = rl[Symbol.asyncIterator]();
  const ask = async (prompt: string): Promise<string | undefined> => {
    options.write(prompt);
    const next = await lines.next();
    return next.done ? undefined : String(next.value).trim();
  };
  try {
    options.write(`${items.length} item${items.length === 1 ? '' : 's'} to review (layers 1–4 passed or a human is required); reviewer: ${options.reviewer}\n`);
    for (const [index, item] of items.entries()) {
      options.write(`\n(${index + 1}/${items.length}) ${renderCard(item)}`);
      let choice: Decision | 'skip' | 'quit' | undefined;
      while (choice === undefined) {
        const answer = await ask('  [a]pprove  [r]eject  [d]efer  [s]kip  [q]uit > ');
        if (answer === undefined) {
          summary.quit = true;
          return summary;
        }
        choice = CHOICES[answer.toLowerCase()];
        if (choice === undefined) options.write('  please answer a, r, d, s or q\n');
      }
      if (choice === 'quit') {
        summary.quit = true;
        return summary;
      }
      if (choice === 'skip') {
        summary.skipped.push(item.review_id);
        continue;
      }
      const note = await ask('  note (optional, Enter to skip) > ');
      const message = await options.decide(item.review_id, { decision: choice, reviewer: options.reviewer, note: note ? note : null });
      options.write(`  ${message}\n`);
      summary.decided.push({ review_id: item.review_id, decision: choice });
    }
    return summary;
  } finally {
    rl.close();
  }
}
