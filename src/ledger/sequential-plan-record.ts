/**
 * The plan of a sequential screening run as the manifest records it (issue 14). A ledger type:
 * the manifest holds it, and src/ledger sits below src/runner, which makes it
 * (runner/sequential-plan.ts).
 */
import type { ScreenLevels } from '../stats/sequential-screen.js';

/** What a sequential run decides by; recorded in the manifest so a replay decides the same. */
export interface SequentialPlan {
  /** Val (screened split) case ids in the seeded order they are run. */
  order: string[];
  /** Seed of the shuffle. */
  orderSeed: number;
  /** Cases per block (cases). */
  lookEvery: number;
  /** No look before this many cases (cases). */
  minCases: number;
  levels: ScreenLevels;
  /** tokens_per_success and p95 latency ratio gates of an efficacy stop. */
  maxTokenGrowthRatio: number;
  maxLatencyGrowthRatio: number;
  /** Repeats of the n=1 arms. */
  epochs: number;
  /** Every n of the run (1 included). */
  bestOfN: number[];
}
