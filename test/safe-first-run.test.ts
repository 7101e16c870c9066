/**
 * A safe first paid run (issue 25, items 2–3): `--dry-run` sizes a run without starting it,
 * every start prints the size, a paid run above the threshold needs `--yes` without a TTY,
 * `--limit 5` against a sim-served endpoint (real HTTP on 127.0.0.1) runs 5 cases and says
 * "5 of 12", and a run-level cap stops a run mid-way; `--resume` with a higher cap completes
 * it with the results of an uncapped run.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readJsonl } from '../src/ledger/jsonl-reader.js';
import type { ResultRecord } from '../src/ledger/records.js';
import { startSimServer, type SimServer } from '../src/providers/sim/index.js';
import { runCli } from './support/cli.js';
import { writeExperiment } from './support/experiment.js';

function comparable(results: ResultRecord[]): string[] {
  return results
    .map((r) => JSON.stringify([r.split, r.case_id, r.arm, r.epoch, r.passed, r.passes, r.total_tokens, r.paths.map((p) => [p.output, p.passed, p.finish_reason])]))
    .sort();
}

let server: SimServer;
beforeAll(async () => {
  server = await startSimServer({ seed: 5 });
});
afterAll(async () => {
  await server.close();
});

const served = (): string => `{ protocol: openai-chat, base_url: '${server.url}/v1', api_key_env: SIM_SERVED_KEY }`;

describe('sizing a run before it spends', () => {
  test('--dry-run prints units, calls at most and the worst case, and starts nothing', async () => {
    const experiment = writeExperiment({ provider: '{ preset: sim }', cases: 12 });
    const dry = await runCli(['run', experiment.configPath, '--out', experiment.runsDir, '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    // 12 cases × 4 arms (n ∈ {1, 4}) = 48 units; chat calls at most 12 × (1 + 1 + 4 + 4) … native n: one call a unit.
    expect(dry.stdout).toContain('48 units');
    expect(dry.stdout).toContain('worst case 96,000 tokens');
    expect(dry.stdout).toContain('dry run: nothing started');
    expect(existsSync(experiment.runsDir)).toBe(false);
  });

  test('after a run of the same experiment, the dry run says what to expect', async () => {
    const experiment = writeExperiment({ provider: '{ preset: sim }', cases: 6 });
    const first = await runCli(['run', experiment.configPath, '--out', experiment.runsDir, '--run-id', 'first', '--quiet', '--sim-latency-scale', '0']);
    expect(first.code, first.stderr).toBe(0);
    const dry = await runCli(['run', experiment.configPath, '--out', experiment.runsDir, '--dry-run']);
    expect(dry.stdout).toMatch(/expected ≈ \d[\d.]*k? \(from run first\)/);
  });

  test('a paid run whose worst case is above the threshold needs --yes without a TTY, and says why', async () => {
    // 12 cases × 6 arms × B 200,000 = 14.4M tokens, no price for sim-small: above 10M tokens.
    const experiment = writeExperiment({ provider: served(), cases: 12, budget: '{ total_tokens_per_case: 200000, per_case_max_tokens: 64, best_of_n: [1, 4, 8] }' });
    const before = server.stats.requests;
    const refused = await runCli(['run', experiment.configPath, '--out', experiment.runsDir], { env: { SIM_SERVED_KEY: 'sk-test' } });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('worst case 14,400,000 tokens');
    expect(refused.stderr).toContain('pass --yes');
    expect(server.stats.requests).toBe(before);
    expect(existsSync(experiment.runsDir)).toBe(false);
  });
});

describe('a partial run', () => {
  test('--limit 5 against a sim-served endpoint runs the first 5 cases and the verdict says "5 of 12"', async () => {
    const experiment = writeExperiment({ provider: served(), cases: 12 });
    const before = server.stats.requests;
    const run = await runCli(['run', experiment.configPath, '--out', experiment.runsDir, '--run-id', 'five', '--limit', '5'], { env: { SIM_SERVED_KEY: 'sk-test' } });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('run size (5 of 12 cases: --limit 5): 20 units');
    expect(run.stdout).toContain('partial: 5 of 12 cases, --limit 5');
    const results = readJsonl<ResultRecord>(join(experiment.runsDir, 'five', 'results.jsonl')).records;
    expect(new Set(results.map((r) => r.case_id))).toEqual(new Set(['c1', 'c2', 'c3', 'c4', 'c5']));
    expect(results).toHaveLength(20);
    expect(server.stats.requests).toBeGreaterThan(before);
    const verdict = JSON.parse(readFileSync(join(experiment.runsDir, 'five', 'verdict.json'), 'utf8')) as { partial?: unknown };
    expect(verdict.partial).toEqual({ selection: '--limit 5', cases: 5, of: 12 });
  });

  test('--cases and --sample pick ids and a stratified subset; a wrong id gets a did-you-mean', async () => {
    const experiment = writeExperiment({ provider: '{ preset: sim }', cases: 12 });
    const wrong = await runCli(['run', experiment.configPath, '--out', experiment.runsDir, '--cases', 'c1,c99x', '--dry-run']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain("no case 'c99x'");
    const sample = await runCli(['run', experiment.configPath, '--out', experiment.runsDir, '--run-id', 'sample', '--sample', '4', '--seed', '3', '--quiet', '--sim-latency-scale', '0']);
    expect(sample.code, sample.stderr).toBe(0);
    const results = readJsonl<ResultRecord>(join(experiment.runsDir, 'sample', 'results.jsonl')).records;
    const ids = [...new Set(results.map((r) => r.case_id))];
    expect(ids).toHaveLength(4);
    // Stratified: two odd and two even cases (the cases alternate categories).
    expect(ids.filter((id) => Number(id.slice(1)) % 2 === 0)).toHaveLength(2);
  });

  test('--models overrides a variant\'s model; a misspelt variant gets a did-you-mean', async () => {
    const experiment = writeExperiment({ provider: '{ preset: sim }', cases: 4 });
    const wrong = await runCli(['run', experiment.configPath, '--out', experiment.runsDir, '--models', 'candidat=sim-large', '--dry-run']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain("did you mean 'candidate'?");
    const run = await runCli(['run', experiment.configPath, '--out', experiment.runsDir, '--run-id', 'models', '--models', 'candidate=sim-large', '--quiet', '--sim-latency-scale', '0']);
    expect(run.code, run.stderr).toBe(0);
    const calls = readJsonl<{ arm: string; model: string }>(join(experiment.runsDir, 'models', 'calls.jsonl')).records;
    expect(new Set(calls.filter((c) => c.arm.startsWith('candidate')).map((c) => c.model))).toEqual(new Set(['sim-large']));
    expect(new Set(calls.filter((c) => c.arm.startsWith('baseline')).map((c) => c.model))).toEqual(new Set(['sim-small']));
  });
});

describe('a run-level cap', () => {
  test('stops a run mid-way as interrupted; --resume with a higher cap equals an uncapped run', async () => {
    const experiment = writeExperiment({ provider: '{ preset: sim }', cases: 10 });
    const reference = await runCli(['run', experiment.configPath, '--out', experiment.runsDir, '--run-id', 'reference', '--quiet', '--sim-latency-scale', '0']);
    expect(reference.code, reference.stderr).toBe(0);
    // 40 units reserving B = 2,000 each, two in flight (concurrency 1 keeps two units in flight):
    // the run goes on while spent + 4,000 fits under 5,000, i.e. for the first ~1,000 tokens.
    const capped = await runCli(['run', experiment.configPath, '--out', experiment.runsDir, '--run-id', 'capped', '--max-total-tokens', '5000', '--concurrency', '1', '--sim-latency-scale', '0']);
    expect(capped.code, capped.stderr).toBe(130);
    expect(capped.stderr).toContain('run stopped: run-level cap: max_total_tokens 5,000');
    const runDir = join(experiment.runsDir, 'capped');
    const manifest = JSON.parse(readFileSync(join(runDir, 'manifest.json'), 'utf8')) as { status: string; events: Array<{ message: string }> };
    expect(manifest.status).toBe('interrupted');
    expect(manifest.events.some((e) => e.message.startsWith('stopped starting units: run-level cap'))).toBe(true);
    const partial = readJsonl<ResultRecord>(join(runDir, 'results.jsonl')).records;
    expect(partial.length).toBeGreaterThan(2);
    expect(partial.length).toBeLessThan(40);
    const spent = readJsonl<{ total_tokens: number }>(join(runDir, 'calls.jsonl')).records.reduce((sum, c) => sum + c.total_tokens, 0);
    expect(spent).toBeLessThanOrEqual(5_000);

    const resumed = await runCli(['run', '--resume', runDir, '--max-total-tokens', '10000000', '--quiet']);
    expect(resumed.code, resumed.stderr).toBe(0);
    const all = readJsonl<ResultRecord>(join(runDir, 'results.jsonl')).records;
    const uncapped = readJsonl<ResultRecord>(join(experiment.runsDir, 'reference', 'results.jsonl')).records;
    expect(comparable(all)).toEqual(comparable(uncapped));
  });
});
