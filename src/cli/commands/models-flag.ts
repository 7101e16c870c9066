/**
 * `--models candidate=M,baseline=M`: the variants' models for one run without editing the
 * config (the config hash then differs, so runs with other models are never mixed up). A
 * name other than a variant's is an error with a did-you-mean.
 */
import { didYouMean } from '../../config/did-you-mean.js';
import { IsobudgetError } from '../../core/errors.js';
import type { ModelOverrides } from '../../runner/model-overrides.js';

export const MODELS_FLAG = { type: 'string', value: 'VARIANT=MODEL,…', help: 'override the variants\' models for this run (candidate=…, baseline=…)', example: 'candidate=gpt-4o,baseline=gpt-4o-mini' } as const;

const VARIANTS = ['candidate', 'baseline'] as const;

export function modelsFlag(value: string | boolean | undefined): ModelOverrides | undefined {
  if (typeof value !== 'string') return undefined;
  const overrides: ModelOverrides = {};
  for (const pair of value.split(',').map((p) => p.trim()).filter((p) => p !== '')) {
    const at = pair.indexOf('=');
    const name = at < 0 ? '' : pair.slice(0, at).trim();
    const model = at < 0 ? '' : pair.slice(at + 1).trim();
    if (at < 0 || model === '') throw new IsobudgetError('usage', `--models: '${pair}' is not VARIANT=MODEL`, { hint: 'e.g. --models candidate=gpt-4o,baseline=gpt-4o-mini' });
    if (name !== 'candidate' && name !== 'baseline') {
      const suggestion = didYouMean(name, VARIANTS);
      throw new IsobudgetError('usage', `--models: no variant '${name}'${suggestion === undefined ? '' : `; did you mean '${suggestion}'?`}`, { hint: 'the variants are candidate and baseline' });
    }
    overrides[name] = model;
  }
  if (Object.keys(overrides).length === 0) throw new IsobudgetError('usage', '--models needs VARIANT=MODEL (candidate=…, baseline=…)');
  return overrides;
}
