/** `memory import-learnings DIR`: read the notes, plan with the pure rules, commit atomically. */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { IsobudgetError } from '../core/errors.js';
import { MAX_DATA_FILE_BYTES, readInputTextSync } from '../core/input-file.js';
import { planLearningImport, type LearningImportPlan, type LearningNote } from './learnings.js';
import type { Provenance } from './record.js';
import type { LoadedRun } from './ingest-run.js';
import { storePolicy } from './store/open.js';
import { withConflictRetry, type MemoryStore } from './store/spec.js';

/**
 * DIR itself when it holds notes, else DIR/.learnings. Only regular `*.md` files are notes (a
 * FIFO there blocked the process for good); each must be UTF-8 (a bad byte is an error at its
 * line and column).
 */
export function readLearningNotes(dir: string): LearningNote[] {
  const nested = join(dir, '.learnings');
  const folder = existsSync(nested) && statSync(nested).isDirectory() ? nested : dir;
  if (!existsSync(folder) || !statSync(folder).isDirectory()) {
    throw new IsobudgetError('not_found', `learnings folder not found: ${dir}`, { location: { file: dir }, hint: 'pass a `.learnings/` folder of Markdown notes, or the directory that contains it' });
  }
  return readdirSync(folder)
    .filter((name) => name.toLowerCase().endsWith('.md') && statSync(join(folder, name), { throwIfNoEntry: false })?.isFile() === true)
    .sort()
    .map((name) => ({ source: `${basename(folder)}/${name}`, text: readInputTextSync(join(folder, name), { what: 'learnings note', code: 'learnings_note', maxBytes: MAX_DATA_FILE_BYTES }) }));
}

/** Provenance defaults taken from a run (--from-run): its id, base URL, candidate model, B, n=1, verdict. */
export function provenanceFromRun(run: LoadedRun): Provenance {
  return {
    source_run: run.manifest.run_id,
    base_url: run.manifest.config.provider.baseUrl,
    model: run.manifest.config.variants.candidate.model,
    budget: run.manifest.config.budget.totalTokensPerCase,
    n: 1,
    verdict: run.verdict.verdict,
  };
}

export async function importLearnings(dir: string, defaults: Partial<Provenance>, store: MemoryStore, now: Date): Promise<LearningImportPlan> {
  const notes = readLearningNotes(dir);
  const policy = await storePolicy(store);
  return withConflictRetry(async () => {
    const records = await store.listRecords();
    const reviewIds = (await store.listReviewItems()).map((item) => item.review_id);
    const plan = planLearningImport(notes, defaults, { records, reviewIds }, policy, now);
    await store.commit({ records: plan.writes, reviewItems: plan.reviewItems.map((item) => ({ item, expected: null })) });
    return plan;
  });
}
