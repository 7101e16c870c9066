/**
 * `rescore` (issue 25, item 5): the recorded outputs scored again — the same verdict with the
 * same scorer, another with another — as a new run whose ledger is the source's calls, with
 * no request reaching the provider (a sim-served endpoint counts them).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readJsonl } from '../src/ledger/jsonl-reader.js';
import type { CallRecord, ResultRecord } from '../src/ledger/records.js';
import { startSimServer, type SimServer } from '../src/providers/sim/index.js';
import { runCli } from './support/cli.js';

const EXAMPLE = join(import.meta.dirname, '..', 'examples', 'date-parser');

/** The date-parser example (v3 really is better), served over HTTP instead of in process. */
function servedExample(url: string): { dir: string; configPath: string; runsDir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'isobudget-rescore-'));
  const yaml = readFileSync(join(EXAMPLE, 'experiment.yaml'), 'utf8')
    .replace(/^provider: .*$/m, `provider: { protocol: openai-chat, base_url: '${url}/v1', api_key_env: RESCORE_KEY }`)
    .replace(/skill: skills\//g, `skill: ${EXAMPLE}/skills/`)
    .replace(/: data\//g, `: ${EXAMPLE}/data/`);
  const configPath = join(dir, 'experiment.yaml');
  writeFileSync(configPath, yaml);
  return { dir, configPath, runsDir: join(dir, 'runs') };
}

let server: SimServer;
let experiment: ReturnType<typeof servedExample>;
const env = { RESCORE_KEY: 'sk-test' };
const verdictOf = (dir: string) => JSON.parse(readFileSync(join(dir, 'verdict.json'), 'utf8')) as { verdict: string; arms: unknown };

beforeAll(async () => {
  server = await startSimServer({ seed: 9 });
  experiment = servedExample(server.url);
  const run = await runCli(['run', experiment.configPath, '--out', experiment.runsDir, '--run-id', 'source', '--quiet', '--yes'], { env });
  expect(run.code, run.stderr).toBe(0);
  expect(verdictOf(join(experiment.runsDir, 'source')).verdict).toBe('real_evolution');
}, 120_000);
afterAll(async () => {
  await server.close();
});

describe('isobudget rescore', () => {
  test('with the run\'s own scorer: the same verdict and pass counts, the calls copied, 0 requests', async () => {
    const requests = server.stats.requests;
    const rescored = await runCli(['rescore', 'source', '--out', experiment.runsDir, '--run-id', 'same'], { cwd: experiment.dir, env });
    expect(rescored.code, rescored.stderr).toBe(0);
    expect(rescored.stdout).toContain('0 new tokens');
    expect(server.stats.requests).toBe(requests);
    const source = join(experiment.runsDir, 'source');
    const same = join(experiment.runsDir, 'same');
    expect(verdictOf(same).verdict).toBe(verdictOf(source).verdict);
    expect(verdictOf(same).arms).toEqual(verdictOf(source).arms);
    const passes = (dir: string) => readJsonl<ResultRecord>(join(dir, 'results.jsonl')).records.map((r) => `${r.case_id}|${r.arm}|${r.passed}|${r.passes}`).sort();
    expect(passes(same)).toEqual(passes(source));
    const tokens = (dir: string) => readJsonl<CallRecord>(join(dir, 'calls.jsonl')).records.map((c) => c.total_tokens);
    expect(tokens(same)).toEqual(tokens(source));
    expect(readJsonl<CallRecord>(join(same, 'calls.jsonl')).records.every((c) => c.run_id === 'same')).toBe(true);
    const manifest = JSON.parse(readFileSync(join(same, 'manifest.json'), 'utf8')) as { rescored_from?: { run_id: string } };
    expect(manifest.rescored_from?.run_id).toBe('source');
  });

  test('with another scorer: another verdict from the same outputs, still 0 requests', async () => {
    const scorerFile = join(experiment.dir, 'never.yaml');
    // Nothing a date answer says matches: every path fails.
    writeFileSync(scorerFile, 'scorer: { type: regex, pattern: "^no answer matches this$" }\n');
    const requests = server.stats.requests;
    const rescored = await runCli(['rescore', 'source', '--scorer-file', scorerFile, '--out', experiment.runsDir, '--run-id', 'never'], { cwd: experiment.dir, env });
    expect(rescored.code, rescored.stderr).toBe(0);
    expect(server.stats.requests).toBe(requests);
    const results = readJsonl<ResultRecord>(join(experiment.runsDir, 'never', 'results.jsonl')).records;
    expect(results.every((r) => !r.passed && r.passes === 0)).toBe(true);
    expect(verdictOf(join(experiment.runsDir, 'never')).verdict).not.toBe(verdictOf(join(experiment.runsDir, 'source')).verdict);
  });

  test('--allow-calls: the judge runs again through the run\'s provider, each request a `judge` call in the new ledger, outside B by default', async () => {
    const scorerFile = join(experiment.dir, 'judge-again.yaml');
    writeFileSync(scorerFile, 'scorer: { type: judge, model: sim-small }\n');
    const requests = server.stats.requests;
    const rescored = await runCli(['rescore', 'source', '--scorer-file', scorerFile, '--allow-calls', '--out', experiment.runsDir, '--run-id', 'judged'], { cwd: experiment.dir, env });
    expect(rescored.stderr).not.toContain('internal error');
    expect([0, 10, 11]).toContain(rescored.code);
    const dir = join(experiment.runsDir, 'judged');
    const calls = readJsonl<CallRecord>(join(dir, 'calls.jsonl')).records;
    const judge = calls.filter((c) => c.role === 'judge');
    // Every request the endpoint saw is a judge call recorded in the new run, and nothing else was sent.
    expect(judge.length).toBeGreaterThan(0);
    expect(server.stats.requests - requests).toBe(judge.length);
    expect(calls.every((c) => c.run_id === 'judged')).toBe(true);
    expect(rescored.stdout).toContain(`${judge.length} new judge calls`);
    expect(JSON.stringify(calls)).not.toContain(env.RESCORE_KEY);
    // include_judge is off: B and each unit's total_tokens are the generation's, as in the source.
    const totals = (d: string) => readJsonl<ResultRecord>(join(d, 'results.jsonl')).records.map((r) => `${r.case_id}|${r.arm}|${r.total_tokens}`).sort();
    expect(totals(dir)).toEqual(totals(join(experiment.runsDir, 'source')));
    const results = readJsonl<ResultRecord>(join(dir, 'results.jsonl')).records;
    expect(results.some((r) => (r.judge_tokens ?? 0) > 0)).toBe(true);
    // The ledgers add up and their hashes are recorded: the verdict is a real one, not invalid.
    const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as { ledger_sha256?: unknown; calls?: { committed: number } };
    expect(manifest.ledger_sha256).toBeDefined();
    expect(manifest.calls?.committed).toBe(calls.length);
    expect(verdictOf(dir).verdict).not.toBe('invalid');
  });

  test('--allow-calls with a verifier selector whose scorer is a judge: only Best-of-N arms call it', async () => {
    const scorerFile = join(experiment.dir, 'verifier-judge.yaml');
    writeFileSync(scorerFile, 'scorer: { type: normalized }\nselector: { type: verifier, scorer: { type: judge, model: sim-small } }\n');
    const requests = server.stats.requests;
    const rescored = await runCli(['rescore', 'source', '--scorer-file', scorerFile, '--allow-calls', '--out', experiment.runsDir, '--run-id', 'verified'], { cwd: experiment.dir, env });
    expect(rescored.stderr).not.toContain('internal error');
    const calls = readJsonl<CallRecord>(join(experiment.runsDir, 'verified', 'calls.jsonl')).records.filter((c) => c.role === 'judge');
    expect(calls.length).toBeGreaterThan(0);
    expect(server.stats.requests - requests).toBe(calls.length);
    // n=1 keeps its only path without asking the verifier.
    expect(new Set(calls.map((c) => c.arm))).toEqual(new Set(['baseline_best_of_8', 'candidate_best_of_8']));
    expect(verdictOf(join(experiment.runsDir, 'verified')).verdict).not.toBe('invalid');
  });

  test('--allow-calls with budget.include_judge: judge tokens count toward B and the unit totals', async () => {
    const yaml = readFileSync(experiment.configPath, 'utf8').replace('best_of_n: [1, 8] }', 'best_of_n: [1, 8], include_judge: true }');
    const configPath = join(experiment.dir, 'include-judge.yaml');
    writeFileSync(configPath, yaml);
    const run = await runCli(['run', configPath, '--limit', '3', '--out', experiment.runsDir, '--run-id', 'ij-source', '--quiet', '--yes'], { env });
    expect(run.code, run.stderr).not.toBe(2);
    const scorerFile = join(experiment.dir, 'judge-ij.yaml');
    writeFileSync(scorerFile, 'scorer: { type: judge, model: sim-small }\n');
    const rescored = await runCli(['rescore', 'ij-source', '--scorer-file', scorerFile, '--allow-calls', '--out', experiment.runsDir, '--run-id', 'ij-judged'], { cwd: experiment.dir, env });
    expect(rescored.stderr).not.toContain('internal error');
    const dir = join(experiment.runsDir, 'ij-judged');
    const calls = readJsonl<CallRecord>(join(dir, 'calls.jsonl')).records;
    const source = new Map(readJsonl<ResultRecord>(join(experiment.runsDir, 'ij-source', 'results.jsonl')).records.map((r) => [`${r.split}|${r.case_id}|${r.arm}`, r]));
    for (const result of readJsonl<ResultRecord>(join(dir, 'results.jsonl')).records) {
      const judged = calls.filter((c) => c.role === 'judge' && c.case_id === result.case_id && c.arm === result.arm && c.split === result.split && c.error === undefined).reduce((sum, c) => sum + (c.total_tokens ?? 0), 0);
      const before = source.get(`${result.split}|${result.case_id}|${result.arm}`);
      expect(result.total_tokens).toBe((before?.total_tokens ?? 0) + judged);
      expect(result.total_tokens ?? 0).toBeLessThanOrEqual(result.budget);
    }
    // At n=8 generation has spent most of B: the judges that would cross it are refused, as in a run.
    const paths = readJsonl<ResultRecord>(join(dir, 'results.jsonl')).records.flatMap((r) => r.paths);
    expect(paths.some((p) => p.error?.includes('budget exhausted (budget.include_judge is on)'))).toBe(true);
    const verdict = JSON.parse(readFileSync(join(dir, 'verdict.json'), 'utf8')) as { reason: string; checks: { name: string; passed: boolean }[] };
    expect(verdict.checks.find((c) => c.name === 'budget_respected')?.passed).toBe(true);
    // The ledgers still add up (an integrity failure would name them).
    expect(verdict.reason).not.toMatch(/ledger|calls\.jsonl/);
  });

  test('--allow-calls against an endpoint that stopped answering fails fast; the run stays, interrupted', async () => {
    const gone = await startSimServer({ seed: 3 });
    const served = servedExample(gone.url);
    const run = await runCli(['run', served.configPath, '--limit', '2', '--out', served.runsDir, '--run-id', 'src', '--quiet', '--yes'], { env });
    expect(run.stderr).not.toContain('internal error');
    await gone.close();
    const scorerFile = join(served.dir, 'judge.yaml');
    writeFileSync(scorerFile, 'scorer: { type: judge, model: sim-small }\n');
    const rescored = await runCli(['rescore', 'src', '--scorer-file', scorerFile, '--allow-calls', '--out', served.runsDir, '--run-id', 'stopped'], { cwd: served.dir, env });
    expect(rescored.code).toBe(2);
    expect(rescored.stderr).toContain('the first 10 calls all failed alike (connection error');
    expect(rescored.stderr).not.toContain('    at ');
    const dir = join(served.runsDir, 'stopped');
    const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as { status: string; events: { message: string }[] };
    expect(manifest.status).toBe('interrupted');
    expect(manifest.events.at(-1)?.message).toContain('rescore with --allow-calls stopped');
    // Stopped, not retried over every path: only the attempts in flight when it tripped are booked.
    const judged = ['calls.jsonl', 'interrupted-calls.jsonl'].flatMap((file) => readJsonl<CallRecord>(join(dir, file)).records).filter((c) => c.role === 'judge');
    expect(judged.length).toBeGreaterThanOrEqual(10);
    expect(judged.length).toBeLessThan(60);
  });

  test('a judge scorer is refused: it would call a model', async () => {
    const scorerFile = join(experiment.dir, 'judge.yaml');
    writeFileSync(scorerFile, 'scorer: { type: judge, model: sim-small }\n');
    const rescored = await runCli(['rescore', 'source', '--scorer-file', scorerFile, '--out', experiment.runsDir], { cwd: experiment.dir, env });
    expect(rescored.code).toBe(2);
    expect(rescored.stderr).toContain('the scorer is a judge');
    expect(rescored.stderr).toContain('--allow-calls');
  });
});
