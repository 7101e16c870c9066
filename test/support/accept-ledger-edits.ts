/**
 * For tests that edit a finished run's results.jsonl on purpose (hostile outputs, a flipped
 * case): make the run's files agree again, as a tool that rewrites a ledger must — calls of
 * units with no result dropped, the manifest's call count and ledger hashes re-recorded.
 * Without it every reader marks the edited run `invalid` (ledger_integrity).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { ledgerHashes } from '../../src/ledger/ledger-hashes.js';
import type { Manifest } from '../../src/ledger/manifest.js';
import type { CallRecord, ResultRecord } from '../../src/ledger/records.js';
import { runPaths } from '../../src/ledger/run-dir.js';

const unit = (r: Pick<CallRecord, 'split' | 'arm' | 'epoch' | 'case_id'>): string => `${r.split}|${r.arm}|${r.epoch}|${r.case_id}`;

export function acceptLedgerEdits(dir: string): void {
  const paths = runPaths(dir);
  const lines = (file: string): string[] => readFileSync(file, 'utf8').split('\n').filter((line) => line.trim() !== '');
  const kept = new Set(lines(paths.results).map((line) => unit(JSON.parse(line) as ResultRecord)));
  const calls = lines(paths.calls).filter((line) => kept.has(unit(JSON.parse(line) as CallRecord)));
  writeFileSync(paths.calls, calls.length === 0 ? '' : `${calls.join('\n')}\n`);
  const manifest = JSON.parse(readFileSync(paths.manifest, 'utf8')) as Manifest;
  if (manifest.calls) manifest.calls.committed = calls.length;
  manifest.ledger_sha256 = ledgerHashes(paths);
  writeFileSync(paths.manifest, `${JSON.stringify(manifest, null, 2)}\n`);
}
