/**
 * `isobudget review` — the human review queue (layer 5). Interactive in a terminal (a card at
 * a time: approve / reject / defer, optional note); scriptable with
 * `--decide ID=approve|reject|defer [--note …] [--reviewer …]`. Every decision is recorded
 * with reviewer and time.
 */
import { IsobudgetError } from '../../core/errors.js';
import { listConflicts } from '../../memory/conflicts.js';
import { DEFAULT_STORE_PATH } from '../../memory/store/open.js';
import { governanceStoreOpener } from './team-db.js';
import type { Decision } from '../../memory/store/records.js';
import { renderCard } from '../../review/card.js';
import { reviewInteractively } from '../../review/interactive.js';
import { decideItem, waitingItems } from '../../review/queue.js';
import { parseCommandArgs } from '../args.js';
import { DB_OPTION, JSON_OPTION, NOTE_OPTION, REVIEWER_OPTION, STORE_OPTION } from '../common-options.js';
import { EXIT } from '../exit-codes.js';
import { defaultReviewer } from './memory-admin.js';
import type { CommandSpec } from './spec.js';

const USAGE = `isobudget review [--reviewer NAME] [--interactive]      a card at a time (default in a terminal)
isobudget review --list [--all] [--json]                 print the waiting cards (--all: decided ones too)
isobudget review --decide ID=approve|reject|defer [--decide …] [--note TEXT] [--reviewer NAME]
every form takes --store PATH (default ${DEFAULT_STORE_PATH}) or --db URL (the team database; default with $ISOBUDGET_DATABASE_URL)`;

const DECISIONS: readonly Decision[] = ['approve', 'reject', 'defer'];

export interface ReviewDeps {
  now: () => Date;
  /** Where interactive answers are read from (default process.stdin). */
  input: () => NodeJS.ReadableStream & { isTTY?: boolean };
}

function parseDecide(value: string): { id: string; decision: Decision } {
  const match = /^([^=\s]+)=(\w+)$/.exec(value.trim());
  const decision = DECISIONS.find((d) => d === match?.[2]);
  if (!match?.[1] || !decision) throw new IsobudgetError('usage', `--decide expects ID=approve|reject|defer, got '${value}'`, { hint: USAGE });
  return { id: match[1], decision };
}

export function createReviewCommand(deps: ReviewDeps): CommandSpec {
  return {
    summary: 'human review queue: cards for candidates that passed gate layers 1–4 (and other must-have-a-human changes); approve / reject / defer',
    async run(argv, io) {
      const { values } = parseCommandArgs('review', argv, {
        decide: { type: 'string', multiple: true, value: 'ID=DECISION', help: 'decide a card without prompts: approve, reject or defer', example: 'rv-3=approve' },
        note: NOTE_OPTION,
        reviewer: REVIEWER_OPTION,
        list: { type: 'boolean', help: 'print the waiting cards' },
        all: { type: 'boolean', help: 'with --list: decided cards too' },
        json: JSON_OPTION,
        interactive: { type: 'boolean', help: 'a card at a time, prompting for each decision', fallback: 'on in a terminal' },
        store: STORE_OPTION,
        db: { ...DB_OPTION, help: 'the review queue in the team database (PostgreSQL) instead of the SQLite file' },
      }, USAGE);
      const decisions = (values.decide ?? []).map(parseDecide);
      const reviewer = values.reviewer ?? defaultReviewer();
      const store = (await governanceStoreOpener(argv, io, 'review'))(values.store);
      try {
        if (decisions.length > 0) {
          for (const { id, decision } of decisions) {
            io.stdout.write(`${await decideItem(store, id, { decision, reviewer, note: values.note ?? null }, deps.now())}\n`);
          }
          return EXIT.ok;
        }
        const items = values.all ? await store.listReviewItems() : await waitingItems(store);
        const conflicts = listConflicts(await store.listRecords()).length;
        const input = deps.input();
        if (values.list || values.json || (values.interactive !== true && input.isTTY !== true)) {
          if (values.json) io.stdout.write(`${JSON.stringify(items, null, 2)}\n`);
          else {
            io.stdout.write(items.length === 0 ? 'nothing waiting for review\n' : items.map((item) => renderCard(item)).join('\n'));
            if (conflicts > 0) io.stdout.write(`\n${conflicts} memory conflict(s) to resolve: isobudget memory conflicts\n`);
            if (items.length > 0 && !values.all) io.stdout.write(`\ndecide with: isobudget review --decide ${items[0]?.review_id ?? 'ID'}=approve|reject|defer --reviewer NAME [--note TEXT]\n`);
          }
          return EXIT.ok;
        }
        if (items.length === 0) {
          io.stdout.write('nothing waiting for review\n');
          return EXIT.ok;
        }
        const summary = await reviewInteractively(items, {
          input, reviewer, write: (text) => io.stdout.write(text),
          decide: (id, decisionInput) => decideItem(store, id, decisionInput, deps.now()),
        });
        io.stdout.write(`\n${summary.decided.length} decided, ${summary.skipped.length} skipped${summary.quit ? ', stopped early' : ''}\n`);
        if (conflicts > 0) io.stdout.write(`${conflicts} memory conflict(s) to resolve: isobudget memory conflicts\n`);
        return EXIT.ok;
      } finally {
        store.close();
      }
    },
  };
}

export const reviewCommand = createReviewCommand({ now: () => new Date(), input: () => process.stdin });
