/**
 * `state.json`: what a loop fixed when it started — its config and dataset hashes, settings
 * (so the Bonferroni m never changes mid-loop), memory store and failures file — and how it
 * ended. `evolve --resume` reads it and replays the rounds: every finished step is read back
 * from disk, so only the unfinished work runs (and is paid for) again.
 */
import { existsSync } from 'node:fs';
import type { CaseSelection } from '../runner/case-selection.js';
import type { ExperimentConfig } from '../config/types.js';
import { IsobudgetError } from '../core/errors.js';
import { readJsonFile, writeJsonAtomic } from '../ledger/run-dir.js';
import { configHash } from '../runner/inputs.js';
import type { Stop } from './decide.js';
import { EVOLVE_SCHEMA_VERSION, type EvolveSettings } from './types.js';

export interface LoopState {
  schema_version: number;
  evolve_id: string;
  config_path: string;
  /** Hash of the config without its `evolve:` block. */
  config_hash: string;
  /** sha256 of every dataset file when the loop started. */
  datasets: Record<string, string>;
  settings: EvolveSettings;
  store_path: string;
  failures_file: string | null;
  /** `evolve --limit/--cases/--sample`: the val cases every screening run takes (absent: all); a resume keeps it. */
  cases?: CaseSelection;
  status: 'running' | 'complete' | 'stopped' | 'interrupted';
  stop: Stop | null;
  resumed: number;
  created_at: string;
  updated_at: string;
}

export function experimentHash(config: ExperimentConfig): string {
  const { evolve: _evolve, ...rest } = config;
  return configHash(rest);
}

export function readState(file: string): LoopState {
  if (!existsSync(file)) throw new IsobudgetError('not_found', 'not a loop directory: state.json not found', { location: { file }, hint: 'pass the directory `isobudget evolve` printed, e.g. evolve/ev-20260601-101500-ab12' });
  const state = readJsonFile<LoopState>(file, 'state.json');
  if (state.schema_version !== EVOLVE_SCHEMA_VERSION) throw new IsobudgetError('evolve_version', `state.json has schema_version ${String(state.schema_version)}, not ${EVOLVE_SCHEMA_VERSION}`, { location: { file }, hint: 'resume it with the isobudget version that started it' });
  return withScreening(state);
}

/** A loop started before sequential screening existed screened every candidate on the whole split: it goes on that way. */
function withScreening(state: LoopState): LoopState {
  const settings: Omit<EvolveSettings, 'screening' | 'sequential'> & Partial<EvolveSettings> = state.settings;
  return settings.screening === undefined ? { ...state, settings: { ...settings, screening: 'fixed', sequential: null } } : state;
}

export function writeState(file: string, state: LoopState): void {
  writeJsonAtomic(file, state);
}

/** A resumed loop must see the experiment it started with: same config, same datasets. */
export function checkUnchanged(state: LoopState, config: ExperimentConfig, datasets: Record<string, string>): void {
  if (experimentHash(config) !== state.config_hash) {
    throw new IsobudgetError('resume_mismatch', 'the experiment config or its skill file changed since this loop started', { location: { file: config.configPath }, hint: 'restore them, or start a new loop' });
  }
  for (const [name, sha] of Object.entries(state.datasets)) {
    if (datasets[name] !== sha) throw new IsobudgetError('resume_mismatch', `dataset '${name}' changed since this loop started`, { location: { file: config.configPath, key: `datasets.${name}` }, hint: 'restore it, or start a new loop (a refreshed split is a new val split: its screens start a new count)' });
  }
}
