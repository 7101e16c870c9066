/**
 * A run whose files disagree is `invalid` (issue 24 item 7), pure. Applied by every reader of
 * a run — a verdict computed now and one read from verdict.json alike — so a ledger edited
 * after the run (calls deleted, `passed` flipped) is never read as the run's result.
 */
import type { VerdictRecord } from './record.js';

export const LEDGER_INTEGRITY_CHECK = 'ledger_integrity';

/** `problem`: LoadedRun.integrity. The record unchanged when there is none. */
export function applyLedgerIntegrity(record: VerdictRecord, problem: string | undefined): VerdictRecord {
  if (problem === undefined) return record;
  if (record.verdict === 'invalid' && record.checks.some((c) => c.name === LEDGER_INTEGRITY_CHECK)) return record;
  const checks = [{ name: LEDGER_INTEGRITY_CHECK, passed: false, detail: `${problem} — the ledger is not the run's own record; re-run it, or restore calls.jsonl and results.jsonl` }, ...record.checks.filter((c) => c.name !== LEDGER_INTEGRITY_CHECK)];
  const invalid: VerdictRecord = { ...record, verdict: 'invalid', checks };
  return { ...invalid, reason: `invalid: an invariant broke — ${LEDGER_INTEGRITY_CHECK}: ${checks[0]?.detail}. Fix the run before reading any number.` };
}

