/**
 * Category counts of recent production failures from a feedback JSONL file: rows with a
 * `category` and `passed: false` or `feedback: "negative"` (canary events and exported
 * feedback share this shape). Rows older than `sinceDays` are skipped when they carry a
 * `timestamp`.
 */
import { readFileSync } from 'node:fs';
import { IsobudgetError } from '../../core/errors.js';

export function productionFailureCategories(file: string, now: Date, sinceDays = 30): Record<string, number> {
  const counts: Record<string, number> = {};
  const cutoff = now.getTime() - sinceDays * 86_400_000;
  const lines = readFileSync(file, 'utf8').split('\n');
  lines.forEach((text, index) => {
    if (text.trim() === '') return;
    let row: { category?: unknown; passed?: unknown; feedback?: unknown; timestamp?: unknown };
    try {
      row = JSON.parse(text) as typeof row;
    } catch (error) {
      throw new IsobudgetError('feedback_row', `invalid JSON: ${(error as Error).message}`, { location: { file, line: index + 1 } });
    }
    const failed = row.passed === false || row.feedback === 'negative';
    const at = typeof row.timestamp === 'string' ? Date.parse(row.timestamp) : Number.NaN;
    if (!failed || typeof row.category !== 'string' || (!Number.isNaN(at) && at < cutoff)) return;
    counts[row.category] = (counts[row.category] ?? 0) + 1;
  });
  return counts;
}
