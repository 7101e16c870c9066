/** What an executor gets to run one (case, arm, epoch) unit. */
import type { ExperimentConfig } from '../config/types.js';
import type { CallStart } from '../ledger/jsonl-writer.js';
import type { CallRecord, ToolStep } from '../ledger/records.js';
import type { PriceTable } from '../pricing/price-table.js';
import type { Provider } from '../providers/spec.js';
import type { BudgetTracker } from '../budget/budget-tracker.js';
import type { PromptCountCache } from '../estimate/prompt-count-cache.js';
import type { PromptEstimator } from '../estimate/prompt-estimator.js';
import type { Unit } from './plan.js';
import type { Semaphore } from './pool.js';

/** Paces request starts; `pause` (a 429 with retry-after) holds back every request of the run. */
export interface RequestLimiter {
  /** `tokens`: the most this request can bill (for tokens_per_minute). */
  wait(signal?: AbortSignal, tokens?: number): Promise<void>;
  pause?(ms: number): Promise<void>;
}

/** Run-wide state shared by every unit. */
export interface RunContext {
  runId: string;
  config: ExperimentConfig;
  provider: Provider;
  /** The provider's base URL as call records keep it: without credentials. */
  baseUrl: string;
  pool: Semaphore;
  /** Request pacing (`rate_limit`); a distributed run's is shared by every worker through the database. */
  limiter: RequestLimiter | undefined;
  /** The provider's tokenizer is ours (the simulator): prompt estimates are exact. */
  promptExact: boolean;
  /** The shared prompt estimator (src/estimate/): learns billed/counted per (base URL, model) as calls settle. */
  estimator: PromptEstimator;
  /** The provider's own prompt counts (count_tokens), cached per prompt hash. */
  promptCounts: PromptCountCache;
  /** Native n in effect; flips to false, once, when the upstream rejects `n`. */
  nativeN: { enabled: boolean };
  /** Aborts everything (Ctrl-C). */
  signal: AbortSignal;
  /** Jitter source for backoff; injectable so tests are deterministic. */
  random: () => number;
  /**
   * Records that a call is about to be sent (its intent) and returns its call id; throws
   * when the ledger cannot be written, and then the call must not be sent. A distributed
   * worker's ledger is a database: its intent is durable once the promise resolves.
   */
  startCall: (start: CallStart) => string | Promise<string>;
  /** Called for run-level events the manifest should keep. */
  onEvent: (message: string) => void;
  /** Called with booked tokens as attempts end (live spend per arm): billed, or the reservation when unknown. */
  onSpend: (arm: string, tokens: number) => void;
  /** Prices every call record is costed with (`cost_usd`). */
  prices: PriceTable;
}

export interface UnitContext {
  run: RunContext;
  unit: Unit;
  budget: BudgetTracker;
  /** Every attempt of this unit, in order; committed with the result. */
  calls: CallRecord[];
}

/** One path's raw outcome, before scoring. */
export interface PathRun {
  path: number;
  text: string;
  finishReason: CallRecord['finish_reason'];
  /** Billed tokens attributed to this path; with native n the call's usage split evenly. */
  tokens: number | undefined;
  error: string | undefined;
  /** Agent paths: model turns taken and the tool calls made. */
  turns?: number;
  trajectory?: ToolStep[];
}

/** Executors turn a unit into n path outputs, spending only through UnitContext. */
export interface Executor {
  readonly name: string;
  run(context: UnitContext): Promise<PathRun[]>;
}
