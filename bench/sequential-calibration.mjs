#!/usr/bin/env node
/**
 * The long version of the sequential screening calibration (issue 14, "Must show"): many
 * simulated experiments per (effect, split size), each screened by the real monitor and
 * judged by the real verdict, beside the fixed-size run on the same draws. The test suite runs
 * a small version (src/calibrate/sequential-calibrate.test.ts); this one reads the rates.
 *
 *   node bench/sequential-calibration.mjs [--experiments 1000] [--rounds 200] [--seed 1]
 *
 * Targets: false promotion ≤ 5% at every effect below min_same_budget_gain (0, +0.05), counted
 * at whichever look it happened; mean tokens ≤ 60% of the fixed run at 0 and +0.20; power at
 * +0.15 with 800 cases within 5 points of the fixed run. Writes bench/out/sequential-calibration.json
 * with `pass` and each check; exit status 0 (a simulation, not a timing: the checks are reported).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const { values } = parseArgs({ options: { experiments: { type: 'string', default: '1000' }, rounds: { type: 'string', default: '200' }, seed: { type: 'string', default: '1' } } });
const { calibrateSequential, renderSequentialCalibration } = await import(pathToFileURL(join(root, 'dist', 'calibrate', 'index.js')).href);
const { DEFAULTS } = await import(pathToFileURL(join(root, 'dist', 'config', 'defaults.js')).href);

const started = performance.now();
const gates = { minSameBudgetGain: 0.08, maxTokenGrowthRatio: 1.15, maxLatencyGrowthRatio: 1.3, bootstrapRounds: Number(values.rounds), confidence: 0.95 };
const sequential = { lookEvery: DEFAULTS.sequentialLookEvery, minCases: DEFAULTS.sequentialMinCases, gainConfidence: DEFAULTS.sequentialGainConfidence, futilityConfidence: DEFAULTS.sequentialFutilityConfidence };
const report = calibrateSequential({
  effects: [0, 0.05, 0.1, 0.15, 0.2],
  sizes: [200, 800],
  // CALIBRATION_DEFAULTS: baseline pass 0.6, between-case SD 0.25, 4 categories.
  population: { baselinePass: 0.6, spread: 0.25, effect: 0, categories: 4, tokensPerPath: 1500, latencyMs: 2000 },
  arms: { bestOfN: [1], budget: 200000, selectorAccuracy: 1, candidateTokenRatio: 1, candidateLatencyRatio: 1 },
  gates,
  sequential,
  experiments: Number(values.experiments),
  seed: Number(values.seed),
});
const elapsedMs = performance.now() - started;
process.stdout.write(renderSequentialCalibration(report, { source: 'defaults (bench)', confidence: gates.confidence, elapsedMs }));

const cell = (effect, cases) => report.cells.find((c) => c.effect === effect && c.cases === cases);
const checks = [];
for (const c of report.cells.filter((x) => x.false_promotion_rate !== null)) checks.push({ name: `false promotion ≤ 5% at ${c.effect} (${c.cases} cases)`, value: c.false_promotion_rate, pass: c.false_promotion_rate <= 0.05 });
for (const effect of [0, 0.2]) for (const cases of [200, 800]) { const c = cell(effect, cases); checks.push({ name: `mean tokens ≤ 60% at ${effect} (${cases} cases)`, value: c.tokens_fraction_mean, pass: c.tokens_fraction_mean <= 0.6 }); }
const power = cell(0.15, 800);
checks.push({ name: 'power at +0.15 (800 cases) within 5 points of the fixed run', value: power.power - power.fixed.promotion_rate, pass: power.power >= power.fixed.promotion_rate - 0.05 });
for (const c of checks) process.stdout.write(`${c.pass ? 'ok  ' : 'MISS'} ${c.name}: ${(c.value * 100).toFixed(1)}${c.name.startsWith('power') ? ' points' : '%'}\n`);
mkdirSync(join(here, 'out'), { recursive: true });
writeFileSync(join(here, 'out', 'sequential-calibration.json'), `${JSON.stringify({ pass: checks.every((c) => c.pass), checks, report, elapsedMs: Math.round(elapsedMs), machine: { cpus: cpus().length, load: loadavg() } }, null, 2)}\n`);
