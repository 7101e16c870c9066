#!/usr/bin/env node
/**
 * The long fuzz run (issue 11, "Must show"): --iterations (10,000) seeded mutations of every
 * example's experiment.yaml, of a dataset line and of a seed-ledger line, each fed to main()
 * in-process — the function the CLI calls — with its output captured (src/cli/input-fuzz.ts;
 * test/fuzz.test.ts runs a few hundred of each, and the hostile-file corpus).
 *
 *   node bench/fuzz-input.mjs [--iterations 10000] [--seed 11]
 *
 * Needs a built dist/ (`npm run build`). Every input must be handled: exit 0 or 2, no stack
 * trace, no ESC byte in the output, no call over 10 s of CPU (or of wall time, stretched by
 * the machine's load). Writes bench/out/fuzz-input.json and exits 1 if any input was
 * mishandled (the failures, with the input in base64 to replay).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const { values } = parseArgs({ options: { iterations: { type: 'string', default: '10000' }, seed: { type: 'string', default: '11' } } });
const { fuzz, fuzzTargets } = await import(join(root, 'dist', 'cli', 'input-fuzz.js'));

const { targets, cleanup } = fuzzTargets(join(root, 'examples'));
const started = performance.now();
let report;
try {
  report = await fuzz(targets, { iterations: Number(values.iterations), seed: Number(values.seed), maxFailures: 100 });
} finally {
  cleanup();
}
const seconds = (performance.now() - started) / 1000;
const result = {
  targets: targets.map((t) => t.name),
  iterations_per_target: Number(values.iterations),
  seed: Number(values.seed),
  runs: report.runs,
  exit_codes: report.codes,
  failures: report.failures,
  slowest_ms: Math.round(report.slowestMs),
  most_cpu_ms: Math.round(report.mostCpuMs),
  seconds: Math.round(seconds * 10) / 10,
  runs_per_second: Math.round(report.runs / seconds),
  load: loadavg()[0],
  cpus: cpus().length,
  pass: report.failures.length === 0,
};
mkdirSync(join(here, 'out'), { recursive: true });
writeFileSync(join(here, 'out', 'fuzz-input.json'), `${JSON.stringify(result, null, 2)}\n`);
process.stdout.write(`fuzz-input: ${report.runs} inputs (${targets.length} targets × ${values.iterations}) in ${result.seconds} s; exit codes ${JSON.stringify(report.codes)}; slowest ${result.slowest_ms} ms (most CPU ${result.most_cpu_ms} ms); ${report.failures.length} mishandled\n`);
for (const failure of report.failures.slice(0, 10)) process.stdout.write(`  ${failure.target} #${failure.iteration}: ${failure.problem}\n    ${failure.output.split('\n')[0]}\n`);
process.exitCode = result.pass ? 0 : 1;
