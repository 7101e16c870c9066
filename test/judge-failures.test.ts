/**
 * An unparseable judge reply and a judge that times out each produce a recorded failure and
 * a finished run. The upstream is a tiny OpenAI-compatible server on 127.0.0.1 whose answer
 * depends on the model asked: a generator, a judge that rambles, a judge that never answers.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { readJsonl } from '../src/ledger/jsonl-reader.js';
import type { CallRecord, ResultRecord } from '../src/ledger/records.js';
import { runPaths } from '../src/ledger/run-dir.js';
import { runExperiment } from '../src/runner/run-experiment.js';
import { verdictForRun } from '../src/verdict/verdict-for-run.js';
import { writeExperiment } from './support/experiment.js';

let server: Server;
let url = '';
beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const { model } = JSON.parse(body) as { model: string };
      if (model === 'judge-slow') return; // never answers: the client's timeout must end it
      const text = model === 'judge-rambling' ? 'What a lovely answer, I enjoyed reading it.' : 'The answer is 42.';
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ id: 'x', object: 'chat.completion', created: 0, model, choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }], usage: { prompt_tokens: 20, completion_tokens: 8, total_tokens: 28 } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

test.each([
  { judge: 'judge-rambling', error: 'judge reply has no correctness score' },
  { judge: 'judge-slow', error: 'judge call failed' },
])('$judge: a recorded failure and a finished run', async ({ judge, error }) => {
  const experiment = writeExperiment({
    provider: `{ protocol: openai-chat, base_url: "${url}", timeout_ms: 300 }`,
    budget: '{ total_tokens_per_case: 2000, per_case_max_tokens: 256, best_of_n: [1] }',
    extra: `models: { judge: ${judge} }\nscorer: { type: judge }`,
    cases: 4,
  });
  // writeExperiment sets `scorer: numeric`; the later key would be a duplicate, so swap it.
  const { readFileSync, writeFileSync } = await import('node:fs');
  writeFileSync(experiment.configPath, readFileSync(experiment.configPath, 'utf8').replace('scorer: numeric\n', '').replace("retries: { max_attempts: 6", "retries: { max_attempts: 2"));
  const run = await runExperiment({ configPath: experiment.configPath, outDir: experiment.runsDir, env: {} });
  expect(run.interrupted).toBe(false);
  const results = readJsonl<ResultRecord>(runPaths(run.runDir).results).records;
  const calls = readJsonl<CallRecord>(runPaths(run.runDir).calls).records;
  expect(results).toHaveLength(8);
  for (const result of results) {
    expect(result.passed).toBe(false);
    expect(result.paths[0]?.judge?.error).toContain(error.replace('judge call failed', ''));
    expect(result.paths[0]?.error).toContain(error);
  }
  const judgeCalls = calls.filter((c) => c.role === 'judge');
  expect(judgeCalls.length).toBeGreaterThanOrEqual(8);
  if (judge === 'judge-slow') expect(judgeCalls.map((c) => c.finish_reason_raw)).toEqual(judgeCalls.map(() => 'timeout'));
  else expect(results.every((r) => r.judge_tokens === 28)).toBe(true);
  // Generation is untouched, and judge tokens stay out of B unless include_judge says so. A
  // generation attempt the loaded machine timed out may have been billed: booked at its reservation.
  for (const result of results) expect(result.total_tokens).toBe(28 + (result.outcome_unknown_tokens ?? 0));
  expect(results.reduce((acc, r) => acc + (r.outcome_unknown_tokens ?? 0), 0)).toBe(calls.filter((c) => c.role === 'generate' && c.note === 'outcome_unknown').reduce((acc, c) => acc + (c.reserved_tokens ?? 0), 0));
  // Every path a scorer (judge) error: the arms measured the judge, not the variants (issue 11).
  const verdict = verdictForRun(run.runDir);
  expect(verdict.verdict).toBe('invalid');
  for (const arm of verdict.invariants.arm_errors) expect(arm).toMatchObject({ paths: 4, errors: 4, scorer_errors: 4 });
});
