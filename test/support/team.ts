/** Team-mode test fixtures: a command-agent experiment (a slow agent behind the run's gateway) and small database reads. */
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, expect } from 'vitest';
import { freshSchema, type TestSchema } from '../../src/test-support/postgres.js';
import { runCli } from './cli.js';
import { arithmeticCases } from './experiment.js';

const AGENT = fileURLToPath(new URL('./sleepy-agent.mjs', import.meta.url));

const POISON_AGENT = fileURLToPath(new URL('./poison-agent.mjs', import.meta.url));

/** A project folder whose experiment has `cases` cases × arms A–D, each path one call then `pauseMs` of agent time. */
export function slowAgentProject(name: string, cases: number, pauseMs: number): string {
  return agentProject(name, cases, AGENT, [String(pauseMs)]);
}

/** As slowAgentProject, but the agent of the unit `poison` (`case/arm`, e.g. `c1/candidate_single`) kills its worker with SIGKILL. */
export function poisonAgentProject(name: string, cases: number, pauseMs: number, poison: string): string {
  return agentProject(name, cases, POISON_AGENT, [String(pauseMs), '{{case_id}}', '{{arm}}', poison]);
}

function agentProject(name: string, cases: number, agent: string, extra: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), `isobudget-${name}-`));
  cpSync(agent, join(dir, 'agent.mjs'));
  writeFileSync(join(dir, 'val.jsonl'), arithmeticCases(cases));
  writeFileSync(join(dir, 'experiment.yaml'), [
    `experiment: ${name}`, 'provider: { preset: sim }', 'models: { candidate: sim-small }',
    'variants:', '  baseline: { id: a, model: sim-small, system_prompt: "Answer." }', '  candidate: { id: b, model: sim-small, system_prompt: "Answer with the number." }',
    'budget: { total_tokens_per_case: 2000, per_case_max_tokens: 256, best_of_n: [1, 2] }', 'datasets: { val: val.jsonl }', 'scorer: numeric', 'selector: majority', 'seed: 3',
    `executor: { type: command, argv: ${JSON.stringify([process.execPath, '{{config_dir}}/agent.mjs', '{{input}}', ...extra])}, timeout_ms: 30000 }`,
  ].join('\n'));
  return dir;
}

export async function count(client: pg.Client, sql: string, values: unknown[] = []): Promise<number> {
  return (await client.query<{ n: number }>(sql, values)).rows[0]?.n ?? 0;
}

/** Polls until `check` holds (every 50 ms, at most `tries` times); false when it never did. */
export async function until(check: () => Promise<boolean>, tries = 400): Promise<boolean> {
  for (let i = 0; i < tries; i += 1) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

/** A project folder with a chat experiment on the in-process simulator (no agent): `cases` cases × arms A–D. */
export function simProject(name: string, cases: number): string {
  const dir = mkdtempSync(join(tmpdir(), `isobudget-${name}-`));
  writeFileSync(join(dir, 'val.jsonl'), arithmeticCases(cases));
  writeFileSync(join(dir, 'experiment.yaml'), [
    `experiment: ${name}`, 'provider: { preset: sim }', 'models: { candidate: sim-small }',
    'variants:', '  baseline: { id: a, model: sim-small, system_prompt: "Answer." }', '  candidate: { id: b, model: sim-small, system_prompt: "Answer with the number." }',
    'budget: { total_tokens_per_case: 2000, per_case_max_tokens: 256, best_of_n: [1, 2] }', 'datasets: { val: val.jsonl }', 'scorer: numeric', 'selector: majority', 'seed: 5',
  ].join('\n'));
  return dir;
}

/** results.jsonl by unit, each record without what is the machine's (wall time, commit time, run id). */
export function resultsByUnit(file: string): Map<string, string> {
  const canon = (v: unknown): unknown => (Array.isArray(v) ? v.map(canon) : v && typeof v === 'object' ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, canon((v as Record<string, unknown>)[k])])) : v);
  return new Map(readFileSync(file, 'utf8').trim().split('\n').map((line) => {
    const { ts: _ts, latency_ms: _latency, run_id: _run, ...rest } = JSON.parse(line) as Record<string, unknown> & { split: string; case_id: string; arm: string; epoch: number };
    return [`${rest.split}|${rest.case_id}|${rest.arm}|${rest.epoch}`, JSON.stringify(canon(rest))];
  }));
}

/**
 * A fresh schema, migrated, with a connected client, for the describe block it is called in;
 * dropped (its job schema too) after. `ready` gets both once they exist.
 */
export function useMigratedSchema(prefix: string, ready: (schema: TestSchema, client: pg.Client) => void): void {
  let schema: TestSchema | undefined;
  let client: pg.Client | undefined;
  beforeAll(async () => {
    schema = await freshSchema(prefix);
    client = new pg.Client({ connectionString: schema.url });
    await client.connect();
    expect((await runCli(['db', 'migrate', '--db', schema.url])).code).toBe(0);
    ready(schema, client);
  });
  afterAll(async () => {
    if (schema) await client?.query(`DROP SCHEMA IF EXISTS ${schema.schema}_jobs CASCADE`);
    await client?.end();
    await schema?.drop();
  });
}
