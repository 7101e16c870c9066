/**
 * The run-level cap of one session of a run: the pure `RunCap` primed with what earlier
 * sessions' calls billed (a resumed run counts them), with each unit's worst case from
 * `run-size.ts`. Without a cap every reservation succeeds and nothing is read.
 */
import { existsSync } from 'node:fs';
import type { ExperimentConfig } from '../config/types.js';
import { IsobudgetError } from '../core/errors.js';
import { readJsonl } from '../ledger/jsonl-reader.js';
import type { CallRecord } from '../ledger/records.js';
import type { RunPaths } from '../ledger/run-dir.js';
import type { PriceTable } from '../pricing/price-table.js';
import type { Unit } from './plan.js';
import { RunCap, spentBy, type Reservation, type RunCapLimits } from './run-cap.js';
import { sizeRun, unitWorstCase } from './run-size.js';

export type { RunCapLimits } from './run-cap.js';

export interface RunCapSession {
  /** A reservation for the unit, `undefined` when no cap is set, or `false` when the cap stops the run. */
  reserve(unit: Unit): Reservation | undefined | false;
  settle(reservation: Reservation | undefined, calls: readonly CallRecord[]): void;
  readonly stopReason: string | undefined;
}

export function openRunCap(limits: RunCapLimits, paths: Pick<RunPaths, 'calls' | 'interrupted'>, config: ExperimentConfig, prices: PriceTable): RunCapSession {
  if (limits.maxTotalTokens === undefined && limits.maxCostUsd === undefined) {
    return { reserve: () => undefined, settle: () => undefined, stopReason: undefined };
  }
  if (limits.maxCostUsd !== undefined) {
    const unpriced = sizeRun(config, [], prices).unpricedModels;
    if (unpriced.length > 0) {
      throw new IsobudgetError('config', `budget.max_cost_usd needs a price for every model the run calls; none for ${unpriced.join(', ')}`, { hint: 'add them under `pricing:` (USD per million tokens) or pass --pricing FILE, or cap tokens with budget.max_total_tokens instead' });
    }
  }
  const earlier: CallRecord[] = [];
  for (const file of [paths.calls, paths.interrupted]) if (existsSync(file)) earlier.push(...readJsonl<CallRecord>(file).records);
  const cap = new RunCap(limits, spentBy(earlier));
  return {
    reserve: (unit) => cap.reserve(unitWorstCase(config, unit, prices)) ?? false,
    settle: (reservation, calls) => {
      if (reservation !== undefined) cap.settle(reservation, calls);
    },
    get stopReason() {
      return cap.stopReason;
    },
  };
}
