/**
 * Category counts of recent production failures from a feedback JSONL file: rows with a
 * `category` and `passed: false` or `feedback: "negative"` (canary events and exported
 * feedback share this shape). Rows older than `sinceDays` are skipped when they carry a
 * `timestamp`.
 */
import { IsobudgetError } from '../../core/errors.js';
import { MAX_DATA_FILE_BYTES, readInputTextSync } from '../../core/input-file.js';
import { jsonErrorText } from '../../core/json-error.js';

export function productionFailureCategories(file: string, now: Date, sinceDays = 30): Record<string, number> {
  const counts: Record<string, number> = {};
  const cutoff = now.getTime() - sinceDays * 86_400_000;
  const text = readInputTextSync(file, { what: 'feedback file', code: 'feedback_file', maxBytes: MAX_DATA_FILE_BYTES });
  // Quote the parser's view of a line only from a file that is JSONL of objects at all.
  const quote = /^\s*\{/m.test(text);
  const lines = text.split('\n');
  lines.forEach((text, index) => {
    if (text.trim() === '') return;
    let row: { category?: unknown; passed?: unknown; feedback?: unknown; timestamp?: unknown };
    try {
      row = JSON.parse(text) as typeof row;
    } catch (error) {
      throw new IsobudgetError('feedback_row', `invalid JSON: ${jsonErrorText(error, quote)}`, { location: { file, line: index + 1 } });
    }
    const failed = row.passed === false || row.feedback === 'negative';
    const at = typeof row.timestamp === 'string' ? Date.parse(row.timestamp) : Number.NaN;
    if (!failed || typeof row.category !== 'string' || (!Number.isNaN(at) && at < cutoff)) return;
    counts[row.category] = (counts[row.category] ?? 0) + 1;
  });
  return counts;
}
