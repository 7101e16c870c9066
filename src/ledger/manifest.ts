/** The run manifest (DESIGN §1, invariant 5): what makes a run reproducible and comparable. */
import type { ExperimentConfig, SplitName } from '../config/types.js';
import type { SequentialPlan } from './sequential-plan-record.js';
import type { StopReason } from '../stats/sequential-screen.js';
import type { PricingRecord } from '../pricing/pricing-record.js';
import type { LedgerHashes } from './ledger-hashes.js';

export interface ArmPlan {
  arm: string;
  variant: 'baseline' | 'candidate';
  n: number;
  /** Effective n-mode of the arm: parallel when the provider has no native n. */
  nMode: 'native' | 'parallel';
  /** Whether B binds for this arm on a typical case (see budget.ts). */
  binding: boolean;
  /** max_tokens per path on the case with the longest prompt (tokens). */
  minMaxTokensPerPath: number;
  maxMaxTokensPerPath: number;
}

export interface Manifest {
  schema_version: number;
  run_id: string;
  experiment: string;
  status: 'running' | 'complete' | 'interrupted';
  created_at: string;
  updated_at: string;
  tool: { name: 'isobudget'; version: string };
  node: string;
  config_path: string;
  config_hash: string;
  /** The normalized config (no secrets: only the env var name). */
  config: ExperimentConfig;
  split: SplitName;
  datasets: Record<string, { path: string; sha256: string; cases: number }>;
  seed: number;
  scorer: { name: string; version: string };
  selector: string;
  n_mode: 'native' | 'parallel';
  arms: ArmPlan[];
  units_planned: number;
  allow_overlap: boolean;
  overlap: string[];
  warnings: string[];
  /** Model calls of the run, current at every manifest write (absent in older manifests). */
  calls?: CallCounts;
  /**
   * sha256 of calls.jsonl and results.jsonl once every unit is committed (absent while running
   * and in older manifests). Readers check them: a ledger edited after the run is `invalid`.
   */
  ledger_sha256?: LedgerHashes;
  /** Notes the runner added while running, e.g. native n rejected → parallel. */
  events: Array<{ ts: string; message: string }>;
  resumed: number;
  /** Sequential screening (issue 14): the plan a replay decides by, and the stop once decided. */
  sequential?: { plan: SequentialPlan; stopped_at: number | null; stop_reason: StopReason | null };
  /** The prices the run's calls were costed with (absent in runs made before prices existed). */
  pricing?: PricingRecord;
  /** How the run was started, so `run --resume` continues it the same way (absent: defaults, or an older run). */
  run_options?: RunOptionsRecord;
  /** Set for a run made by `rescore`: the run whose outputs and calls it reuses, and that run's scorer. */
  rescored_from?: { run_id: string; dir: string; scorer: string };
  /** Set when the run takes only some cases of its split (`--limit`, `--cases`, `--sample`): its verdict says "N of M cases". */
  partial?: { selection: string; cases: number; of: number };
  /** A run made by `isobudget import` from another tool's results (absent for runs isobudget made). */
  imported?: ImportedRecord;
}

/** Where an imported run came from, and what that tool cannot say. */
export interface ImportedRecord {
  tool: 'promptfoo' | 'inspect';
  tool_version: string | null;
  /** The file imported (absolute path) and the sha256 of its bytes (hex). */
  file: string;
  sha256: string;
  /** The tool's id of the eval. */
  eval_id: string | null;
  /** Always null: the tool ran under no per-case token budget B (`config.budget.totalTokensPerCase` is null too). */
  budget: null;
}

/** Run options outside the config (its hash): what `--resume` reuses unless given again. */
export interface RunOptionsRecord {
  /** `--sim-latency-scale`: the in-process simulator's latency factor. */
  sim_latency_scale?: number;
  /** `--concurrency`: model calls in flight, over the config's. */
  concurrency?: number;
  /** `--limit` / `--cases` / `--sample --seed`: the cases a partial run takes (a resume takes the same). */
  cases?: { kind: 'limit'; limit: number } | { kind: 'cases'; ids: string[] } | { kind: 'sample'; size: number; seed: number };
  /** `--models`: the variants' models over the config's. */
  models?: { candidate?: string; baseline?: string };
}

/** Every model call of a run, by where its record is. */
export interface CallCounts {
  /** In calls.jsonl: the calls of committed units. */
  committed: number;
  /**
   * In interrupted-calls.jsonl: calls billed — or possibly billed — for units that did not
   * commit (re-run on resume); spent, but no result uses them.
   */
  spent_unused: number;
  /** Of spent_unused: calls in flight when the run stopped; outcome and usage unknown. */
  outcome_unknown: number;
  /** Σ total_tokens of the spent_unused calls whose usage is known (tokens). */
  spent_unused_tokens: number;
  /** Σ reserved_tokens of the outcome_unknown calls: the most they can have billed (tokens). */
  outcome_unknown_max_tokens: number;
}

export function emptyCallCounts(): CallCounts {
  return { committed: 0, spent_unused: 0, outcome_unknown: 0, spent_unused_tokens: 0, outcome_unknown_max_tokens: 0 };
}

/** Adds interrupted-calls records to the spent_unused counts. */
export function countSpentUnused(counts: CallCounts, records: ReadonlyArray<{ total_tokens: number | undefined; note: string | undefined; reserved_tokens?: number | undefined }>): void {
  for (const record of records) {
    counts.spent_unused += 1;
    counts.spent_unused_tokens += record.total_tokens ?? 0;
    if (record.note === 'outcome_unknown') {
      counts.outcome_unknown += 1;
      counts.outcome_unknown_max_tokens += record.reserved_tokens ?? 0;
    }
  }
}
