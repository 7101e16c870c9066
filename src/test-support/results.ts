/** Builds synthetic result records for analysis and verdict tests. */
import { LEDGER_SCHEMA_VERSION, type ResultRecord } from '../ledger/records.js';

export interface ArmSpecForTest {
  arm: string;
  /** Whether case i passes (selected path). */
  passed: (i: number) => boolean;
  passedAny?: (i: number) => boolean;
  tokens?: (i: number) => number | undefined;
  latency?: (i: number) => number;
}

export function makeResults(options: { cases: number; arms: ArmSpecForTest[]; category?: (i: number) => string; split?: ResultRecord['split']; budget?: number }): ResultRecord[] {
  const out: ResultRecord[] = [];
  for (const spec of options.arms) {
    const match = /^(baseline|candidate)_(?:single|best_of_(\d+))$/.exec(spec.arm);
    if (!match) throw new Error(`bad arm ${spec.arm}`);
    const n = match[2] ? Number(match[2]) : 1;
    for (let i = 0; i < options.cases; i += 1) {
      const passed = spec.passed(i);
      const tokens = spec.tokens ? spec.tokens(i) : 100;
      out.push({
        schema_version: LEDGER_SCHEMA_VERSION,
        kind: 'result',
        run_id: 'test',
        case_id: `case-${String(i).padStart(4, '0')}`,
        arm: spec.arm,
        variant: match[1] as 'baseline' | 'candidate',
        n,
        epoch: 0,
        split: options.split ?? 'val',
        category: options.category?.(i),
        passed,
        passed_any: spec.passedAny ? spec.passedAny(i) : passed,
        passes: passed ? 1 : 0,
        selected_path: 0,
        judge_score: undefined,
        paths: [],
        prompt_tokens: undefined,
        completion_tokens: undefined,
        total_tokens: tokens,
        calls_missing_usage: tokens === undefined ? 1 : 0,
        calls: 1,
        retries: 0,
        budget: options.budget ?? 10_000,
        budget_exhausted: false,
        over_budget: false,
        latency_ms: spec.latency ? spec.latency(i) : 100,
        ts: '',
      });
    }
  }
  return out;
}

/** A deterministic pseudo-random 0/1 pattern with a given rate; `salt` gives an independent one. */
export function pattern(rate: number, salt = 0): (i: number) => boolean {
  return (i) => hash01(i, salt) < rate;
}

/** murmur3's fmix32 over (i, salt), mapped to [0, 1). */
function hash01(i: number, salt: number): number {
  let h = Math.imul(i + 1, 0x9e3779b1) ^ Math.imul(salt + 1, 0x85ebca6b);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return (h >>> 0) / 2 ** 32;
}
