/** Helpers for the evolve tests: a writable copy of the example, and every ledger record of a loop. */
import { cpSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readJsonl } from '../../src/ledger/jsonl-reader.js';
import type { CallRecord, ResultRecord } from '../../src/ledger/records.js';

export const EVOLVE_EXAMPLE = join(import.meta.dirname, '..', '..', 'examples', 'evolve-date-parser');

/** The example copied to a fresh directory: the loop writes the final skill beside the original. */
export function copyEvolveExample(): string {
  const dir = mkdtempSync(join(tmpdir(), 'isobudget-evolve-'));
  cpSync(EVOLVE_EXAMPLE, dir, { recursive: true });
  return dir;
}

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

/** Every JSONL ledger file under a loop directory, and their records. */
export function loopLedgers(dir: string): { calls: CallRecord[]; results: ResultRecord[]; files: string[] } {
  const files = walk(dir).filter((file) => /(calls|interrupted-calls|results)\.jsonl$/.test(file));
  const calls: CallRecord[] = [];
  const results: ResultRecord[] = [];
  for (const file of files) {
    for (const record of readJsonl<CallRecord | ResultRecord>(file).records) (record.kind === 'call' ? calls : results).push(record as never);
  }
  return { calls, results, files };
}

export function caseIds(file: string): Set<string> {
  return new Set(readFileSync(file, 'utf8').trim().split('\n').map((line) => (JSON.parse(line) as { id: string }).id));
}

export function caseInputs(file: string): string[] {
  return readFileSync(file, 'utf8').trim().split('\n').map((line) => (JSON.parse(line) as { input: string }).input);
}
