/** One line of the Runs screen: `runs list`'s summary plus tokens per success and progress. */
import { readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Manifest } from '../ledger/manifest.js';
import type { RunSummary } from '../ledger/run-summary.js';
import type { VerdictRecord } from '../verdict/record.js';

export interface RunRow extends RunSummary {
  /** The candidate's tokens per success at n=1 (tokens), from verdict.json; null when undecided. */
  tokensPerSuccess: number | null;
  /** "412 / 880 units" while running, "880 units" when done. */
  progress: string;
  /** What to pass to `run --resume` (relative to where the viewer runs). */
  resumePath: string;
}

export function runRow(summary: RunSummary, manifest: Manifest | undefined, cwd: string): RunRow {
  return { ...summary, tokensPerSuccess: tokensPerSuccess(summary.dir), progress: progress(summary, manifest), resumePath: relative(cwd, summary.dir) || summary.dir };
}

function tokensPerSuccess(dir: string): number | null {
  try {
    const verdict = JSON.parse(readFileSync(join(dir, 'verdict.json'), 'utf8')) as VerdictRecord;
    const arm = verdict.arms?.find((a) => a.variant === 'candidate' && a.n === 1);
    return arm?.tokensPerSuccess ?? null;
  } catch {
    return null;
  }
}

function progress(summary: RunSummary, manifest: Manifest | undefined): string {
  if (!manifest) return '—';
  const planned = manifest.units_planned;
  if (summary.status === 'complete') return `${planned.toLocaleString('en-US')} units`;
  const file = join(summary.dir, 'results.jsonl');
  const size = statSync(file, { throwIfNoEntry: false })?.size ?? 0;
  // Units done = result lines; counted in the bytes, without parsing them.
  let done = 0;
  if (size > 0) {
    const bytes = readFileSync(file);
    for (let i = 0; i < bytes.length; i++) if (bytes[i] === 10) done += 1;
  }
  return `${done.toLocaleString('en-US')} / ${planned.toLocaleString('en-US')} units`;
}
