#!/usr/bin/env node
/**
 * Analysis of a 1,000,000-record seed-format ledger: `isobudget analyze --ledger FILE --json`
 * must take under 5 s wall and under 1 GB peak RSS (issue "must show").
 *
 *   node bench/analysis-ledger.mjs [--cases 10000] [--rows 25] [--rounds 2000] [--build] [--regenerate] [--clean]
 *                                  [--dist DIR] [--name NAME]
 *
 * Needs a built dist/ (`npm run build`, or pass --build). `--dist` measures another build of
 * the CLI (e.g. a proposed change compiled elsewhere); `--name` names the output file.
 *
 * The ledger (generated here, deterministic, cached in os.tmpdir() across runs): 10,000 cases
 * × 4 arms (baseline_single, candidate_single, baseline_best_of_8, candidate_best_of_8) × 25
 * rows, one row per model call, in the seed's record format plus `category` and `selected`.
 * How the rows of one (case, arm) aggregate (see src/analysis/seed-ledger.ts):
 *   n = 1: one agent session of 24 turns plus one retried attempt (a 5xx, billed 0 output
 *          tokens); the LAST row — the final turn — carries the outcome `passed`.
 *   n = 8: 8 paths × 3 turns = 24 rows plus one retried attempt; each path's final turn
 *          carries that path's outcome, earlier turns `passed: false`; the selected path's
 *          final row has `selected: true` (an oracle selector: a passing path if any).
 *   Tokens are summed over all 25 rows, latency is the slowest row, pass@8 = any row passed.
 * The arms' rows are interleaved call by call, as a concurrent runner would log them.
 * Per-case difficulty p ~ a skewed mix over 8 categories; the candidate is p + 0.03.
 *
 * Measured, each in its own child process:
 *   cli:     node dist/cli/bin.js analyze --ledger FILE --json — wall time from spawn to exit
 *            (startup included) and peak RSS (`process.resourceUsage().maxRSS` at exit,
 *            recorded by a preloaded module).
 *   library: readSeedLedger, then analyzeResults, then decideVerdict from dist/, timed
 *            separately (the parse vs analysis split), with its own peak RSS.
 * Writes bench/out/analysis-ledger.json.
 */
import { execFileSync, spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: {
    cases: { type: 'string', default: '10000' },
    rows: { type: 'string', default: '25' },
    rounds: { type: 'string', default: '2000' },
    build: { type: 'boolean', default: false },
    regenerate: { type: 'boolean', default: false },
    clean: { type: 'boolean', default: false },
    dist: { type: 'string', default: 'dist' },
    name: { type: 'string', default: 'analysis-ledger' },
  },
});
const caseCount = Number(values.cases);
const rowsPerGroup = Number(values.rows);
const rounds = Number(values.rounds);
const LIMITS = { wallSeconds: 5, peakRssMB: 1024 };
const PATHS = 8;
if (rowsPerGroup !== PATHS * 3 + 1) throw new Error(`--rows must be ${PATHS * 3 + 1} (8 paths × 3 turns + 1 retry); other shapes are not generated`);

const distDir = resolve(root, values.dist);
if (values.build || !existsSync(join(root, 'dist/cli/bin.js'))) execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });

// ---- the ledger -------------------------------------------------------------------------
const GENERATOR_VERSION = 1;
const ledger = join(tmpdir(), 'isobudget-bench', `analysis-ledger-v${GENERATOR_VERSION}-${caseCount}x4x${rowsPerGroup}.jsonl`);
let generatedSeconds = null;
if (values.regenerate || !existsSync(ledger)) {
  const started = performance.now();
  generateLedger(ledger);
  generatedSeconds = (performance.now() - started) / 1000;
}
const records = caseCount * 4 * rowsPerGroup;
const fileMB = statSync(ledger).size / 2 ** 20;

/** mulberry32: a small deterministic generator; the bench needs reproducible data, not the project's RNG. */
function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function generateLedger(file) {
  mkdirSync(dirname(file), { recursive: true });
  const random = mulberry32(20240611);
  const lognormal = (median, sd) => median * Math.exp(sd * Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random()));
  const arms = [
    { arm: 'baseline_single', n: 1, lift: 0 },
    { arm: 'candidate_single', n: 1, lift: 0.03 },
    { arm: 'baseline_best_of_8', n: PATHS, lift: 0 },
    { arm: 'candidate_best_of_8', n: PATHS, lift: 0.03 },
  ];
  const partial = `${file}.partial`;
  const fd = openSync(partial, 'w');
  let buffer = '';
  const flush = () => {
    writeSync(fd, buffer);
    buffer = '';
  };
  for (let c = 0; c < caseCount; c += 1) {
    const caseId = `case-${String(c).padStart(5, '0')}`;
    const category = `cat-${c % 8}`;
    // Skewed difficulty: a third nearly always solved, a fifth nearly never, the rest between.
    const u = random();
    const p = u < 0.33 ? 0.95 : u < 0.53 ? 0.05 : 0.2 + 0.6 * random();
    const groups = arms.map((spec) => rowsFor(spec, caseId, category, Math.min(1, p + spec.lift), random, lognormal));
    for (let r = 0; r < rowsPerGroup; r += 1) for (const rows of groups) buffer += `${rows[r]}\n`;
    if (buffer.length > 1 << 22) flush();
  }
  flush();
  closeSync(fd);
  renameSync(partial, file);
}

function rowsFor(spec, caseId, category, p, random, lognormal) {
  const row = (fields) => JSON.stringify({ run_id: 'bench-run', case_id: caseId, arm: spec.arm, n: spec.n, model: 'sim-small', base_url: 'http://127.0.0.1:8787/v1', ...fields, category });
  const call = (passed, extra = {}) => {
    const prompt = Math.round(lognormal(900, 0.4));
    const completion = Math.round(lognormal(220, 0.6));
    return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion, latency_ms: Math.round(lognormal(1400, 0.5)), passed, judge_score: null, ...extra };
  };
  const retried = () => {
    const prompt = Math.round(lognormal(900, 0.4));
    return row({ prompt_tokens: prompt, completion_tokens: 0, total_tokens: prompt, latency_ms: Math.round(lognormal(300, 0.5)), passed: false, judge_score: null, error: 'HTTP 503' });
  };
  if (spec.n === 1) {
    const rows = [retried()];
    for (let turn = 0; turn < 23; turn += 1) rows.push(row(call(false)));
    rows.push(row(call(random() < p)));
    return rows;
  }
  const outcomes = Array.from({ length: PATHS }, () => random() < p);
  const selected = outcomes.includes(true) ? outcomes.indexOf(true) : 0;
  const rows = [retried()];
  for (let path = 0; path < PATHS; path += 1) {
    rows.push(row(call(false, { path })), row(call(false, { path })));
    const last = call(outcomes[path], { path, judge_score: outcomes[path] ? 0.9 : 0.2 });
    rows.push(row(path === selected ? { ...last, selected: true } : last));
  }
  return rows;
}

// ---- measurements -----------------------------------------------------------------------
const loadAverageAtStart = loadavg().map((x) => Number(x.toFixed(2)));
const outDir = join(root, 'bench/out');
mkdirSync(outDir, { recursive: true });
const scratch = join(tmpdir(), `isobudget-bench-${process.pid}`);
mkdirSync(scratch, { recursive: true });
// Preloaded into the CLI child: its own peak RSS and CPU time at exit, into a file (stdout is
// the verdict). CPU time (user + system) is reported beside wall time because this machine is
// shared: under load, wall time measures the neighbours as much as the analysis.
const rssHook = join(scratch, 'rss-hook.mjs');
writeFileSync(rssHook, `import { writeFileSync } from 'node:fs';\nprocess.on('exit', () => writeFileSync(process.env.BENCH_RSS_FILE, JSON.stringify(process.resourceUsage())));\n`);

function runChild(args, env = {}) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    const out = [];
    let stderr = '';
    child.stdout.on('data', (chunk) => out.push(chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      const wallSeconds = (performance.now() - started) / 1000;
      if (code !== 0) reject(new Error(`child exited ${code}: ${stderr}`));
      else resolve({ wallSeconds, stdout: Buffer.concat(out).toString() });
    });
  });
}

const rssFile = join(scratch, 'cli-rss');
const cli = await runChild(['--import', pathToFileURL(rssHook).href, join(distDir, 'cli/bin.js'), 'analyze', '--ledger', ledger, '--rounds', String(rounds), '--json'], { BENCH_RSS_FILE: rssFile });
const verdict = JSON.parse(cli.stdout);
const cliUsage = JSON.parse(readFileSync(rssFile, 'utf8'));
const cliPeakRssMB = cliUsage.maxRSS / 1024;
const cliCpuSeconds = (cliUsage.userCPUTime + cliUsage.systemCPUTime) / 1e6;

const dist = (path) => JSON.stringify(pathToFileURL(join(distDir, path)).href);
const librarySource = `
const [{ readSeedLedger }, { analyzeResults }, { decideVerdict }] = await Promise.all([
  import(${dist('analysis/seed-ledger.js')}), import(${dist('analysis/analyze-run.js')}), import(${dist('verdict/decide.js')})]);
const t0 = performance.now();
const results = await readSeedLedger(${JSON.stringify(ledger)});
const t1 = performance.now();
const gates = { minSameBudgetGain: 0.08, maxTokenGrowthRatio: 1.15, maxLatencyGrowthRatio: 1.3, bootstrapRounds: ${rounds}, confidence: 0.95 };
const analysis = analyzeResults(results, { runId: 'bench', experiment: 'bench', split: 'val', budget: 200000, bestOfN: [1, 8], baselineId: 'baseline', candidateId: 'candidate', gates, seed: 0, nonBindingArms: [] });
const t2 = performance.now();
const verdict = decideVerdict(analysis);
const t3 = performance.now();
console.log(JSON.stringify({ results: results.length, parseSeconds: (t1 - t0) / 1000, analyzeSeconds: (t2 - t1) / 1000, verdictSeconds: (t3 - t2) / 1000, verdict: verdict.verdict, peakRssMB: process.resourceUsage().maxRSS / 1024, cpuSeconds: (process.cpuUsage().user + process.cpuUsage().system) / 1e6 }));
`;
let library;
try {
  library = JSON.parse((await runChild(['--input-type=module', '-e', librarySource])).stdout);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
// The ledger is kept by default: it is deterministic and regenerating 1M rows takes seconds.
if (values.clean) rmSync(ledger, { force: true });

const pass = cli.wallSeconds < LIMITS.wallSeconds && cliPeakRssMB < LIMITS.peakRssMB;
const report = {
  bench: values.name,
  dist: distDir,
  records,
  cases: caseCount,
  arms: 4,
  rowsPerCaseArm: rowsPerGroup,
  resultRecords: library.results,
  ledgerFile: ledger,
  ledgerMB: Number(fileMB.toFixed(1)),
  generatedSeconds: generatedSeconds === null ? null : Number(generatedSeconds.toFixed(2)),
  bootstrapRounds: rounds,
  cli: { wallSeconds: Number(cli.wallSeconds.toFixed(2)), cpuSeconds: Number(cliCpuSeconds.toFixed(2)), peakRssMB: Math.round(cliPeakRssMB), verdict: verdict.verdict, cases: verdict.same_budget?.cases },
  library: {
    parseSeconds: Number(library.parseSeconds.toFixed(2)),
    analyzeSeconds: Number(library.analyzeSeconds.toFixed(2)),
    verdictSeconds: Number(library.verdictSeconds.toFixed(3)),
    cpuSeconds: Number(library.cpuSeconds.toFixed(2)),
    peakRssMB: Math.round(library.peakRssMB),
  },
  limits: LIMITS,
  pass,
  machine: { node: process.version, cpus: cpus().length, cpu: cpus()[0]?.model, loadAverageAtStart },
};
writeFileSync(join(outDir, `${values.name}.json`), `${JSON.stringify(report, null, 2)}\n`);
console.log(`${values.name}: ${records.toLocaleString('en-US')} records (${caseCount} cases × 4 arms × ${rowsPerGroup} rows, ${report.ledgerMB} MB${generatedSeconds === null ? ', cached' : `, generated in ${report.generatedSeconds} s`}), ${rounds} bootstrap rounds`);
console.log(`  cli analyze --ledger --json: ${report.cli.wallSeconds} s wall (${report.cli.cpuSeconds} s CPU), ${report.cli.peakRssMB} MB peak RSS → verdict ${report.cli.verdict} on ${report.cli.cases} cases`);
console.log(`  library split: parse ${report.library.parseSeconds} s, analysis ${report.library.analyzeSeconds} s, verdict ${report.library.verdictSeconds} s, ${report.library.peakRssMB} MB peak RSS`);
console.log(`  limits: < ${LIMITS.wallSeconds} s and < ${LIMITS.peakRssMB} MB → ${pass ? 'PASS' : 'FAIL'} (load average at start ${loadAverageAtStart.join(', ')} on ${cpus().length} CPUs)`);
if (!pass) process.exitCode = 1;
