/**
 * `isobudget calibrate --evolve [EXPERIMENT.yaml]`: the evolution loop's false-accept rate
 * under a null proposer (`sim-proposer-null`), beside greedy uncorrected acceptance — many
 * simulated loops of R rounds × K candidates on one val split each (src/evolve/calibration).
 */
import { relative, resolve } from 'node:path';
import { CALIBRATION_DEFAULTS, calibrationPlan } from '../../calibrate/plan.js';
import { loadConfig, sequentialConfig } from '../../config/index.js';
import type { EvolveScreening } from '../../config/types.js';
import { DEFAULTS } from '../../config/defaults.js';
import { IsobudgetError } from '../../core/errors.js';
import { fieldsOf, loadDataset } from '../../datasets/index.js';
import { simulateNullLoops, type NullLoopsReport, type PolicyResult } from '../../evolve/calibration/null-loops.js';
import type { PolicyName } from '../../evolve/calibration/null-screen.js';
import { intOption, parseCommandArgs } from '../args.js';
import { JSON_OPTION, SEED_OPTION } from '../common-options.js';
import { EXIT } from '../exit-codes.js';
import type { CliIO } from '../io.js';

export const EVOLVE_CALIBRATION_DEFAULTS = { loops: 400, loopRounds: 5, candidates: 3, cases: 200, rounds: DEFAULTS.bootstrapRounds, seed: 1 };

const d = EVOLVE_CALIBRATION_DEFAULTS;
const USAGE = `isobudget calibrate --evolve [EXPERIMENT.yaml] [--loops ${d.loops}] [--loop-rounds ${d.loopRounds}] [--candidates ${d.candidates}] [--cases ${d.cases}]
    [--rounds ${d.rounds}] [--stop-after-no-gain 0] [--screening sequential|fixed] [--seed ${d.seed}] [--json]
Simulates --loops evolution loops with sim-proposer-null (edits with no effect) and reports how many accepted any
candidate: the false-accept rate with its Wilson 95% CI — for the loop as it screens (--screening, default the
experiment's evolve.screening, else sequential), and beside it, on the same draws, sequential and fixed screens with
and without the Bonferroni correction, and the sequential screens' tokens as a fraction of fixed screens'. --rounds is
the bootstrap rounds of each screen's analysis (as in \`calibrate\`); gates and the \`sequential:\` test come from
EXPERIMENT.yaml when given. --stop-after-no-gain 0 runs every round (the most screens: the worst case).`;

export async function calibrateEvolve(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandArgs('calibrate --evolve', argv, {
    loops: { type: 'string', value: 'N', help: 'simulated evolution loops', fallback: `${d.loops}`, example: '1000' },
    'loop-rounds': { type: 'string', value: 'N', help: 'rounds per loop', fallback: `${d.loopRounds}`, example: '3' },
    candidates: { type: 'string', value: 'K', help: 'candidates screened per round', fallback: `${d.candidates}`, example: '2' },
    cases: { type: 'string', value: 'N', help: 'val cases per screen', fallback: `the experiment's val cases, else ${d.cases}`, example: '400' },
    rounds: { type: 'string', value: 'N', help: 'bootstrap rounds of each screen\'s analysis', fallback: `${d.rounds}`, example: '500' },
    'stop-after-no-gain': { type: 'string', value: 'N', help: 'stop a loop after N rounds without an accept (0: never)', fallback: 'the experiment\'s, else 3', example: '0' },
    screening: { type: 'string', value: 'MODE', help: 'how the loop screens: sequential or fixed', fallback: 'the experiment\'s evolve.screening, else sequential', example: 'fixed' },
    seed: { ...SEED_OPTION, fallback: `${d.seed}` },
    json: JSON_OPTION,
  }, USAGE);
  if (positionals.length > 1) throw new IsobudgetError('usage', 'calibrate --evolve: at most one EXPERIMENT.yaml', { hint: USAGE });
  const file = positionals[0] === undefined ? undefined : resolve(io.cwd, positionals[0]);
  const config = file === undefined ? undefined : await loadConfig(file);
  const valCases = values.cases === undefined && config?.datasets.val !== undefined ? (await loadDataset(config.datasets.val, { split: 'val', configKey: 'datasets.val', configFile: config.configPath, ...fieldsOf(config) })).length : undefined;
  const at = (name: string, value: number | undefined, fallback: number, minimum: number): number => {
    const chosen = value ?? fallback;
    if (chosen < minimum) throw new IsobudgetError('usage', `calibrate --evolve: --${name} must be at least ${minimum}, got ${chosen}`, { hint: USAGE });
    return chosen;
  };
  const loops = at('loops', intOption('loops', values.loops), d.loops, 1);
  const loopRounds = at('loop-rounds', intOption('loop-rounds', values['loop-rounds']), d.loopRounds, 1);
  const candidates = at('candidates', intOption('candidates', values.candidates), d.candidates, 1);
  const cases = at('cases', intOption('cases', values.cases) ?? valCases, d.cases, 10);
  const rounds = at('rounds', intOption('rounds', values.rounds), config?.gates.bootstrapRounds ?? d.rounds, 100);
  const stopAfterNoGain = intOption('stop-after-no-gain', values['stop-after-no-gain']) ?? 0;
  const seed = intOption('seed', values.seed) ?? d.seed;
  const screening = screeningOption(values.screening) ?? config?.evolve?.screening ?? DEFAULTS.evolveScreening;
  const sequential = config?.sequential ?? sequentialConfig({});
  const plan = calibrationPlan({ ...CALIBRATION_DEFAULTS, cases, rounds, seed }, config);
  const started = performance.now();
  const report = simulateNullLoops({
    loops, rounds: loopRounds, candidatesPerRound: candidates, cases, population: plan.input.population, arms: plan.input.arms, gates: plan.input.gates,
    sequential, stopAfterNoGain, maxSkillGrowth: config?.evolve?.maxSkillGrowth ?? DEFAULTS.evolveMaxSkillGrowth, seed,
    ...(config?.variants.baseline.skillFile ? { skill: config.variants.baseline.systemPrompt } : {}),
  });
  const elapsedMs = Math.round(performance.now() - started);
  const source = file === undefined ? 'defaults' : relative(io.cwd, file) || file;
  if (values.json === true) {
    const loop = report.policies[screening];
    const policy = (name: PolicyName): Record<string, unknown> => ({ false_accept_rate: report.policies[name].rate, false_accept_ci95: report.policies[name].ci95, false_accepts: report.policies[name].loopsAccepting });
    io.stdout.write(`${JSON.stringify({
      kind: 'evolve_calibration', version: 2,
      plan: {
        source, loops, loop_rounds: loopRounds, candidates_per_round: candidates, val_cases: cases, bootstrap_rounds: rounds, stop_after_no_gain: stopAfterNoGain, seed, proposer: 'sim-proposer-null',
        screening: 'synthetic n=1 outcomes, same decision code', population: plan.input.population, gates: plan.planGates,
        sequential: { look_every: sequential.lookEvery, min_cases: sequential.minCases, gain_confidence: sequential.gainConfidence, futility_confidence: sequential.futilityConfidence },
      },
      // The loop as it screens: `screening` says which; both are below, measured on the same draws.
      correction: 'bonferroni', screening,
      family_alpha: screening === 'sequential' ? report.sequentialFamilyAlpha : report.familyAlpha,
      screen_confidence: screening === 'sequential' ? report.sequentialScreenConfidence : report.screenConfidence,
      screen_bootstrap_rounds: report.screenBootstrapRounds,
      false_accept_rate: loop.rate, false_accept_ci95: loop.ci95, false_accepts: loop.loopsAccepting,
      tokens_fraction_mean: report.tokens.fractionMean, tokens_fraction_p90: report.tokens.fractionP90, loop_tokens_fraction_mean: report.tokens.loopFractionMean,
      sequential: { ...policy('sequential'), family_alpha: report.sequentialFamilyAlpha, screen_confidence: report.sequentialScreenConfidence, stop_reasons: report.sequentialStops, verdicts: report.verdicts.sequential, uncorrected: policy('sequential_uncorrected') },
      fixed: { ...policy('fixed'), family_alpha: report.familyAlpha, screen_confidence: report.screenConfidence, screen_bootstrap_rounds: report.screenBootstrapRounds, verdicts: report.verdicts.fixed },
      uncorrected: policy('uncorrected'),
      screens_per_loop: report.screensPerLoop, dropped: report.dropped, elapsedMs,
    }, null, 2)}\n`);
  } else {
    io.stdout.write(renderText(report, { source, rounds, elapsedMs, screening }));
  }
  return EXIT.ok;
}

function screeningOption(value: string | undefined): EvolveScreening | undefined {
  if (value === undefined || value === 'sequential' || value === 'fixed') return value;
  throw new IsobudgetError('usage', `calibrate --evolve: --screening must be sequential or fixed, got '${value}'`, { hint: USAGE });
}

function renderText(report: NullLoopsReport, context: { source: string; rounds: number; elapsedMs: number; screening: EvolveScreening }): string {
  const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;
  const level = (x: number): string => `${Number((x * 100).toFixed(2))}%`;
  const line = (name: string, result: PolicyResult): string => `${name.padEnd(58)} ${pct(result.rate).padStart(6)}  [${pct(result.ci95[0])}, ${pct(result.ci95[1])}]  (${result.loopsAccepting} of ${report.loops} loops)`;
  const mark = (screening: EvolveScreening): string => (screening === context.screening ? ' ← the loop' : '');
  return [
    `isobudget calibrate --evolve — ${report.loops} loops × ${report.rounds} rounds × ${report.candidatesPerRound} candidates, ${report.cases} val cases; sim-proposer-null; plan: ${context.source}`,
    `screens: synthetic n=1 outcomes judged by the loop's own code; ${context.rounds} bootstrap rounds each (${report.screenBootstrapRounds} for a corrected fixed interval); ${report.screensPerLoop.toFixed(1)} screens per loop`,
    '',
    `${'acceptance'.padEnd(58)} ${'false accept'.padStart(6)}  95% CI`,
    line(`sequential, corrected (anytime-valid ${level(report.sequentialScreenConfidence)} CS)${mark('sequential')}`, report.policies.sequential),
    line(`sequential, uncorrected (${level(1 - report.sequentialFamilyAlpha)} CS)`, report.policies.sequential_uncorrected),
    line(`fixed, corrected (Bonferroni, ${level(report.screenConfidence)} gain intervals)${mark('fixed')}`, report.policies.fixed),
    line(`fixed, greedy uncorrected (${level(1 - report.familyAlpha)} gain intervals)`, report.policies.uncorrected),
    '',
    `sequential screens' tokens vs fixed: ${pct(report.tokens.fractionMean)} per screen on average (p90 ${pct(report.tokens.fractionP90)}), ${pct(report.tokens.loopFractionMean)} per loop`,
    `time: ${(context.elapsedMs / 1000).toFixed(1)} s`,
    '',
  ].join('\n');
}
