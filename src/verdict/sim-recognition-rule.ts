/**
 * A run on the simulator that recognized none of its cases is `invalid` (issue 24 item 5),
 * pure. The simulator answers only its own example tasks (dates, sums, digit searches,
 * lookups); anything else gets "It has no task for: …" in every arm, so a user's own dataset
 * scored 0% everywhere and ended a clean-looking `no_gain` — a verdict about nothing.
 */
import type { Manifest } from '../ledger/manifest.js';
import type { ResultRecord } from '../ledger/records.js';
import { explain } from './reason.js';
import type { VerdictRecord } from './record.js';

export const SIM_RECOGNIZED_CHECK = 'sim_recognized_cases';

/** The simulator's reply to a prompt it has no task for (providers/sim/tasks/fallback-task.ts). */
const NO_TASK = /This is the isobudget simulator \(model [^)]*\)\. It has no task for: /;

/** True when the run is on the simulator and not one path of any case got a recognized task. */
export function simRecognizedNothing(manifest: Pick<Manifest, 'config'>, results: readonly ResultRecord[]): boolean {
  if (manifest.config.provider.protocol !== 'sim') return false;
  const paths = results.flatMap((r) => r.paths);
  return paths.length > 0 && paths.every((p) => NO_TASK.test(p.output));
}

export function applySimRecognition(record: VerdictRecord, manifest: Pick<Manifest, 'config'>, results: readonly ResultRecord[]): VerdictRecord {
  if (!simRecognizedNothing(manifest, results)) return record;
  const check = {
    name: SIM_RECOGNIZED_CHECK,
    passed: false,
    detail: 'the simulator recognized none of the cases (every answer is "It has no task for: …"): it only plays its example tasks (dates, arithmetic, digit search, inventory lookups), so these scores say nothing about your data — run it against a real endpoint (provider: { preset: openai | anthropic | … }), or try isobudget on examples/',
  };
  const invalid: VerdictRecord = { ...record, verdict: 'invalid', power: null, checks: [check, ...record.checks.filter((c) => c.name !== SIM_RECOGNIZED_CHECK)] };
  return { ...invalid, reason: explain(invalid) };
}
