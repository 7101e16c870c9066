/**
 * `isobudget calibrate --evolve [EXPERIMENT.yaml]`: the evolution loop's false-accept rate
 * under a null proposer (`sim-proposer-null`), beside greedy uncorrected acceptance — many
 * simulated loops of R rounds × K candidates on one val split each (src/evolve/calibration).
 */
import { relative, resolve } from 'node:path';
import { CALIBRATION_DEFAULTS, calibrationPlan } from '../../calibrate/plan.js';
import { loadConfig } from '../../config/index.js';
import { DEFAULTS } from '../../config/defaults.js';
import { IsobudgetError } from '../../core/errors.js';
import { loadDataset } from '../../datasets/index.js';
import { simulateNullLoops, type NullLoopsReport, type PolicyResult } from '../../evolve/calibration/null-loops.js';
import { intOption, parseCommandArgs } from '../args.js';
import { EXIT } from '../exit-codes.js';
import type { CliIO } from '../io.js';

export const EVOLVE_CALIBRATION_DEFAULTS = { loops: 400, loopRounds: 5, candidates: 3, cases: 200, rounds: DEFAULTS.bootstrapRounds, seed: 1 };

const d = EVOLVE_CALIBRATION_DEFAULTS;
const USAGE = `isobudget calibrate --evolve [EXPERIMENT.yaml] [--loops ${d.loops}] [--loop-rounds ${d.loopRounds}] [--candidates ${d.candidates}] [--cases ${d.cases}]
    [--rounds ${d.rounds}] [--stop-after-no-gain 0] [--seed ${d.seed}] [--json]
Simulates --loops evolution loops with sim-proposer-null (edits with no effect) and reports how many accepted any
candidate: the false-accept rate with its Wilson 95% CI, for the loop's Bonferroni-corrected acceptance and for greedy
uncorrected acceptance. --rounds is the bootstrap rounds of each screen's analysis (as in \`calibrate\`); gates come
from EXPERIMENT.yaml when given. --stop-after-no-gain 0 runs every round (the most screens: the worst case).`;

export async function calibrateEvolve(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandArgs('calibrate --evolve', argv, {
    loops: { type: 'string' }, 'loop-rounds': { type: 'string' }, candidates: { type: 'string' }, cases: { type: 'string' }, rounds: { type: 'string' },
    'stop-after-no-gain': { type: 'string' }, seed: { type: 'string' }, json: { type: 'boolean' },
  }, USAGE);
  if (positionals.length > 1) throw new IsobudgetError('usage', 'calibrate --evolve: at most one EXPERIMENT.yaml', { hint: USAGE });
  const file = positionals[0] === undefined ? undefined : resolve(io.cwd, positionals[0]);
  const config = file === undefined ? undefined : await loadConfig(file);
  const valCases = values.cases === undefined && config?.datasets.val !== undefined ? (await loadDataset(config.datasets.val, { split: 'val', configKey: 'datasets.val', configFile: config.configPath })).length : undefined;
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
  const plan = calibrationPlan({ ...CALIBRATION_DEFAULTS, cases, rounds, seed }, config);
  const started = performance.now();
  const report = simulateNullLoops({
    loops, rounds: loopRounds, candidatesPerRound: candidates, cases, population: plan.input.population, arms: plan.input.arms, gates: plan.input.gates,
    stopAfterNoGain, maxSkillGrowth: config?.evolve?.maxSkillGrowth ?? DEFAULTS.evolveMaxSkillGrowth, seed,
    ...(config?.variants.baseline.skillFile ? { skill: config.variants.baseline.systemPrompt } : {}),
  });
  const elapsedMs = Math.round(performance.now() - started);
  const source = file === undefined ? 'defaults' : relative(io.cwd, file) || file;
  if (values.json === true) {
    io.stdout.write(`${JSON.stringify({
      kind: 'evolve_calibration', version: 1,
      plan: { source, loops, loop_rounds: loopRounds, candidates_per_round: candidates, val_cases: cases, bootstrap_rounds: rounds, stop_after_no_gain: stopAfterNoGain, seed, proposer: 'sim-proposer-null', screening: 'synthetic n=1 outcomes, same decision code', population: plan.input.population, gates: plan.planGates },
      correction: 'bonferroni', family_alpha: report.familyAlpha, screen_confidence: report.screenConfidence, screen_bootstrap_rounds: report.screenBootstrapRounds,
      false_accept_rate: report.corrected.rate, false_accept_ci95: report.corrected.ci95, false_accepts: report.corrected.loopsAccepting,
      uncorrected: { false_accept_rate: report.uncorrected.rate, false_accept_ci95: report.uncorrected.ci95, false_accepts: report.uncorrected.loopsAccepting },
      screens_per_loop: report.screensPerLoop, dropped: report.dropped, verdicts: report.verdicts, elapsedMs,
    }, null, 2)}\n`);
  } else {
    io.stdout.write(renderText(report, { source, rounds, elapsedMs }));
  }
  return EXIT.ok;
}

function renderText(report: NullLoopsReport, context: { source: string; rounds: number; elapsedMs: number }): string {
  const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;
  const line = (name: string, result: PolicyResult): string => `${name.padEnd(46)} ${pct(result.rate).padStart(6)}  [${pct(result.ci95[0])}, ${pct(result.ci95[1])}]  (${result.loopsAccepting} of ${report.loops} loops)`;
  return [
    `isobudget calibrate --evolve — ${report.loops} loops × ${report.rounds} rounds × ${report.candidatesPerRound} candidates, ${report.cases} val cases; sim-proposer-null; plan: ${context.source}`,
    `screens: synthetic n=1 outcomes judged by the loop's own code; ${context.rounds} bootstrap rounds each (${report.screenBootstrapRounds} for the corrected gain interval); ${report.screensPerLoop.toFixed(1)} screens per loop`,
    '',
    `${'acceptance'.padEnd(46)} ${'false accept'.padStart(6)}  95% CI`,
    line(`corrected (Bonferroni, ${Number((report.screenConfidence * 100).toFixed(2))}% gain intervals)`, report.corrected),
    line('greedy, uncorrected (95% gain intervals)', report.uncorrected),
    '',
    `time: ${(context.elapsedMs / 1000).toFixed(1)} s`,
    '',
  ].join('\n');
}
