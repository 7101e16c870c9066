/** The run manifest (DESIGN §1, invariant 5): what makes a run reproducible and comparable. */
import type { ExperimentConfig, SplitName } from '../config/types.js';
import type { PricingRecord } from '../pricing/pricing-record.js';

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
  /** Notes the runner added while running, e.g. native n rejected → parallel. */
  events: Array<{ ts: string; message: string }>;
  resumed: number;
  /** The prices the run's calls were costed with (absent in runs made before prices existed). */
  pricing?: PricingRecord;
}
