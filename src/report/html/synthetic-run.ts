/**
 * A synthetic run directory of any size (manifest, dataset, results.jsonl, verdict.json) for
 * the report's size test and opening-time benchmark: realistic outputs of varied length,
 * some very long, n=8 paths that partly agree, ten categories. Not part of the public API.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyzeResults } from '../../analysis/analyze-run.js';
import { parseConfigText } from '../../config/index.js';
import { sha256 } from '../../core/hash.js';
import type { Manifest } from '../../ledger/manifest.js';
import { LEDGER_SCHEMA_VERSION, type PathOutcome, type ResultRecord } from '../../ledger/records.js';
import { armName } from '../../runner/plan.js';
import { createRng, type Rng } from '../../stats/index.js';
import { decideVerdict } from '../../verdict/decide.js';
import type { VerdictRecord } from '../../verdict/record.js';
import type { CaseText } from './case-data.js';
import { contextFromManifest } from '../../verdict/verdict-for-run.js';

export interface SyntheticRunOptions {
  dir: string;
  cases: number;
  seed?: number;
  /** Bootstrap rounds of the verdict (fewer is faster; the report does not care). */
  rounds?: number;
}

const WORDS = 'the date parser reads each token then normalizes the year month and day before it checks the calendar and formats an ISO string with zero padding'.split(' ');
const CATEGORIES = ['iso', 'us-slash', 'eu-dot', 'month-name', 'day-month-name', 'compact', 'two-digit-year', 'iso-week', 'ordinal-date', 'relative'];
const N = 8;
const BUDGET = 6000;

export interface SyntheticRun {
  dir: string;
  manifest: Manifest;
  results: ResultRecord[];
  verdict: VerdictRecord;
  texts: Map<string, CaseText>;
}

/** Writes the run directory and returns what it holds (so callers need not read it back). */
export function writeSyntheticRun(options: SyntheticRunOptions): SyntheticRun {
  const rng = createRng(options.seed ?? 5);
  const dir = options.dir;
  mkdirSync(dir, { recursive: true });
  const runId = 'bf-synthetic';
  const dataset = join(dir, 'val.jsonl');
  const rows: string[] = [];
  const texts = new Map<string, CaseText>();
  const results: ResultRecord[] = [];
  for (let i = 0; i < options.cases; i++) {
    const id = `case-${String(i + 1).padStart(5, '0')}`;
    const category = CATEGORIES[i % CATEGORIES.length] ?? 'other';
    const text = { input: `Normalize this date: ${sentence(rng, 8 + rng.int(20))}`, expected: `20${String(10 + (i % 90)).padStart(2, '0')}-01-0${1 + (i % 9)}` };
    texts.set(id, text);
    rows.push(JSON.stringify({ id, ...text, category }));
    const difficulty = rng.next();
    for (const variant of ['baseline', 'candidate'] as const) {
      const p = Math.min(0.97, Math.max(0.03, 1.1 - difficulty - (variant === 'baseline' ? 0.1 : 0)));
      for (const n of [1, N]) results.push(result(rng, { runId, id, category, variant, n, p }));
    }
  }
  const text = `${rows.join('\n')}\n`;
  writeFileSync(dataset, text);
  const config = parseConfigText(
    [
      'experiment: synthetic-report',
      'provider: { preset: sim }',
      'variants:',
      '  baseline: { id: parser-v1, model: sim-small, system_prompt: "Normalize dates." }',
      '  candidate: { id: parser-v2, model: sim-small, system_prompt: "Normalize dates to ISO 8601." }',
      `budget: { total_tokens_per_case: ${BUDGET}, per_case_max_tokens: 1024, best_of_n: [1, ${N}] }`,
      'datasets: { val: val.jsonl }',
      `gates: { bootstrap_rounds: ${options.rounds ?? 500} }`,
      'selector: majority',
    ].join('\n'),
    join(dir, 'experiment.yaml'),
  );
  const now = new Date('2026-06-01T00:00:00Z').toISOString();
  const manifest: Manifest = {
    schema_version: 1,
    run_id: runId,
    experiment: config.experiment,
    status: 'complete',
    created_at: now,
    updated_at: now,
    tool: { name: 'isobudget', version: 'synthetic' },
    node: process.version,
    config_path: join(dir, 'experiment.yaml'),
    config_hash: sha256(runId),
    config,
    split: 'val',
    datasets: { val: { path: dataset, sha256: sha256(text), cases: options.cases } },
    seed: 7,
    scorer: { name: 'normalized', version: '0.1.0' },
    selector: 'majority',
    n_mode: 'native',
    arms: [1, N].flatMap((n) => (['baseline', 'candidate'] as const).map((variant) => ({ arm: armName(variant, n), variant, n, nMode: n === 1 ? ('parallel' as const) : ('native' as const), binding: n > 1, minMaxTokensPerPath: n === 1 ? 1024 : 700, maxMaxTokensPerPath: n === 1 ? 1024 : 700 }))),
    units_planned: results.length,
    allow_overlap: false,
    overlap: [],
    warnings: [],
    events: [],
    resumed: 0,
  };
  writeFileSync(join(dir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  writeFileSync(join(dir, 'results.jsonl'), results.map((r) => `${JSON.stringify(r)}\n`).join(''));
  const verdict = decideVerdict(analyzeResults(results, contextFromManifest(manifest)), new Date(now));
  writeFileSync(join(dir, 'verdict.json'), `${JSON.stringify(verdict, null, 2)}\n`);
  return { dir, manifest, results, verdict, texts };
}

function result(rng: Rng, c: { runId: string; id: string; category: string; variant: 'baseline' | 'candidate'; n: number; p: number }): ResultRecord {
  const paths: PathOutcome[] = [];
  // Paths of one case often agree (a majority answer), sometimes not.
  const common = sentence(rng, 10 + rng.int(50));
  for (let k = 0; k < c.n; k++) {
    const passed = rng.next() < c.p;
    const long = rng.next() < 0.005;
    const output = long ? sentence(rng, 3000) : rng.next() < 0.6 ? common : sentence(rng, 10 + rng.int(70));
    paths.push({ path: k, output, passed, score: passed ? 1 : 0, finish_reason: long ? 'length' : 'stop', tokens: Math.round(output.length / 4), error: undefined });
  }
  const passes = paths.filter((p) => p.passed).length;
  const selected = paths.findIndex((p) => p.passed) >= 0 && rng.next() < 0.8 ? paths.findIndex((p) => p.passed) : 0;
  const completion = paths.reduce((acc, p) => acc + (p.tokens ?? 0), 0);
  const prompt = 300 + rng.int(80);
  return {
    schema_version: LEDGER_SCHEMA_VERSION,
    kind: 'result',
    run_id: c.runId,
    case_id: c.id,
    arm: armName(c.variant, c.n),
    variant: c.variant,
    n: c.n,
    epoch: 0,
    split: 'val',
    category: c.category,
    passed: paths[selected]?.passed ?? false,
    passed_any: passes > 0,
    passes,
    selected_path: selected,
    judge_score: undefined,
    paths,
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: Math.min(BUDGET, prompt + completion),
    calls_missing_usage: 0,
    calls: 1,
    retries: 0,
    budget: BUDGET,
    budget_exhausted: false,
    over_budget: false,
    latency_ms: 200 + rng.int(800),
    ts: '2026-06-01T00:00:00.000Z',
  };
}

function sentence(rng: Rng, words: number): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++) out.push(WORDS[rng.int(WORDS.length)] ?? 'x');
  return out.join(' ');
}
