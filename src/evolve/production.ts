/**
 * `evolve --failures EVENTS.jsonl`: production failures fed into the diagnosis, train-side
 * only. They are planned exactly as `datasets add-failures` would add them (same hash split,
 * same `sampling` rule, same duplicate check against every split); only those that would go
 * to train are shown to the proposer — a failure that belongs to val or test, or that repeats
 * an existing case, never is. Nothing is written to the datasets here.
 */
import type { ExperimentConfig } from '../config/types.js';
import type { EvalCase } from '../core/case.js';
import { planFailures } from '../datasets/failures/plan-failures.js';
import { parseFailureEvents } from '../datasets/failures/failure-events.js';
import { refreshShares } from '../datasets/failures/add-failures.js';
import { basename } from 'node:path';
import { MAX_DATA_FILE_BYTES, readInputTextSync } from '../core/input-file.js';
import { expectedString } from './failure-modes.js';
import type { ProductionFailures } from './context.js';

export async function productionFailures(config: ExperimentConfig, file: string, cases: { train: EvalCase[]; val: EvalCase[]; test: EvalCase[]; regression: EvalCase[] }): Promise<ProductionFailures> {
  const text = readInputTextSync(file, { what: 'failures file', code: 'failures_file', maxBytes: MAX_DATA_FILE_BYTES, notFoundHint: 'pass an EVENTS.jsonl of production events (--failures)' });
  const plan = planFailures({
    events: parseFailureEvents(text, file),
    existing: [...cases.train, ...cases.val, ...cases.test, ...cases.regression],
    shares: refreshShares(config),
    judged: config.scorer.type === 'judge',
    source: basename(file),
  });
  return {
    examples: plan.rows.train.map((row) => ({ id: row.id, input: row.input, expected: expectedString({ expected: row.expected, reference: undefined }), category: row.category, budget: row.metadata.failure.budget, n: row.metadata.failure.n })),
    notTrain: plan.rows.val.length + plan.rows.test.length,
    duplicates: plan.duplicates,
  };
}
