/**
 * Deterministic fault injection for test harnesses. Each model call draws one uniform from
 * a seeded sequence in arrival order; the configured rates split [0, 1) into mutually
 * exclusive faults, so each fault occurs at its own rate and a run is replayable.
 */
import { hashParts, mulberry32 } from '../random.js';

export type FaultKind = 'http429' | 'http500' | 'reset' | 'invalidJson' | 'missingUsage' | 'slow';

export const FAULT_KINDS: readonly FaultKind[] = ['http429', 'http500', 'reset', 'invalidJson', 'missingUsage', 'slow'];

export interface FaultOptions {
  seed?: number;
  /** Probability of each fault per model call; they must sum to ≤ 1. */
  rates: Partial<Record<FaultKind, number>>;
  /** `retry-after` header on 429s (s, default 1). */
  retryAfterSeconds?: number;
  /** Extra delay of a `slow` reply (ms, default 2000). */
  slowMs?: number;
}

export type FaultPicker = () => FaultKind | undefined;

export function createFaultPicker(options: FaultOptions | undefined): FaultPicker {
  if (!options) return () => undefined;
  let total = 0;
  const thresholds: Array<{ kind: FaultKind; upTo: number }> = [];
  for (const kind of FAULT_KINDS) {
    const rate = options.rates[kind] ?? 0;
    if (!(rate >= 0 && rate <= 1)) throw new RangeError(`faults.rates.${kind}: expected a probability, got ${rate}`);
    total += rate;
    thresholds.push({ kind, upTo: total });
  }
  if (total > 1 + 1e-9) throw new RangeError(`faults.rates: rates sum to ${total}, more than 1`);
  const next = mulberry32(hashParts('faults', options.seed ?? 0));
  return () => {
    const u = next();
    return thresholds.find((t) => u < t.upTo)?.kind;
  };
}
