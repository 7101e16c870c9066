/** `--models`: a variant's model for one run, over the config's (applied before the config is hashed). */
import type { ExperimentConfig } from '../config/types.js';

export interface ModelOverrides {
  candidate?: string;
  baseline?: string;
}

export function applyModelOverrides(config: ExperimentConfig, overrides: ModelOverrides | undefined): void {
  if (overrides === undefined) return;
  for (const variant of ['candidate', 'baseline'] as const) {
    const model = overrides[variant];
    if (model !== undefined) config.variants[variant].model = model;
  }
}
