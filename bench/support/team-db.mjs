/**
 * A throwaway schema on the local PostgreSQL for the distributed benches (like the tests'
 * freshSchema), the built CLI as a child process, and a small arithmetic experiment.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const BIN = join(ROOT, 'dist', 'cli', 'bin.js');
export const DATABASE_URL = process.env.ISOBUDGET_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export async function freshSchema(prefix) {
  const schema = `${prefix}_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: DATABASE_URL });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const url = new URL(DATABASE_URL);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    schema,
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: DATABASE_URL });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE; DROP SCHEMA IF EXISTS ${schema}_jobs CASCADE`);
      await client.end();
    },
  };
}

export function cli(args, options = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: options.cwd, env: { PATH: process.env.PATH, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
    options.onSpawn?.(child);
  });
}

export async function mustRun(args, options) {
  const out = await cli(args, options);
  if (out.code !== 0) throw new Error(`isobudget ${args.join(' ')} exited ${out.code}: ${out.stderr}`);
  return out;
}

/** An experiment of `cases` arithmetic cases (ids c1…), with `lines` of YAML appended. */
export function arithmeticExperiment(cases, lines) {
  const dir = mkdtempSync(join(tmpdir(), 'isobudget-bench-'));
  mkdirSync(join(dir, 'data'));
  writeFileSync(join(dir, 'data', 'val.jsonl'), `${Array.from({ length: cases }, (_, i) => JSON.stringify({ id: `c${i + 1}`, input: `What is ${i + 1} + ${(i + 1) * 2}?`, expected: String((i + 1) * 3) })).join('\n')}\n`);
  writeFileSync(join(dir, 'experiment.yaml'), `${[
    'experiment: bench',
    'variants:', '  baseline: { id: a, model: sim-small, system_prompt: "Answer." }', '  candidate: { id: b, model: sim-small, system_prompt: "Answer with the number." }',
    'datasets: { val: data/val.jsonl }', 'scorer: numeric', 'seed: 5',
    ...lines,
  ].join('\n')}\n`);
  return dir;
}
