/**
 * `isobudget calibrate [EXPERIMENT.yaml]`: how often the verdict would promote a candidate
 * that is no better (false promotion), how often it would promote one that is (power), and
 * how many cases reach 80% power — by simulating many experiments in-process.
 */
import { relative, resolve } from 'node:path';
import { calibrate } from '../../calibrate/calibrate.js';
import { CALIBRATION_DEFAULTS, calibrationPlan, type CalibrationChoices } from '../../calibrate/plan.js';
import { renderCalibration } from '../../calibrate/render.js';
import { loadConfig } from '../../config/index.js';
import type { ExperimentConfig } from '../../config/types.js';
import { IsobudgetError } from '../../core/errors.js';
import { fieldsOf, loadDataset } from '../../datasets/index.js';
import { intOption, numberOption, parseCommandArgs } from '../args.js';
import { JSON_OPTION, SEED_OPTION } from '../common-options.js';
import { EXIT } from '../exit-codes.js';
import { runSequentialCalibration, SEQUENTIAL_DEFAULTS, SEQUENTIAL_EFFECTS, SEQUENTIAL_SIZES } from './calibrate-sequential.js';
import type { CommandSpec } from './spec.js';

const defaults = CALIBRATION_DEFAULTS;
const USAGE = `isobudget calibrate [EXPERIMENT.yaml] [--cases ${defaults.cases}] [--baseline-pass ${defaults.baselinePass}] [--spread ${defaults.spread}] [--effect ${defaults.effect}]
    [--categories ${defaults.categories}] [--experiments ${defaults.experiments}] [--search-experiments ${defaults.searchExperiments}] [--rounds ${defaults.rounds}]
    [--max-cases ${defaults.searchMax}] [--seed ${defaults.seed}] [--all-arms] [--json]
isobudget calibrate --sequential [EXPERIMENT.yaml] [--cases N] [--experiments ${SEQUENTIAL_DEFAULTS.experiments}] [--rounds ${SEQUENTIAL_DEFAULTS.rounds}] [--seed ${defaults.seed}] [--json]
isobudget calibrate --evolve [EXPERIMENT.yaml] …   the evolution loop's false-accept rate (see --evolve --help)
Gates, best_of_n and B come from EXPERIMENT.yaml (cases from its val set unless --cases), else from the defaults.
--effect is the true population pass-rate delta (probability scale); --spread the SD of per-case pass probabilities.
--sequential simulates the sequential screen (the config's sequential: block, else its defaults) at effects ${SEQUENTIAL_EFFECTS.join(', ')} and ${SEQUENTIAL_SIZES.join(' and ')} cases (--cases: that size only).`;

export const calibrateCommand: CommandSpec = {
  summary: 'false-promotion rate, power and cases needed for 80% power, by simulating many experiments',
  async run(argv, io) {
    // The evolution loop's calibration has its own options (src/cli/commands/calibrate-evolve.ts).
    if (argv.includes('--evolve')) return (await import('./calibrate-evolve.js')).calibrateEvolve(argv.filter((arg) => arg !== '--evolve'), io);
    const { values, positionals } = parseCommandArgs('calibrate', argv, {
      cases: { type: 'string', value: 'N', help: 'cases per simulated experiment', fallback: `the experiment's val cases, else ${defaults.cases}`, example: '400' },
      'baseline-pass': { type: 'string', value: 'X', help: 'the baseline\'s mean pass probability (0–1)', fallback: `${defaults.baselinePass}`, example: '0.7' },
      spread: { type: 'string', value: 'X', help: 'SD of per-case pass probabilities', fallback: `${defaults.spread}`, example: '0.15' },
      effect: { type: 'string', value: 'X', help: 'the true pass-rate delta for the power estimate', fallback: `${defaults.effect}`, example: '0.05' },
      categories: { type: 'string', value: 'N', help: 'categories per dataset (the per-category regression gate)', fallback: `${defaults.categories}`, example: '6' },
      experiments: { type: 'string', value: 'N', help: 'simulated experiments per estimate', fallback: `${defaults.experiments}`, example: '2000' },
      'search-experiments': { type: 'string', value: 'N', help: 'simulated experiments per step of the cases-for-80%-power search', fallback: `${defaults.searchExperiments}`, example: '500' },
      rounds: { type: 'string', value: 'N', help: 'bootstrap rounds of each simulated analysis', fallback: `${defaults.rounds}`, example: '1000' },
      'max-cases': { type: 'string', value: 'N', help: 'largest case count the power search tries', fallback: `${defaults.searchMax}`, example: '6400' },
      seed: { ...SEED_OPTION, fallback: `${defaults.seed}` },
      'all-arms': { type: 'boolean', help: 'simulate all four arms (slower), not only n=1' },
      json: JSON_OPTION,
      sequential: { type: 'boolean', help: 'calibrate the sequential screen (see usage)' },
      evolve: { type: 'boolean', help: 'calibrate the evolution loop instead (calibrate --evolve --help)' },
    }, USAGE);
    if (positionals.length > 1) throw new IsobudgetError('usage', 'calibrate: at most one EXPERIMENT.yaml', { hint: USAGE });
    const file = positionals[0] === undefined ? undefined : resolve(io.cwd, positionals[0]);
    const config = file === undefined ? undefined : await loadConfig(file);
    const sequential = values.sequential === true;
    const valCases = values.cases === undefined && !sequential ? await plannedCases(config) : undefined;
    const cases = intOption('cases', values.cases) ?? valCases ?? defaults.cases;
    const choices: CalibrationChoices = {
      cases,
      baselinePass: numberOption('baseline-pass', values['baseline-pass']) ?? defaults.baselinePass,
      spread: numberOption('spread', values.spread) ?? defaults.spread,
      effect: numberOption('effect', values.effect) ?? defaults.effect,
      categories: intOption('categories', values.categories) ?? defaults.categories,
      experiments: intOption('experiments', values.experiments) ?? (sequential ? SEQUENTIAL_DEFAULTS.experiments : defaults.experiments),
      searchExperiments: intOption('search-experiments', values['search-experiments']) ?? defaults.searchExperiments,
      rounds: intOption('rounds', values.rounds) ?? (sequential ? SEQUENTIAL_DEFAULTS.rounds : defaults.rounds),
      seed: intOption('seed', values.seed) ?? defaults.seed,
      allArms: values['all-arms'] === true,
      searchMax: intOption('max-cases', values['max-cases']) ?? defaults.searchMax,
    };
    check(choices);
    if (sequential) {
      const source = file === undefined ? 'defaults' : relative(io.cwd, file) || file;
      try {
        runSequentialCalibration({ choices, sizes: values.cases === undefined ? [...SEQUENTIAL_SIZES] : [cases], json: values.json === true, source }, config, io);
      } catch (error) {
        if (error instanceof RangeError) throw new IsobudgetError('usage', `calibrate: ${error.message}`, { hint: USAGE });
        throw error;
      }
      return EXIT.ok;
    }
    const plan = calibrationPlan(choices, config);
    const started = performance.now();
    let report: ReturnType<typeof calibrate>;
    try {
      report = calibrate(plan.input);
    } catch (error) {
      // The model's own range checks (spread too wide for the pass rate, unreachable effect).
      if (error instanceof RangeError) throw new IsobudgetError('usage', `calibrate: ${error.message}`, { hint: USAGE });
      throw error;
    }
    const elapsedMs = performance.now() - started;
    if (values.json === true) {
      const record = { kind: 'calibration', version: 1, plan: { source: file ?? 'defaults', casesFromValSet: valCases !== undefined, ...choices, bestOfN: plan.bestOfN, gates: plan.planGates, budget: plan.input.arms.budget }, ...report, elapsedMs: Math.round(elapsedMs) };
      io.stdout.write(`${JSON.stringify(record, null, 2)}\n`);
    } else {
      const source = file === undefined ? 'defaults' : `${relative(io.cwd, file) || file}${valCases === undefined ? '' : ` (cases: its val set)`}`;
      io.stdout.write(renderCalibration(report, { population: plan.input.population, gates: plan.planGates, bestOfN: plan.bestOfN, runRounds: plan.planGates.bootstrapRounds, source, elapsedMs }));
    }
    return EXIT.ok;
  },
};

/** The planned experiment's val-set size, when it names one. */
async function plannedCases(config: ExperimentConfig | undefined): Promise<number | undefined> {
  if (config?.datasets.val === undefined) return undefined;
  return (await loadDataset(config.datasets.val, { split: 'val', configKey: 'datasets.val', configFile: config.configPath, ...fieldsOf(config) })).length;
}

function check(choices: CalibrationChoices): void {
  const fail = (message: string): never => {
    throw new IsobudgetError('usage', `calibrate: ${message}`, { hint: USAGE });
  };
  if (choices.cases < 10) fail(`--cases must be at least 10, got ${choices.cases}`);
  if (!(choices.baselinePass > 0 && choices.baselinePass < 1)) fail(`--baseline-pass must be in (0, 1), got ${choices.baselinePass}`);
  if (!(choices.effect > -1 && choices.effect < 1)) fail(`--effect must be a pass-rate delta in (−1, 1), got ${choices.effect}`);
  if (choices.experiments < 1 || choices.searchExperiments < 1) fail('--experiments and --search-experiments must be at least 1');
  if (choices.rounds < 100) fail(`--rounds must be at least 100, got ${choices.rounds}`);
  if (choices.searchMax < 25) fail(`--max-cases must be at least 25, got ${choices.searchMax}`);
}
