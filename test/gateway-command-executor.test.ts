/**
 * The `command` executor end to end, offline: a fake CLI agent (official SDKs) runs per
 * path behind the run's gateway against `sim serve`; the four arms run budget-fair.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadConfig } from '../src/config/index.js';
import { readJsonl } from '../src/ledger/jsonl-reader.js';
import type { CallRecord, ResultRecord } from '../src/ledger/records.js';
import { runPaths } from '../src/ledger/run-dir.js';
import { startSimServer, type SimServer } from '../src/providers/sim/index.js';
import { runExperiment } from '../src/runner/run-experiment.js';
import { runCli } from './support/cli.js';
import { readTree, writeExperiment } from './support/experiment.js';

const AGENT = fileURLToPath(new URL('./gateway-fake-agent.mjs', import.meta.url));
const B = 1500;
let sim: SimServer;
beforeAll(async () => {
  sim = await startSimServer({ seed: 7 });
});
afterAll(async () => {
  await sim.close();
});

function executorYaml(sdk: string, extra = ''): string {
  return `executor: { type: command, argv: ["${process.execPath}", "${AGENT}", "{{input}}", --sdk, ${sdk}, --stream], timeout_ms: 60000${extra} }`;
}

describe.each([
  { sdk: 'anthropic', provider: () => `{ protocol: anthropic-messages, base_url: "${sim.url}" }` },
  { sdk: 'openai-responses', provider: () => `{ protocol: openai-responses, base_url: "${sim.url}/v1" }` },
])('four arms through the gateway ($sdk)', ({ sdk, provider }) => {
  test('every agent call is in the run ledger, and no (case, arm) spends more than B', async () => {
    const experiment = writeExperiment({
      provider: provider(),
      budget: `{ total_tokens_per_case: ${B}, per_case_max_tokens: 256, best_of_n: [1, 4] }`,
      extra: executorYaml(sdk),
      cases: 4,
      skills: { baseline: 'Answer arithmetic questions.', candidate: 'Answer arithmetic questions. Explain thoroughly, step by step.' },
    });
    const run = await runExperiment({ configPath: experiment.configPath, outDir: experiment.runsDir, env: {} });
    const paths = runPaths(run.runDir);
    const calls = readJsonl<CallRecord & { key_id: string; tags: Record<string, string> }>(paths.calls).records;
    const results = readJsonl<ResultRecord>(paths.results).records;
    expect(results).toHaveLength(4 * 4);
    expect(calls.length).toBeGreaterThan(0);
    for (const call of calls) {
      expect(call.role).toBe('gateway');
      expect(call.run_id).toBe(run.runId);
      expect(call.tags['path']).toBe(String(call.path));
    }
    const spend = new Map<string, number>();
    for (const call of calls) {
      const key = `${call.case_id}|${call.arm}`;
      spend.set(key, (spend.get(key) ?? 0) + (call.total_tokens ?? 0));
    }
    for (const [key, tokens] of spend) expect(tokens, key).toBeLessThanOrEqual(B);
    for (const result of results) {
      expect(result.over_budget).toBe(false);
      expect(result.paths).toHaveLength(result.n);
    }
    // Per path B/n: at n=4 the paths ran into their share.
    const n4 = calls.filter((c) => c.n === 4);
    expect(n4.every((c) => c.max_tokens <= Math.floor(B / 4))).toBe(true);
    expect(results.filter((r) => r.n === 1).some((r) => r.passed)).toBe(true);
  });
});

/** A zombie still answers kill(pid, 0) until reaped; it is gone for our purposes. */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

async function waitUntilGone(pids: number[], withinMs: number): Promise<boolean> {
  for (const deadline = Date.now() + withinMs; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 20))) {
    if (pids.every((pid) => !isAlive(pid))) return true;
  }
  return false;
}

/** A one-arm-pair run (n=1 only) of `argv`, returning each path's output and error. */
async function runOnce(argv: string[], extra = '', provider = `{ protocol: anthropic-messages, base_url: "${sim.url}" }`, env: NodeJS.ProcessEnv = {}) {
  const experiment = writeExperiment({ provider, budget: '{ total_tokens_per_case: 3000, per_case_max_tokens: 256, best_of_n: [1] }', extra: `executor: { type: command, argv: ${JSON.stringify(argv)}${extra} }`, cases: 1 });
  const run = await runExperiment({ configPath: experiment.configPath, outDir: experiment.runsDir, env });
  const results = readJsonl<ResultRecord>(runPaths(run.runDir).results).records;
  return { experiment, run, results, paths: results.flatMap((r) => r.paths) };
}

describe('the command executor', () => {
  test('output from a file; a fresh copy of the fixture folder per path; placeholders', async () => {
    const fixture = mkdtempSync(join(tmpdir(), 'isobudget-fixture-'));
    mkdirSync(join(fixture, 'src'));
    writeFileSync(join(fixture, 'src', 'app.txt'), 'original');
    const script = `const fs = require('fs'); fs.appendFileSync('src/app.txt', '+edited'); fs.writeFileSync('answer.txt', [process.cwd() === process.argv[1], fs.readFileSync('src/app.txt', 'utf8'), process.argv[2], process.argv[3], fs.readFileSync(process.argv[4], 'utf8')].join('|'));`;
    const { paths } = await runOnce([process.execPath, '-e', script, '{{workdir}}', '{{case_id}}/{{arm}}/{{path}}/{{n}}/{{budget}}', '{{model}}', '{{input_file}}'], `, fixture_dir: "${fixture}", output: "file:answer.txt"`);
    expect(paths.map((p) => p.output).sort()).toEqual([
      'true|original+edited|c1/baseline_single/0/1/3000|sim-small|What is 1 + 2?',
      'true|original+edited|c1/candidate_single/0/1/3000|sim-small|What is 1 + 2?',
    ]);
    // Each path edited its own copy: the fixture itself is untouched.
    expect(readFileSync(join(fixture, 'src', 'app.txt'), 'utf8')).toBe('original');
  });

  test('the agent gets the gateway and its virtual key, never the upstream key; both come from the run\'s env, not process.env', async () => {
    // Only the env handed to runExperiment has these: a library caller's env must be the one read.
    const env = { ...process.env, ISOBUDGET_TEST_UPSTREAM: 'sk-upstream-never-for-agents-0123456789', ISOBUDGET_TEST_INHERITED: 'from-the-run-env' };
    expect(process.env['ISOBUDGET_TEST_UPSTREAM']).toBeUndefined();
    const script = "const e = process.env; console.log(JSON.stringify({ keys: Object.keys(e).sort(), base: e.ANTHROPIC_BASE_URL, openai: e.OPENAI_BASE_URL, token: e.ANTHROPIC_AUTH_TOKEN.replace(/^(ibk-[0-9a-f]{12})-.*$/, '$1-…'), same: e.OPENAI_API_KEY === e.ANTHROPIC_AUTH_TOKEN, extra: e.EXTRA, inherited: e.ISOBUDGET_TEST_INHERITED }))";
    const { paths, experiment } = await runOnce([process.execPath, '-e', script], ', env: { EXTRA: "yes" }, inherit_env: [ISOBUDGET_TEST_INHERITED]', `{ protocol: openai-chat, base_url: "${sim.url}/v1", api_key_env: ISOBUDGET_TEST_UPSTREAM }`, env);
    const seen = JSON.parse(paths[0]?.output ?? '{}') as { keys: string[]; base: string; openai: string; token: string; same: boolean; extra: string; inherited: string };
    expect(seen.base).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(seen.openai).toBe(`${seen.base}/v1`);
    expect(seen.token).toMatch(/^ibk-[0-9a-f]{12}-…$/);
    expect(seen.same).toBe(true);
    expect(seen.extra).toBe('yes');
    expect(seen.inherited).toBe('from-the-run-env');
    expect(seen.keys).not.toContain('ISOBUDGET_TEST_UPSTREAM');
    expect(seen.keys).not.toContain('ANTHROPIC_API_KEY');
    for (const { file, text } of readTree(experiment.runsDir)) {
      expect(text.includes('sk-upstream-never-for-agents'), file).toBe(false);
      // Key ids are public; the virtual key secrets the agents held are not recorded.
      expect(/ibk-[0-9a-f]{12}-[A-Za-z0-9_-]{20,}/.test(text), file).toBe(false);
    }
  });

  test('a timeout kills the whole process tree and fails the path', async () => {
    const pidFile = join(mkdtempSync(join(tmpdir(), 'isobudget-pids-')), 'pids');
    const started = Date.now();
    const { paths } = await runOnce(['sh', '-c', `sleep 60 & echo $! >> ${pidFile}; wait`], ', timeout_ms: 500');
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(paths.map((p) => [p.finish_reason, p.error])).toEqual([['error', 'agent timed out after 500 ms'], ['error', 'agent timed out after 500 ms']]);
    const pids = readFileSync(pidFile, 'utf8').trim().split('\n').map(Number);
    expect(await waitUntilGone(pids, 2_000)).toBe(true);
  });

  test('a missing program and a failing agent are path errors', async () => {
    const missing = await runOnce(['isobudget-no-such-agent-xyz', '{{input}}']);
    expect(missing.paths[0]).toMatchObject({ finish_reason: 'error', error: 'command not found: isobudget-no-such-agent-xyz' });
    const failing = await runOnce([process.execPath, '-e', 'console.error("boom"); process.exit(4)']);
    expect(failing.paths[0]).toMatchObject({ finish_reason: 'error', error: 'agent exited with 4: boom' });
  });

  test('with the in-process simulator (preset: sim) the gateway needs no server at all, through the CLI', async () => {
    const experiment = writeExperiment({ provider: '{ preset: sim }', budget: '{ total_tokens_per_case: 2000, per_case_max_tokens: 256, best_of_n: [1, 2] }', extra: executorYaml('openai-chat'), cases: 2 });
    const result = await runCli(['run', experiment.configPath, '--out', experiment.runsDir, '--json']);
    expect(result.code === 0 || result.code === 10, result.stderr).toBe(true);
    const runDir = readTree(experiment.runsDir).find((f) => f.file.endsWith('calls.jsonl'))?.file.replace(/\/calls\.jsonl$/, '') ?? '';
    const calls = readJsonl<CallRecord>(runPaths(runDir).calls).records;
    expect(calls.length).toBe(2 * (1 + 1 + 2 + 2) * 2); // cases × paths × two calls per agent
    expect(calls.every((c) => c.role === 'gateway' && c.protocol === 'openai-chat' && !c.usage_missing)).toBe(true);
  });
});

describe('command executor config', () => {
  test.each([
    { yaml: 'executor: { type: command, argv: [agent, "{{inputs}}"] }', message: 'unknown placeholder {{inputs}}' },
    { yaml: 'executor: { type: command, argv: [agent], env: { GITHUB_TOKEN: abc } }', message: 'would put a credential in the config' },
    { yaml: 'executor: { type: command, argv: [agent], inherit_env: [TAOTOKEN_API_KEY] }', message: 'hands the agent TAOTOKEN_API_KEY' },
    { yaml: 'executor: { type: command, argv: [agent], fixture_dir: no-such-dir }', message: 'fixture folder not found' },
    { yaml: 'executor: { type: command, argv: [agent], output: answer.txt }', message: 'must be `stdout` or `file:PATH`' },
  ])('$message', async ({ yaml, message }) => {
    const experiment = writeExperiment({ provider: '{ preset: taotoken }', extra: yaml });
    await expect(loadConfig(experiment.configPath)).rejects.toThrow(message);
  });

  test('defaults', async () => {
    const experiment = writeExperiment({ provider: '{ preset: sim }', extra: 'executor: { type: command, argv: [claude, -p, "{{input}}", --output-format, json] }' });
    expect((await loadConfig(experiment.configPath)).executor).toEqual({
      type: 'command', argv: ['claude', '-p', '{{input}}', '--output-format', 'json'], fixtureDir: undefined, timeoutMs: 600000, output: { kind: 'stdout' },
      env: {}, inheritEnv: [], keepWorkdirs: false, gateway: { upstream: undefined, apiKeyEnv: undefined, upstreamAuth: 'auto' },
    });
  });
});
