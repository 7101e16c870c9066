/**
 * A command agent's call in flight through the run's gateway when its worker is `kill -9`ed:
 * the gateway forwards only once the call's intent row (call id, unit, attempt, reservation)
 * is in Postgres, so the dead call is found, kept as `interrupted` (outcome unknown) when
 * another worker commits the unit, and its reservation is counted as spent in the manifest.
 * The upstream is a real HTTP server here that holds every request until told to answer,
 * so the kill lands while the calls are in flight, every time.
 */
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import type { ChildProcess } from 'node:child_process';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { freshSchema, skipWithoutPostgres, type TestSchema } from '../src/test-support/postgres.js';
import { runCli } from './support/cli.js';
import { arithmeticCases } from './support/experiment.js';

const skip = await skipWithoutPostgres('distributed gateway intents');
const AGENT = fileURLToPath(new URL('./support/sleepy-agent.mjs', import.meta.url));

/** An OpenAI-style upstream that answers at once, or holds each request while `holding`. */
class HoldingUpstream {
  holding = true;
  /** The user message of every request received, in order. */
  readonly received: string[] = [];
  private readonly held: Array<() => void> = [];
  private readonly server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const parsed = JSON.parse(body) as { model: string; messages: Array<{ content: string }> };
      this.received.push(parsed.messages.at(-1)?.content ?? '');
      const answer = (): void => reply(response, parsed.model);
      if (this.holding) this.held.push(answer);
      else answer();
    });
  });

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  release(): void {
    this.holding = false;
    for (const answer of this.held.splice(0)) answer();
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

function reply(response: ServerResponse, model: string): void {
  if (response.destroyed) return;
  response.writeHead(200, { 'content-type': 'application/json' });
  response.end(JSON.stringify({
    id: 'chatcmpl-held', object: 'chat.completion', created: 0, model,
    choices: [{ index: 0, message: { role: 'assistant', content: '3' }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 20, completion_tokens: 1, total_tokens: 21 },
  }));
}

interface CallRow { call_id: string; unit_key: string; attempt_id: string; state: string; record: { note?: string; role: string; case_id: string; reserved_tokens?: number } }

describe.skipIf(skip)('gateway calls of a killed distributed worker', () => {
  let schema: TestSchema;
  let client: pg.Client;
  const upstream = new HoldingUpstream();
  let victim: ChildProcess | undefined;
  beforeAll(async () => {
    schema = await freshSchema('gwintent');
    client = new pg.Client({ connectionString: schema.url });
    await client.connect();
  });
  afterAll(async () => {
    // A failed assertion before the kill must not leave the worker running.
    if (victim?.exitCode === null && victim.signalCode === null) victim.kill('SIGKILL');
    await upstream.close();
    await client?.query(`DROP SCHEMA IF EXISTS ${schema.schema}_jobs CASCADE`);
    await client?.end();
    await schema?.drop();
  });

  test('each forwarded call has its in_flight row first; after kill -9 it is interrupted and its reservation counted', async () => {
    const url = await upstream.start();
    await runCli(['db', 'migrate', '--db', schema.url]);
    const dir = mkdtempSync(join(tmpdir(), 'isobudget-gwintent-'));
    cpSync(AGENT, join(dir, 'agent.mjs'));
    const cases = arithmeticCases(2);
    writeFileSync(join(dir, 'val.jsonl'), cases);
    const caseOf = new Map(cases.trim().split('\n').map((line) => JSON.parse(line) as { id: string; input: string }).map((c) => [c.input, c.id]));
    writeFileSync(join(dir, 'experiment.yaml'), [
      'experiment: gwintent', 'provider: { preset: sim }', 'models: { candidate: sim-small }',
      'variants:', '  baseline: { id: a, model: sim-small, system_prompt: "Answer." }', '  candidate: { id: b, model: sim-small, system_prompt: "Answer with the number." }',
      'budget: { total_tokens_per_case: 2000, per_case_max_tokens: 256, best_of_n: [1] }', 'datasets: { val: val.jsonl }', 'scorer: numeric', 'selector: majority', 'seed: 3',
      `executor: { type: command, argv: ["${process.execPath}", "{{config_dir}}/agent.mjs", "{{input}}", "0"], timeout_ms: 20000, gateway: { upstream: "${url}" } }`,
    ].join('\n'));
    const runId = 'gwintent';
    expect((await runCli(['run', 'experiment.yaml', '--db', schema.url, '--distributed', '--detach', '--lease', '2', '--run-id', runId], { cwd: dir })).code).toBe(0);
    const doomed = runCli(['worker', '--db', schema.url, '--concurrency', '2'], { cwd: dir, onSpawn: (child) => (victim = child) });
    for (let i = 0; i < 300 && upstream.received.length < 2; i += 1) await new Promise((resolve) => setTimeout(resolve, 25));
    expect(upstream.received.length).toBeGreaterThan(0);
    // The upstream holds these calls: each one's intent row was committed before it left the gateway.
    const seen = upstream.received.length;
    const early = (await client.query<CallRow>(`SELECT * FROM calls WHERE run_id = $1 AND state = 'in_flight'`, [runId])).rows;
    expect(early.length).toBeGreaterThanOrEqual(seen);
    victim!.kill('SIGKILL');
    expect((await doomed).signal).toBe('SIGKILL');
    const killed = upstream.received.length;
    upstream.release();

    const worker = runCli(['worker', '--db', schema.url, '--until-idle', '--concurrency', '2', '--lease-check', '1'], { cwd: dir });
    const waited = await runCli(['runs', 'wait', runId, '--db', schema.url, '--json'], { cwd: dir });
    expect((await worker).code).toBe(0);
    expect(waited.code, waited.stderr).toBe(0);

    const planned = (await client.query<{ n: number }>('SELECT units_planned AS n FROM runs WHERE run_id = $1', [runId])).rows[0]!.n;
    const results = (await client.query<{ k: string; attempt_id: string }>('SELECT split || case_id || arm || epoch AS k, attempt_id FROM results WHERE run_id = $1', [runId])).rows;
    expect(new Set(results.map((r) => r.k)).size).toBe(planned);
    expect(results).toHaveLength(planned);
    const calls = (await client.query<CallRow>('SELECT call_id, unit_key, attempt_id, state, record FROM calls WHERE run_id = $1', [runId])).rows;
    expect(calls.filter((c) => c.state === 'in_flight')).toHaveLength(0);
    // One agent call per unit, each on one row: its intent became its record.
    const committed = calls.filter((c) => c.state === 'committed');
    expect(committed).toHaveLength(planned);
    for (const call of committed) expect(call.call_id).toContain(`${call.attempt_id}-g-`);
    // Every call the killed worker had in flight upstream is there, outcome unknown, billed at its reservation.
    const interrupted = calls.filter((c) => c.state === 'interrupted');
    expect(interrupted).toHaveLength(killed);
    const winners = new Set(results.map((r) => r.attempt_id));
    for (const call of interrupted) {
      expect(winners.has(call.attempt_id)).toBe(false);
      expect(call.record).toMatchObject({ note: 'outcome_unknown', role: 'gateway' });
      expect(call.record.reserved_tokens).toBeGreaterThan(0);
    }
    expect(interrupted.map((c) => c.record.case_id).sort()).toEqual(upstream.received.slice(0, killed).map((input) => caseOf.get(input)).sort());
    expect(upstream.received).toHaveLength(killed + planned);

    const manifest = JSON.parse(readFileSync(join(dir, 'runs', runId, 'manifest.json'), 'utf8')) as { calls: { committed: number; spent_unused: number; outcome_unknown: number; outcome_unknown_max_tokens: number } };
    expect(manifest.calls).toMatchObject({ committed: planned, spent_unused: killed, outcome_unknown: killed, outcome_unknown_max_tokens: interrupted.reduce((sum, c) => sum + (c.record.reserved_tokens ?? 0), 0) });
    expect(readFileSync(join(dir, 'runs', runId, 'interrupted-calls.jsonl'), 'utf8').trim().split('\n')).toHaveLength(killed);
  }, 30_000);
});
