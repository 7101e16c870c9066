/**
 * `isobudget calibrate --sequential`: the sequential screen's false promotion, power and token
 * share at each true effect and split size, beside the fixed-size run on the same draws.
 */
import { calibrationPlan, type CalibrationChoices } from '../../calibrate/plan.js';
import { renderSequentialCalibration } from '../../calibrate/render-sequential.js';
import { calibrateSequential } from '../../calibrate/sequential-calibrate.js';
import { sequentialConfig } from '../../config/index.js';
import type { ExperimentConfig } from '../../config/types.js';
import type { CliIO } from '../io.js';

/** The grid: true n=1 effects and split sizes. */
export const SEQUENTIAL_EFFECTS = [0, 0.05, 0.1, 0.15, 0.2] as const;
export const SEQUENTIAL_SIZES = [200, 800] as const;
/** Defaults of a sequential calibration: enough experiments to read a 5% rate to ±1.4 points. */
export const SEQUENTIAL_DEFAULTS = { experiments: 1000, rounds: 200 } as const;

export interface SequentialChoices {
  choices: CalibrationChoices;
  /** Split sizes to simulate (cases): `--cases`, else 200 and 800. */
  sizes: number[];
  json: boolean;
  source: string;
}

export function runSequentialCalibration(options: SequentialChoices, config: ExperimentConfig | undefined, io: CliIO): void {
  const plan = calibrationPlan(options.choices, config);
  const sequential = config?.sequential ?? sequentialConfig({});
  const started = performance.now();
  const report = calibrateSequential({
    effects: SEQUENTIAL_EFFECTS,
    sizes: options.sizes,
    population: plan.input.population,
    arms: plan.input.arms,
    gates: plan.input.gates,
    sequential,
    experiments: options.choices.experiments,
    seed: options.choices.seed,
  });
  const elapsedMs = performance.now() - started;
  if (options.json) {
    // Keyed by effect, then by split size: effects["0.05"]["800"].false_promotion_rate.
    const effects: Record<string, Record<string, unknown>> = {};
    for (const cell of report.cells) (effects[String(cell.effect)] ??= {})[String(cell.cases)] = cell;
    const record = { kind: 'sequential_calibration', version: 1, plan: { source: options.source, ...options.choices, sizes: options.sizes, gates: plan.planGates, budget: plan.input.arms.budget, sequential }, rounds: report.rounds, experiments: report.experiments, min_same_budget_gain: report.minGain, effects, elapsedMs: Math.round(elapsedMs) };
    io.stdout.write(`${JSON.stringify(record, null, 2)}\n`);
  } else {
    io.stdout.write(renderSequentialCalibration(report, { source: options.source, confidence: plan.planGates.confidence, elapsedMs }));
  }
}
