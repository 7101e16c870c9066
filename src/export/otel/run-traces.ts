/**
 * The unit traces of a run directory or of a gateway ledger, in ledger order: results are
 * matched to their calls by (split, case, arm, epoch), as the runner committed them.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { IsobudgetError } from '../../core/errors.js';
import type { LoadedRun } from '../../analysis/load-run.js';
import { readJsonl } from '../../ledger/jsonl-reader.js';
import type { CallRecord } from '../../ledger/records.js';
import { runPaths } from '../../ledger/run-dir.js';
import { unitTrace, type UnitTrace } from './unit-spans.js';

const keyOf = (r: { split: string; case_id: string; arm: string; epoch: number }): string => `${r.split}|${r.case_id}|${r.arm}|${r.epoch}`;

export function runTraces(run: LoadedRun, includeContent: boolean): { traces: UnitTrace[]; calls: number } {
  const { records: calls } = readJsonl<CallRecord>(runPaths(run.dir).calls, { requireSchemaVersion: true });
  const byUnit = new Map<string, CallRecord[]>();
  for (const call of calls) {
    const key = keyOf(call);
    let list = byUnit.get(key);
    if (!list) byUnit.set(key, (list = []));
    list.push(call);
  }
  const traces = run.results.map((result) => unitTrace({ manifest: run.manifest, result, calls: byUnit.get(keyOf(result)) ?? [], includeContent }));
  return { traces, calls: calls.length };
}

/**
 * A gateway's ledger (`calls-YYYY-MM-DD.jsonl` under DIR or DIR/ledger): one trace per tag
 * set (run, case, arm, epoch) the calls carry; calls without tags share one trace per client
 * session, else per day.
 */
export function gatewayTraces(dir: string): { traces: UnitTrace[]; calls: number } {
  const folder = ledgerFolder(dir);
  const files = readdirSync(folder).filter((name) => /^calls-.*\.jsonl$/.test(name)).sort();
  if (files.length === 0) throw new IsobudgetError('not_found', 'no gateway ledger here (calls-YYYY-MM-DD.jsonl)', { location: { file: folder }, hint: 'pass the gateway\'s --data-dir (or its ledger/ folder)' });
  const groups = new Map<string, CallRecord[]>();
  let count = 0;
  for (const file of files) {
    for (const call of readJsonl<CallRecord>(join(folder, file)).records) {
      count += 1;
      const session = (call as CallRecord & { session_id?: string }).session_id;
      const key = `${call.run_id ?? ''}|${call.case_id || session || file}|${call.arm ?? ''}|${call.epoch ?? 0}`;
      let list = groups.get(key);
      if (!list) groups.set(key, (list = []));
      list.push(call);
    }
  }
  const traces = [...groups.values()].map((calls) => {
    const runId = calls[0]?.run_id || 'gateway';
    return unitTrace({ manifest: { run_id: runId, experiment: 'gateway', datasets: {}, split: 'val' }, result: undefined, calls, includeContent: false });
  });
  return { traces, calls: count };
}

function ledgerFolder(dir: string): string {
  const nested = join(dir, 'ledger');
  try {
    if (statSync(nested).isDirectory()) return nested;
  } catch {
    // DIR itself is the ledger folder.
  }
  return dir;
}
