/**
 * The `datasets:` block: split files (JSONL, CSV, gzipped) and `fields`, the file's own names
 * of id, input, expected and category. Validation only; `normalize` resolves the paths.
 */
import { z } from 'zod';
import { refreshSchema } from './evolve-schema.js';

function opt<T extends z.ZodType>(schema: T, description: string) {
  return schema.optional().meta({ description });
}
const always = { when: (payload: { value: unknown }) => payload.value !== null && typeof payload.value === 'object' };
const has = (value: unknown, key: string): boolean => (value as Record<string, unknown>)[key] !== undefined;
const nonEmpty = () => z.string().min(1);

/** A key or a dotted path: non-empty segments separated by dots. */
export const FIELD_PATH = /^[^.\s][^.]*(\.[^.\s][^.]*)*$/;

const fieldPath = (role: string, example: string) => opt(z.string().regex(FIELD_PATH, { error: 'must be a key or a dotted path, e.g. question or meta.id' }), `Key (or dotted path) of the ${role} in each row, e.g. ${example}.`);
const datasetFields = z.strictObject({
  id: fieldPath('id (absent in every row: ids from a hash of the input)', 'uid'),
  input: fieldPath('input (a string, or a list of messages)', 'question'),
  expected: fieldPath('expected answer', 'answer'),
  category: fieldPath('category', 'meta.topic'),
  cluster: fieldPath('cluster: cases sharing it are not independent (one document, one template) and are resampled together', 'meta.doc_id'),
});

const DATASET_FILE = 'JSONL, CSV (.csv) or gzipped (.jsonl.gz, .csv.gz), relative to this YAML';
export const datasets = z
  .strictObject({
    train: opt(nonEmpty(), `Cases for diagnosing failures: ${DATASET_FILE}.`),
    val: opt(nonEmpty(), `Cases for screening candidates: ${DATASET_FILE}.`),
    test: opt(nonEmpty(), `Cases for the final gate: ${DATASET_FILE}.`),
    regression: opt(nonEmpty(), `Cases the baseline is known to pass: ${DATASET_FILE}.`),
    refresh: opt(refreshSchema, 'How `datasets add-failures` splits production failures between train, val and test.'),
    fields: opt(datasetFields, 'Which key of each row holds the id, input, expected answer, category and cluster, when the file uses other names, e.g. { input: question, expected: answer } for a GSM8K-style file. Dotted paths allowed (meta.id, turns.0.text).'),
  })
  .superRefine((d, ctx) => {
    if (!has(d, 'val') && !has(d, 'test')) {
      ctx.addIssue({
        code: 'custom', path: ['val'], message: 'at least one of `val` or `test` is required',
        params: { at: 'parent', hint: 'add `val: eval/val.jsonl` and/or `test: eval/test.jsonl` under `datasets:`' },
      });
    }
  }, always)
  .meta({ description: 'Datasets (JSONL, CSV or gzipped), relative to this YAML file; at least one of val/test.' });

