#!/usr/bin/env node
/**
 * Harness throughput against `sim serve` with zero latency, over real HTTP.
 *
 *   node bench/harness-throughput.mjs [--mode parallel|native] [--cases 1000] [--paths 8]
 *                                    [--concurrency 64] [--budget 1200] [--name NAME] [--keep]
 *                                    [--dist DIR]
 *
 * `--dist DIR` runs the harness from another build (e.g. a patched copy's dist/); the sim
 * server always comes from this checkout's dist/, so only the harness side changes.
 *
 * What runs: an experiment of `--cases` real cases (MBPP `text` prompts, topped up with
 * HumanEval prompts, read from /work/shared/datasets at bench time), `best_of_n: [1, P]`,
 * protocol `openai-chat` against a sim server in a separate child process
 * (bench/sim-server.mjs), through the library entry point `runExperiment` from dist/.
 *
 * The job. isobudget always adds the n=1 arms, and both variants (baseline, candidate) run
 * every arm, so 1,000 cases × best_of_n [1, 8] is per case: 2 × 1 (n=1) + 2 × 8 (n=8) =
 * 18 path-requests — 18,000 in all, of which 16,000 are the n=8 arms. That is a superset of
 * the "1,000 cases × 8 paths = 8,000 requests" reference job, and requests/s is reported
 * over ALL of it (the n=1 arms are not left out of the clock). `--cases 500` gives exactly
 * 8,000 n=8 path-requests (+1,000 n=1) for a like-for-like size.
 *   --mode parallel: every path is its own HTTP call (n_mode: parallel) → 18 HTTP calls/case.
 *   --mode native:   one call with n=8 per n=8 arm (n_mode: native)   → 4 HTTP calls/case,
 *                    still 18 paths/case; paths/s is the comparable figure there.
 * B = 1200 binds for the n=8 arms (per-path cap < per_case_max_tokens 256). The 26 HumanEval
 * prompts are long: at n=8 *parallel* (prompt paid 8 times) B leaves them no completion
 * tokens, so the runner refuses those 39 units' 312 paths before sending (recorded as
 * budget_exhausted) — the parallel job is 17,688 HTTP requests, reported as
 * `pathsRefusedByBudget`. Native n pays the prompt once, so all 18,000 paths run there.
 *
 * "Every token accounted" is checked against an independent count: the sim-server child
 * sums `usage.total_tokens` of every reply body it writes to the socket. We require
 *   server billed tokens == Σ total_tokens over calls.jsonl == Σ total_tokens over results.jsonl,
 *   HTTP requests the server answered == call records in calls.jsonl,
 *   no reply without usage, no call record without usage, every planned unit committed,
 *   and Σ tokens per (case, arm, epoch) ≤ B (the budget invariant).
 * Failed attempts (e.g. a keep-alive reset that the runner retried) bill nothing; they are
 * reported (`ledger.failedAttempts`) but are not accounting mismatches.
 *
 * Peak RSS is this process's `process.resourceUsage().maxRSS` (the server child is not
 * included); it is taken right after `runExperiment` returns (the harness's peak) and again
 * at the very end (after the streaming ledger check).
 */
import { fork } from 'node:child_process';
import { createReadStream, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const here = dirname(fileURLToPath(import.meta.url));
const { values } = parseArgs({
  options: {
    mode: { type: 'string', default: 'parallel' },
    cases: { type: 'string', default: '1000' },
    paths: { type: 'string', default: '8' },
    concurrency: { type: 'string', default: '64' },
    budget: { type: 'string', default: '1200' },
    'per-case-max-tokens': { type: 'string', default: '256' },
    name: { type: 'string' },
    keep: { type: 'boolean', default: false },
    quiet: { type: 'boolean', default: false },
    /** `library`: runExperiment in this process; `cli`: `isobudget run` as a child, analysis and report included. */
    via: { type: 'string', default: 'library' },
    /** Measure another build of the library (e.g. a proposed change compiled elsewhere). */
    dist: { type: 'string' },
  },
});
const mode = values.mode;
if (mode !== 'parallel' && mode !== 'native') throw new Error(`--mode must be parallel or native, got ${mode}`);
const caseCount = Number(values.cases);
const paths = Number(values.paths);
const concurrency = Number(values.concurrency);
const budget = Number(values.budget);
const perCaseMaxTokens = Number(values['per-case-max-tokens']);
const via = values.via;
if (via !== 'library' && via !== 'cli') throw new Error(`--via must be library or cli, got ${via}`);
const name = values.name ?? `harness-throughput-${mode}${via === 'cli' ? '-cli' : ''}`;
const log = (line) => {
  if (!values.quiet) process.stderr.write(`${line}\n`);
};

const MBPP = '/work/shared/datasets/mbpp/mbpp.jsonl';
const HUMANEVAL_DIR = '/work/shared/datasets/humaneval';

// ---------------------------------------------------------------- dataset (read at bench time)
function readJsonlFile(file) {
  return readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l));
}

function buildCases(count) {
  const pool = [];
  const sources = [];
  if (existsSync(MBPP)) {
    const rows = readJsonlFile(MBPP);
    for (const row of rows) {
      const fn = /assert\s+(?:not\s+)?\(?\s*(?:set\()?\s*(\w+)\s*\(/.exec(row.test_list?.[0] ?? '')?.[1] ?? 'def ';
      pool.push({ id: `mbpp-${row.task_id}`, input: row.text, expected: fn, category: 'mbpp' });
    }
    sources.push(`MBPP ${rows.length} rows (${MBPP})`);
  }
  if (pool.length < count && existsSync(HUMANEVAL_DIR)) {
    const files = readdirSync(HUMANEVAL_DIR).filter((f) => f.endsWith('.jsonl')).map((f) => join(HUMANEVAL_DIR, f));
    let used = 0;
    for (const file of files) {
      for (const row of readJsonlFile(file)) {
        if (pool.length >= count) break;
        pool.push({ id: `humaneval-${String(row.task_id).replace(/\W+/g, '-')}`, input: row.prompt, expected: row.entry_point ?? 'def ', category: 'humaneval' });
        used += 1;
      }
    }
    if (used > 0) sources.push(`HumanEval ${used} rows (${HUMANEVAL_DIR})`);
  }
  let generated = false;
  if (pool.length === 0) {
    generated = true;
    for (let i = 0; i < count; i += 1) pool.push({ id: `gen-${i + 1}`, input: `Write a Python function add_${i}(a, b) that returns a + b + ${i}.`, expected: `add_${i}`, category: 'generated' });
    sources.push(`GENERATED ${count} cases (datasets missing)`);
  }
  // Top up with repeats under distinct ids when the real rows run out.
  const cases = pool.slice(0, count);
  let repeats = 0;
  for (let i = 0; cases.length < count; i += 1) {
    const base = pool[i % pool.length];
    cases.push({ ...base, id: `${base.id}-r${Math.floor(i / pool.length) + 1}` });
    repeats += 1;
  }
  if (repeats > 0) sources.push(`${repeats} repeats with distinct ids`);
  return { cases, sources, generated };
}

function writeExperiment(cases) {
  const dir = mkdtempSync(join(tmpdir(), 'isobudget-bench-'));
  mkdirSync(join(dir, 'data'));
  mkdirSync(join(dir, 'skills'));
  writeFileSync(join(dir, 'data', 'val.jsonl'), `${cases.map((c) => JSON.stringify(c)).join('\n')}\n`);
  writeFileSync(join(dir, 'skills', 'baseline.md'), '---\nname: python\ndescription: bench\nversion: 1\n---\nWrite a Python function that solves the task. Reply with code only.\n');
  writeFileSync(join(dir, 'skills', 'candidate.md'), '---\nname: python\ndescription: bench\nversion: 2\n---\nWrite a Python function that solves the task. Explain thoroughly, step by step, then give the code.\n');
  const yaml = [
    'experiment: bench-throughput',
    `provider: { protocol: openai-chat, base_url: "${serverUrl}/v1" }`,
    'variants:',
    '  baseline: { id: py-v1, model: sim-small, skill: skills/baseline.md }',
    '  candidate: { id: py-v2, model: sim-small, skill: skills/candidate.md }',
    `budget: { total_tokens_per_case: ${budget}, per_case_max_tokens: ${perCaseMaxTokens}, best_of_n: [1, ${paths}] }`,
    'datasets: { val: data/val.jsonl }',
    'scorer: contains',
    'selector: majority',
    'seed: 7',
    `concurrency: ${concurrency}`,
    `n_mode: ${mode}`,
    'retries: { max_attempts: 3, initial_delay_ms: 5, max_delay_ms: 50 }',
  ].join('\n');
  const configPath = join(dir, 'experiment.yaml');
  writeFileSync(configPath, `${yaml}\n`);
  return { dir, configPath, runsDir: join(dir, 'runs') };
}

// ---------------------------------------------------------------- sim server child
function startServerChild() {
  // execArgv: [] — flags given to the harness (--trace-gc, heap limits) are not the server's.
  const child = fork(join(here, 'sim-server.mjs'), ['--seed', '7'], { stdio: ['ignore', 'pipe', 'inherit', 'ipc'], execArgv: [] });
  return new Promise((resolve, reject) => {
    let buffer = '';
    const onData = (data) => {
      buffer += data.toString('utf8');
      const newline = buffer.indexOf('\n');
      if (newline < 0) return;
      child.stdout.off('data', onData);
      resolve({ child, url: JSON.parse(buffer.slice(0, newline)).url });
    };
    child.stdout.on('data', onData);
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`sim server exited early (${code})`)));
  });
}

function serverStats(child) {
  return new Promise((resolve) => {
    child.once('message', (message) => resolve(message.stats));
    child.send({ type: 'stats' });
  });
}

// ---------------------------------------------------------------- ledger check (streaming)
async function* lines(file) {
  const rl = createInterface({ input: createReadStream(file), crlfDelay: Infinity });
  for await (const line of rl) if (line.trim() !== '') yield JSON.parse(line);
}

async function checkLedger(runDir) {
  const calls = { records: 0, httpPaths: 0, tokens: 0, promptTokens: 0, completionTokens: 0, missingUsage: 0, failed: 0, failedSamples: [], byN: {} };
  const spend = new Map();
  for await (const call of lines(join(runDir, 'calls.jsonl'))) {
    calls.records += 1;
    calls.httpPaths += call.paths;
    calls.byN[call.n] = (calls.byN[call.n] ?? 0) + 1;
    if (call.error !== undefined) {
      // A failed attempt (e.g. a keep-alive reset, retried) bills nothing and is not an
      // accounting error; it is reported, not counted as a mismatch.
      calls.failed += 1;
      if (calls.failedSamples.length < 3) calls.failedSamples.push(call.error);
    }
    if (typeof call.total_tokens !== 'number' || call.usage_missing) {
      if (call.error === undefined) calls.missingUsage += 1;
      continue;
    }
    calls.tokens += call.total_tokens;
    calls.promptTokens += call.prompt_tokens ?? 0;
    calls.completionTokens += call.completion_tokens ?? 0;
    const key = `${call.case_id}|${call.arm}|${call.epoch}`;
    spend.set(key, (spend.get(key) ?? 0) + call.total_tokens);
  }
  const results = { records: 0, tokens: 0, overBudget: 0, budgetExhausted: 0, paths: 0, unknownTokens: 0 };
  for await (const result of lines(join(runDir, 'results.jsonl'))) {
    results.records += 1;
    results.paths += result.paths.length;
    if (typeof result.total_tokens === 'number') results.tokens += result.total_tokens;
    else results.unknownTokens += 1;
    if (result.over_budget) results.overBudget += 1;
    if (result.budget_exhausted) results.budgetExhausted += 1;
  }
  let overB = 0;
  let maxSpend = 0;
  for (const tokens of spend.values()) {
    if (tokens > budget) overB += 1;
    maxSpend = Math.max(maxSpend, tokens);
  }
  let interrupted = 0;
  const interruptedFile = join(runDir, 'interrupted-calls.jsonl');
  if (existsSync(interruptedFile)) for await (const _ of lines(interruptedFile)) interrupted += 1;
  return { calls, results, units: spend.size, unitsOverB: overB, maxUnitSpend: maxSpend, interruptedCalls: interrupted };
}

// ---------------------------------------------------------------- main
const mb = (kb) => Math.round((kb / 1024) * 10) / 10;
const rssAtStartMB = mb(process.resourceUsage().maxRSS);
const distDir = values.dist === undefined ? join(here, '..', 'dist') : resolve(values.dist);
const { runExperiment } = await import(pathToFileURL(join(distDir, 'runner', 'run-experiment.js')).href);
// The harness as `isobudget run` runs it: the CLI's heap policy (src/cli/heap-policy.ts, a
// V8 setting the CLI applies to its own process) and results streamed to the ledger only.
// ISOBUDGET_HEAP_GROWING_PERCENT=0 measures V8's default policy instead.
const { applyRunHeapPolicy } = await import(pathToFileURL(join(distDir, 'cli', 'heap-policy.js')).href);
const heapGrowingPercent = applyRunHeapPolicy(process.env);
const { cases, sources, generated } = buildCases(caseCount);
const { child, url: serverUrl } = await startServerChild();
const experiment = writeExperiment(cases);
log(`[${name}] ${cases.length} cases from ${sources.join(' + ')}; mode=${mode} best_of_n=[1, ${paths}] B=${budget} concurrency=${concurrency}; server ${serverUrl} (pid ${child.pid})`);

let report;
try {
  const rssBeforeRunMB = mb(process.resourceUsage().maxRSS);
  const cpu0 = process.cpuUsage();
  // Memory timeline (cheap: one sample every 250 ms) to tell live data from GC slack.
  const memory = { peakHeapUsedMB: 0, peakHeapTotalMB: 0, peakExternalMB: 0, samples: 0 };
  const sampler = setInterval(() => {
    const m = process.memoryUsage();
    memory.samples += 1;
    memory.peakHeapUsedMB = Math.max(memory.peakHeapUsedMB, round(m.heapUsed / 1048576, 1));
    memory.peakHeapTotalMB = Math.max(memory.peakHeapTotalMB, round(m.heapTotal / 1048576, 1));
    memory.peakExternalMB = Math.max(memory.peakExternalMB, round((m.external + m.arrayBuffers) / 1048576, 1));
  }, 250);
  sampler.unref();
  const t0 = performance.now();
  const cli = via === 'cli' ? await runCli(experiment) : undefined;
  const run = cli?.run ?? (await runExperiment({ configPath: experiment.configPath, outDir: experiment.runsDir, env: {}, concurrency, keepResults: false }));
  const wallS = (performance.now() - t0) / 1000;
  clearInterval(sampler);
  const cpu = cli?.cpu ?? process.cpuUsage(cpu0);
  const peakRssRunMB = cli ? mb(cli.maxRssKB) : mb(process.resourceUsage().maxRSS);
  const heapMB = Math.round((process.memoryUsage().heapUsed / 1048576) * 10) / 10;
  // With --expose-gc: what the run still holds once garbage is gone (the results array, …).
  if (typeof globalThis.gc === 'function') globalThis.gc();
  const liveHeapAfterRunMB = typeof globalThis.gc === 'function' ? round(process.memoryUsage().heapUsed / 1048576, 1) : undefined;
  const resultsInMemory = run.results.length;
  const unitsCommitted = run.unitsCommitted;

  const stats = await serverStats(child);
  const ledger = await checkLedger(run.runDir);
  const httpRequests = stats.server.byPath['/v1/chat/completions'] ?? 0;
  const billed = stats.billing.totalTokens;
  const checks = {
    tokensMatch: billed === ledger.calls.tokens && ledger.calls.tokens === ledger.results.tokens,
    requestsMatch: httpRequests === ledger.calls.records && stats.server.requests === httpRequests,
    noMissingUsage: stats.billing.repliesMissingUsage === 0 && ledger.calls.missingUsage === 0 && ledger.results.unknownTokens === 0,
    budgetHolds: ledger.unitsOverB === 0 && ledger.results.overBudget === 0,
    complete: run.manifest.status === 'complete' && ledger.results.records === run.manifest.units_planned && run.unitsCommitted === run.manifest.units_planned && ledger.interruptedCalls === 0,
  };
  const mismatches = Object.values(checks).filter((ok) => !ok).length;
  const pathsServed = ledger.calls.httpPaths;
  const n8Requests = Object.entries(ledger.calls.byN).filter(([n]) => Number(n) === paths).reduce((a, [, c]) => a + c, 0);
  report = {
    name,
    mode,
    job: {
      cases: cases.length,
      dataset: sources.join(' + '),
      generatedCases: generated,
      bestOfN: [1, paths],
      unitsPlanned: run.manifest.units_planned,
      budgetPerCase: budget,
      perCaseMaxTokens,
      armsBinding: run.manifest.arms.map((a) => `${a.arm}:${a.binding ? 'binding' : 'not-binding'}:${a.minMaxTokensPerPath}-${a.maxMaxTokensPerPath}`),
      note:
        mode === 'parallel'
          ? `every path is one HTTP call; ${cases.length} cases x (2 variants x 1 + 2 variants x ${paths}) paths`
          : `n=${paths} arms make one HTTP call with n=${paths}; paths/s is the figure comparable to parallel requests/s`,
    },
    concurrency,
    httpRequests,
    pathsServed,
    nArmRequests: n8Requests,
    wallS: round(wallS, 2),
    requestsPerS: round(httpRequests / wallS, 0),
    pathsPerS: round(pathsServed / wallS, 0),
    peakRssMB: peakRssRunMB,
    peakRssEndMB: mb(process.resourceUsage().maxRSS),
    rssAtStartMB,
    rssBeforeRunMB,
    heapUsedAfterRunMB: heapMB,
    liveHeapAfterRunMB,
    memoryDuringRun: memory,
    resultsHeldInMemory: resultsInMemory,
    unitsCommitted,
    heapGrowingPercent,
    via,
    ...(via === 'cli' ? { viaNote: 'isobudget run as a child process: start-up, the calls, paired statistics, verdict and report.html; wall, CPU and peak RSS are that process\'s own' } : {}),
    harnessCpuS: round((cpu.user + cpu.system) / 1e6, 2),
    harnessUserCpuS: round(cpu.user / 1e6, 2),
    harnessSysCpuS: round(cpu.system / 1e6, 2),
    harnessCpuUsPerRequest: round(((cpu.user + cpu.system) / httpRequests), 0),
    harnessCpuPct: round(((cpu.user + cpu.system) / 1e6 / wallS) * 100, 0),
    pathsRefusedByBudget: cases.length * 2 * (1 + paths) - pathsServed,
    server: { cpuS: round(stats.process.userCpuS + stats.process.systemCpuS, 2), maxRssMB: round(stats.process.maxRssMB, 1), requests: stats.server.requests, repliesMissingUsage: stats.billing.repliesMissingUsage, errorReplies: stats.billing.errorReplies },
    tokens: {
      billedByServer: billed,
      inLedgerCalls: ledger.calls.tokens,
      inLedgerResults: ledger.results.tokens,
      difference: billed - ledger.calls.tokens,
      promptBilled: stats.billing.promptTokens,
      promptInLedger: ledger.calls.promptTokens,
      completionBilled: stats.billing.completionTokens,
      completionInLedger: ledger.calls.completionTokens,
    },
    ledger: {
      callRecords: ledger.calls.records,
      callsByN: ledger.calls.byN,
      callsMissingUsage: ledger.calls.missingUsage,
      failedAttempts: ledger.calls.failed,
      failedAttemptSamples: ledger.calls.failedSamples,
      resultRecords: ledger.results.records,
      unitsBudgetExhausted: ledger.results.budgetExhausted,
      unitsOverB: ledger.unitsOverB,
      maxUnitSpend: ledger.maxUnitSpend,
    },
    checks,
    mismatchCount: mismatches,
    ok: mismatches === 0,
    node: process.version,
    dist: distDir,
    runDir: values.keep ? run.runDir : undefined,
  };
} finally {
  child.send({ type: 'close' });
  child.disconnect();
  if (!values.keep) rmSync(experiment.dir, { recursive: true, force: true });
}

const outDir = join(here, 'out');
mkdirSync(outDir, { recursive: true });
writeFileSync(join(outDir, `${name}.json`), `${JSON.stringify(report, null, 2)}\n`);
log(
  `[${name}] ${report.httpRequests} HTTP requests (${report.pathsServed} paths) in ${report.wallS}s = ${report.requestsPerS} req/s, ${report.pathsPerS} paths/s; ` +
    `peak RSS ${report.peakRssMB} MB; tokens billed ${report.tokens.billedByServer} vs ledger ${report.tokens.inLedgerCalls}; mismatches ${report.mismatchCount}`,
);
if (!report.ok) {
  log(`[${name}] CHECK FAILED: ${JSON.stringify(report.checks)}`);
  process.exitCode = 1;
}

/** `isobudget run` in a child process; its own peak RSS and CPU come back through a preload. */
async function runCli(experiment) {
  const usageFile = join(experiment.dir, 'cli-usage.json');
  const bin = join(distDir, 'cli', 'bin.js');
  const args = ['--import', pathToFileURL(join(here, 'support', 'usage-at-exit.mjs')).href, bin, 'run', experiment.configPath, '--out', experiment.runsDir, '--quiet', '--concurrency', String(concurrency)];
  const code = await new Promise((resolveExit) => fork(args[2], args.slice(3), { execArgv: args.slice(0, 2), env: { ...process.env, BENCH_USAGE_FILE: usageFile }, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] }).on('exit', resolveExit));
  // Exit codes 10/11 are verdicts (not promotable, regression), not failures of the run.
  if (code !== 0 && code !== 10 && code !== 11) throw new Error(`isobudget run exited ${code}`);
  const usage = JSON.parse(readFileSync(usageFile, 'utf8'));
  const runDir = join(experiment.runsDir, readdirSync(experiment.runsDir)[0]);
  const manifest = JSON.parse(readFileSync(join(runDir, 'manifest.json'), 'utf8'));
  let unitsCommitted = 0;
  for await (const _ of lines(join(runDir, 'results.jsonl'))) unitsCommitted += 1;
  return { run: { runDir, manifest, results: [], unitsCommitted }, maxRssKB: usage.maxRssKB, cpu: { user: usage.userCpuUs, system: usage.systemCpuUs } };
}

function round(value, digits) {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
