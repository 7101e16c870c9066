/**
 * Arms made of errors (issue 11, item 3) and reading agent output (item 4), end to end with
 * real processes and real HTTP on 127.0.0.1:
 * - every candidate call answered HTTP 500 (a small upstream in front of `sim serve` fails
 *   the candidate's model): the verdict is `invalid` with the counts per arm and the first
 *   error, and the terminal table shows the error column — not a quiet `no_gain`; the same
 *   with the simulator's own fault injection failing every call;
 * - the README's Claude Code example with `field: result` (which reads `expected`, a string):
 *   every path a scorer error → `invalid`; with `output_field: result` the same agent output
 *   scores; and `codex exec --json` output scores with `item[type=agent_message].text`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startSimServer, type SimServer } from '../src/providers/sim/index.js';
import type { VerdictRecord } from '../src/verdict/record.js';
import { runCli } from './support/cli.js';
import { writeExperiment } from './support/experiment.js';

const AGENT = fileURLToPath(new URL('./gateway-fake-agent.mjs', import.meta.url));
const BROKEN_MODEL = 'sim-broken';

let sim: SimServer;
let upstream: Server;
let upstreamUrl = '';
beforeAll(async () => {
  sim = await startSimServer({ seed: 3 });
  // Fails every call for BROKEN_MODEL with a 500, forwards the rest to the simulator.
  upstream = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks);
      const model = (JSON.parse(body.toString('utf8') || '{}') as { model?: string }).model;
      if (model === BROKEN_MODEL) {
        response.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'upstream overloaded', type: 'server_error' } }));
        return;
      }
      void fetch(`${sim.url}${request.url ?? ''}`, { method: request.method ?? 'POST', headers: { 'content-type': 'application/json' }, body }).then(async (answer) => {
        response.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' }).end(Buffer.from(await answer.arrayBuffer()));
      }, (error: unknown) => response.writeHead(502).end(String(error)));
    });
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => upstream.close(() => resolve()));
  await sim.close();
});

/** Replaces a top-level line of the experiment YAML that starts with `key:`. */
function setYaml(configPath: string, key: string, line: string): void {
  const text = readFileSync(configPath, 'utf8').split('\n').map((l) => (l.startsWith(`${key}:`) ? line : l));
  writeFileSync(configPath, text.join('\n'));
}

async function runGate(configPath: string, runsDir: string): Promise<{ code: number | null; stdout: string; verdict: VerdictRecord }> {
  const run = await runCli(['run', configPath, '--out', runsDir, '--gate', '--no-report']);
  const ledger = /ledger: (.+)\n/.exec(run.stdout)?.[1];
  expect(ledger, run.stderr).toBeDefined();
  return { code: run.code, stdout: run.stdout, verdict: JSON.parse(readFileSync(`${ledger}/verdict.json`, 'utf8')) as VerdictRecord };
}

test('every candidate call HTTP 500: invalid (exit 12), counts per arm, the first error, an error column', async () => {
  const experiment = writeExperiment({
    provider: `{ protocol: openai-chat, base_url: "${upstreamUrl}/v1" }`,
    budget: '{ total_tokens_per_case: 2000, per_case_max_tokens: 256, best_of_n: [1] }',
    cases: 8,
  });
  const yaml = readFileSync(experiment.configPath, 'utf8').replace('candidate: { id: arith-v2, model: sim-small', `candidate: { id: arith-v2, model: ${BROKEN_MODEL}`);
  writeFileSync(experiment.configPath, yaml);
  setYaml(experiment.configPath, 'retries', 'retries: { max_attempts: 2, initial_delay_ms: 1, max_delay_ms: 5 }');
  const { code, stdout, verdict } = await runGate(experiment.configPath, experiment.runsDir);
  expect(code, stdout).toBe(12);
  expect(verdict.verdict).toBe('invalid');
  const candidate = verdict.invariants.arm_errors.find((e) => e.arm === 'candidate_single');
  const baseline = verdict.invariants.arm_errors.find((e) => e.arm === 'baseline_single');
  expect(candidate).toMatchObject({ paths: 8, errors: 8, provider_errors: 8, scorer_errors: 0, timeouts: 0, error_rate: 1 });
  expect(candidate?.first_error).toMatch(/500/);
  expect(baseline).toMatchObject({ paths: 8, errors: 0 });
  expect(verdict.reason).toContain('error_rate: candidate_single above the error rate');
  expect(verdict.reason).toContain('candidate_single 8 of 8 paths (100%: 8 provider, 0 scorer, 0 timeout)');
  // The terminal table: an `errors` column, 8/8 for the candidate.
  const header = stdout.split('\n').find((l) => l.startsWith('arm '));
  expect(header).toMatch(/errors$/);
  expect(stdout).toMatch(/candidate_single .* 8\/8\n/);
  expect(stdout).toMatch(/baseline_single .* 0\/8\n/);
});

test('the simulator failing every call (fault injection, HTTP 500): both arms are errors, invalid', async () => {
  const faulty = await startSimServer({ seed: 3, faults: { seed: 1, rates: { http500: 1 } } });
  try {
    const experiment = writeExperiment({
      provider: `{ protocol: openai-chat, base_url: "${faulty.url}/v1" }`,
      budget: '{ total_tokens_per_case: 2000, per_case_max_tokens: 256, best_of_n: [1] }',
      cases: 4,
    });
    setYaml(experiment.configPath, 'retries', 'retries: { max_attempts: 2, initial_delay_ms: 1, max_delay_ms: 5 }');
    const { code, verdict } = await runGate(experiment.configPath, experiment.runsDir);
    expect(code).toBe(12);
    for (const arm of verdict.invariants.arm_errors) expect(arm).toMatchObject({ paths: 4, errors: 4, provider_errors: 4, error_rate: 1 });
    expect(faulty.stats.faults.http500).toBe(16); // 2 arms × 4 cases × 2 attempts
  } finally {
    await faulty.close();
  }
});

describe('command executor: what `claude -p --output-format json` and `codex exec --json` print', () => {
  const commandExperiment = (print: string, sdk: string, scorer: string) => {
    const experiment = writeExperiment({
      provider: '{ preset: sim }',
      budget: '{ total_tokens_per_case: 1500, per_case_max_tokens: 256, best_of_n: [1] }',
      extra: `executor: { type: command, argv: ["${process.execPath}", "${AGENT}", "{{input}}", --sdk, ${sdk}, --print, ${print}], timeout_ms: 60000 }`,
      cases: 3,
    });
    setYaml(experiment.configPath, 'scorer', `scorer: ${scorer}`);
    return experiment;
  };

  test('the README example as it was (`field: result`): every path a scorer error → invalid, exit 12', async () => {
    const experiment = commandExperiment('claude-json', 'anthropic', '{ type: normalized, field: result }');
    const { code, verdict } = await runGate(experiment.configPath, experiment.runsDir);
    expect(code).toBe(12);
    expect(verdict.verdict).toBe('invalid');
    for (const arm of verdict.invariants.arm_errors) expect(arm).toMatchObject({ paths: 3, errors: 3, scorer_errors: 3 });
    expect(verdict.reason).toContain("first error (baseline_single): \"scorer field 'result' is set but expected is a string, not an object\"");
  });

  test('`output_field: result` scores the answer inside the JSON envelope', async () => {
    const experiment = commandExperiment('claude-json', 'anthropic', '{ type: numeric, output_field: result }');
    const { verdict } = await runGate(experiment.configPath, experiment.runsDir);
    expect(verdict.verdict).not.toBe('invalid');
    for (const arm of verdict.invariants.arm_errors) expect(arm).toMatchObject({ paths: 3, errors: 0 });
    expect(verdict.arms.every((a) => (a.passAt1 ?? 0) > 0)).toBe(true);
  });

  test('codex exec --json output: `output_field: item[type=agent_message].text`', async () => {
    const experiment = commandExperiment('codex-jsonl', 'openai-responses', "{ type: numeric, output_field: 'item[type=agent_message].text' }");
    const { verdict } = await runGate(experiment.configPath, experiment.runsDir);
    expect(verdict.verdict).not.toBe('invalid');
    for (const arm of verdict.invariants.arm_errors) expect(arm).toMatchObject({ paths: 3, errors: 0 });
    expect(verdict.arms.every((a) => (a.passAt1 ?? 0) > 0)).toBe(true);
  });
});
