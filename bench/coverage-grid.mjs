#!/usr/bin/env node
/**
 * The long version of issue 24's "Must show" (the tests run a short one:
 * src/calibrate/coverage-grid.test.ts, src/calibrate/calibrate.test.ts):
 *
 * 1. The n=1 delta interval (Tango score, analysis/delta-interval.ts) over base 0.1/0.5/0.9 ×
 *    delta 0/0.05/0.1 × 20/50/100 cases × within-case correlation 0/0.5/0.9: exact coverage
 *    (every outcome enumerated) and simulated coverage (--replications per cell, seed 1000 + cell).
 * 2. The clustered grid (clusters of 5 at 100 cases, of 10 at 200, icc 0.5/0.9) with the
 *    cluster field given, beside the coverage of the same data read as independent cases.
 * 3. The budget gate: +0.10 pass rate at 200 and 50 cases, tokens/success truly ×1.3 (cost
 *    gaming) and ×1.0 (power), per-path token log-SD 0.2 and 0.8 (heavy tails), through the
 *    real pipeline (decideVerdict(analyzeResults(...))).
 *
 *   node bench/coverage-grid.mjs [--replications 4000] [--experiments 1000] [--rounds 500]
 *
 * Targets: exact coverage ≥ 93% in every cell; clustered ≥ 92% in every cell; cost gaming
 * ≤ 5% real_evolution at 200 cases. Simulated unclustered cells are reported beside the exact
 * ones (their Monte-Carlo error at 4,000 replications is ±0.4 points). Writes
 * bench/out/coverage-grid.json with `pass` and each check; exit status 0 (a simulation).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const { values } = parseArgs({ options: { replications: { type: 'string', default: '4000' }, experiments: { type: 'string', default: '1000' }, rounds: { type: 'string', default: '500' } } });
const load = (path) => import(pathToFileURL(join(root, 'dist', path)).href);
const { clusteredGrid, exactTangoCoverage, issueGrid, simulateCoverage } = await load('calibrate/coverage-grid.js');
const { simulateScenario, summarizePopulation } = await load('calibrate/index.js');

const replications = Number(values.replications);
const started = performance.now();
const pct = (x) => `${(x * 100).toFixed(1)}%`;
const out = (line) => process.stdout.write(`${line}\n`);

out(`1. Tango score interval, issue grid (81 cells): exact and ${replications} simulated replications per cell`);
const grid = issueGrid().map((cell, index) => ({ ...cell, exact: exactTangoCoverage(cell), simulated: simulateCoverage(cell, replications, 1000 + index).coverage }));
const worstExact = grid.reduce((a, b) => (b.exact < a.exact ? b : a));
const worstSimulated = grid.reduce((a, b) => (b.simulated < a.simulated ? b : a));
for (const cases of [20, 50, 100]) {
  const cells = grid.filter((c) => c.cases === cases);
  out(`  ${cases} cases: exact min ${pct(Math.min(...cells.map((c) => c.exact)))} mean ${pct(cells.reduce((s, c) => s + c.exact, 0) / cells.length)}; simulated min ${pct(Math.min(...cells.map((c) => c.simulated)))}`);
}
out(`  worst exact: ${pct(worstExact.exact)} at base ${worstExact.base}, delta ${worstExact.delta}, ${worstExact.cases} cases, correlation ${worstExact.correlation}`);

out(`2. clustered grid (${clusteredGrid().length} cells), ${replications} replications per cell`);
const clustered = clusteredGrid().map((cell, index) => ({ ...cell, ...simulateCoverage(cell, replications, 2000 + index) }));
for (const [cases, size] of [[100, 5], [200, 10]]) {
  for (const icc of [0.5, 0.9]) {
    const cells = clustered.filter((c) => c.cases === cases && c.clusterSize === size && c.icc === icc);
    out(`  ${cases} cases in clusters of ${size}, icc ${icc}: min ${pct(Math.min(...cells.map((c) => c.coverage)))} with the cluster field (mean design effect ${(cells.reduce((s, c) => s + c.meanDesignEffect, 0) / cells.length).toFixed(2)}); read as independent: min ${pct(Math.min(...cells.map((c) => c.coverageIgnoringClusters)))}`);
  }
}

out(`3. budget gate: +0.10 pass rate, ${values.experiments} experiments, ${values.rounds} bootstrap rounds`);
const gates = { minSameBudgetGain: 0.08, maxTokenGrowthRatio: 1.15, maxLatencyGrowthRatio: 1.3, bootstrapRounds: Number(values.rounds), confidence: 0.95 };
const gate = [];
for (const cases of [200, 50]) {
  for (const tail of [0.2, 0.8]) {
    const population = { baselinePass: 0.6, spread: 0.25, effect: 0.1, categories: 4, tokensPerPath: 1500, latencyMs: 2000 };
    const shiftFactor = summarizePopulation(population, 99).shiftFactor;
    const row = { cases, tail };
    const scenario = (tps, gateRatio) => simulateScenario({ population, shiftFactor, arms: { bestOfN: [1], budget: 1e9, selectorAccuracy: 1, candidateTokenRatio: tps * (0.7 / 0.6), candidateLatencyRatio: 1, pathTokenLogSd: tail }, gates: { ...gates, maxTokenGrowthRatio: gateRatio }, cases, experiments: Number(values.experiments), seed: 2024 });
    const gaming = scenario(1.3, 1.15);
    const honest = scenario(1.0, 1.15);
    // The same ×1.0 experiments with no token gate at all: the power the gain rules alone allow.
    const ungated = scenario(1.0, 1e9);
    Object.assign(row, { costGaming: gaming.rate, power: honest.rate, powerWithoutTokenGate: ungated.rate, coverage: honest.coverage, verdictsGaming: gaming.verdicts, verdicts: honest.verdicts });
    gate.push(row);
    out(`  ${cases} cases, path token log-SD ${tail}: tokens/success ×1.3 → real_evolution ${pct(row.costGaming)}; ×1.0 → power ${pct(row.power)} (${pct(row.powerWithoutTokenGate)} with no token gate); n=1 CI coverage ${pct(row.coverage)}`);
  }
}

const checks = [
  { name: 'exact coverage ≥ 93% in every cell', value: worstExact.exact, pass: worstExact.exact >= 0.93 },
  // The simulated cells estimate the exact value with Monte-Carlo error (±0.4 points at 4,000): they must agree with it.
  { name: `simulated coverage (${replications} per cell) within 4 SE of the exact one in every cell; worst simulated cell`, value: worstSimulated.simulated, pass: grid.every((c) => Math.abs(c.simulated - c.exact) <= 4 * Math.sqrt((c.exact * (1 - c.exact)) / replications)) },
  { name: 'clustered coverage ≥ 92% in every cell', value: Math.min(...clustered.map((c) => c.coverage)), pass: clustered.every((c) => c.coverage >= 0.92) },
  ...gate.filter((g) => g.cases === 200).map((g) => ({ name: `cost gaming ≤ 5% at 200 cases (path log-SD ${g.tail})`, value: g.costGaming, pass: g.costGaming <= 0.05 })),
];
for (const c of checks) out(`${c.pass ? 'ok  ' : 'MISS'} ${c.name}: ${pct(c.value)}`);
const elapsedMs = performance.now() - started;
out(`time: ${(elapsedMs / 1000).toFixed(1)} s`);
mkdirSync(join(here, 'out'), { recursive: true });
writeFileSync(join(here, 'out', 'coverage-grid.json'), `${JSON.stringify({ pass: checks.every((c) => c.pass), checks, grid, clustered, gate, elapsedMs: Math.round(elapsedMs), machine: { cpus: cpus().length, load: loadavg() } }, null, 2)}\n`);
