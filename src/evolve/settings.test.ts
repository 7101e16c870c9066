/**
 * The loop screens sequentially by default (issues 12 and 14): each screen is the anytime-valid
 * sequential run with its confidence sequence at the Bonferroni level 1 − α/m, where α is the
 * sequential test's own level (`sequential.confidence`, default gates.confidence). `fixed`
 * screening keeps the bootstrap interval at 1 − α/m; a loop started before screening was a
 * setting resumes as it began (fixed).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { loadConfig } from '../config/index.js';
import type { ExperimentConfig } from '../config/types.js';
import { evolveSettings } from './settings.js';
import { readState, writeState, type LoopState } from './state.js';

const EXAMPLE = new URL('../../examples/evolve-date-parser/experiment.yaml', import.meta.url).pathname;

describe('evolve settings: screening', () => {
  test('default: sequential, the CS at 1 − α/m, the sequential block\'s defaults for the rest', async () => {
    const settings = evolveSettings(await loadConfig(EXAMPLE));
    expect(settings.screening).toBe('sequential');
    expect(settings.plannedScreens).toBe(10);
    expect(settings.familyAlpha).toBeCloseTo(0.05, 12);
    expect(settings.screenConfidence).toBeCloseTo(0.995, 12);
    expect(settings.sequential).toEqual({ lookEvery: 20, minCases: 40, gainConfidence: 0.8, futilityConfidence: 0.6, confidence: settings.screenConfidence });
  });

  test('the experiment\'s sequential: block is reused; its confidence is the family level the correction divides', async () => {
    const config: ExperimentConfig = { ...(await loadConfig(EXAMPLE)), sequential: { lookEvery: 25, minCases: 50, gainConfidence: 0.9, futilityConfidence: 0.7, confidence: 0.9 } };
    const settings = evolveSettings(config, { rounds: 4, candidates: 5 });
    expect(settings.familyAlpha).toBeCloseTo(0.1, 12);
    expect(settings.screenConfidence).toBeCloseTo(1 - 0.1 / 20, 12);
    expect(settings.sequential).toEqual({ lookEvery: 25, minCases: 50, gainConfidence: 0.9, futilityConfidence: 0.7, confidence: settings.screenConfidence });
  });

  test('screening: fixed (config or flag): no sequential test, the bootstrap interval at 1 − α/m with α from gates.confidence', async () => {
    const base = await loadConfig(EXAMPLE);
    const fromConfig = evolveSettings({ ...base, sequential: { lookEvery: 20, minCases: 40, gainConfidence: 0.8, futilityConfidence: 0.6, confidence: 0.9 }, evolve: { ...(base.evolve as NonNullable<ExperimentConfig['evolve']>), screening: 'fixed' } });
    expect(fromConfig).toMatchObject({ screening: 'fixed', sequential: null, screenBootstrapRounds: 10_000 });
    expect(fromConfig.screenConfidence).toBeCloseTo(0.995, 12);
    expect(evolveSettings(base, { screening: 'fixed' })).toMatchObject({ screening: 'fixed', sequential: null });
  });

  test('a loop whose state.json predates the setting resumes with fixed screens', async () => {
    const settings = evolveSettings(await loadConfig(EXAMPLE));
    const { screening: _screening, sequential: _sequential, ...old } = settings;
    const file = join(mkdtempSync(join(tmpdir(), 'isobudget-state-')), 'state.json');
    const state = { schema_version: 1, evolve_id: 'old', config_path: EXAMPLE, config_hash: 'h', datasets: {}, settings: old, store_path: 'm.sqlite', failures_file: null, status: 'interrupted', stop: null, resumed: 0, created_at: '', updated_at: '' };
    writeFileSync(file, JSON.stringify(state));
    expect(readState(file).settings).toMatchObject({ screening: 'fixed', sequential: null, screenConfidence: settings.screenConfidence });
    writeState(file, { ...(state as unknown as LoopState), settings });
    expect(readState(file).settings.screening).toBe('sequential');
  });
});
