/**
 * `isobudget view --db`: a distributed run in a real PostgreSQL (its own schema), submitted
 * and executed by real worker processes, is listed and opens in the viewer from a folder that
 * holds no local copy of it — and the viewer writes nothing to the database.
 */
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { freshSchema, skipWithoutPostgres, type TestSchema } from '../src/test-support/postgres.js';
import { runCli } from './support/cli.js';
import { startView } from './support/view-process.js';

const skip = await skipWithoutPostgres('view --db');
const EXAMPLE = join(import.meta.dirname, '..', 'examples', 'date-parser');

function get(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    request(url, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    }).on('error', reject).end();
  });
}

describe.skipIf(skip)('view --db', () => {
  let schema: TestSchema;

  beforeAll(async () => {
    schema = await freshSchema('view');
  });
  afterAll(async () => {
    await schema?.drop();
  });

  test('a team run is listed and opens (report, grid, a case); the database is only read', async () => {
    expect((await runCli(['db', 'migrate', '--db', schema.url])).code).toBe(0);
    const dir = mkdtempSync(join(tmpdir(), 'isobudget-view-team-'));
    cpSync(EXAMPLE, join(dir, 'date-parser'), { recursive: true });
    const val = join(dir, 'date-parser', 'data', 'val.jsonl');
    writeFileSync(val, `${readFileSync(val, 'utf8').trim().split('\n').slice(0, 12).join('\n')}\n`);
    const submitted = await runCli(['run', 'date-parser/experiment.yaml', '--db', schema.url, '--distributed', '--detach', '--run-id', 'team-1'], { cwd: dir });
    expect(submitted.stdout.trim(), submitted.stderr).toBe('team-1');
    const worker = await runCli(['worker', '--db', schema.url, '--until-idle', '--concurrency', '4'], { cwd: dir });
    expect(worker.code, worker.stderr).toBe(0);
    const elsewhere = mkdtempSync(join(tmpdir(), 'isobudget-view-reader-'));
    const client = new pg.Client({ connectionString: schema.url });
    await client.connect();
    const writes = async (): Promise<number> => Number((await client.query<{ n: string }>(`SELECT (sum(n_tup_ins + n_tup_upd + n_tup_del))::text AS n FROM pg_stat_user_tables WHERE schemaname = $1`, [schema.schema])).rows[0]?.n ?? 0);
    const view = await startView(elsewhere, ['--db', schema.url]);
    try {
      const before = await writes();
      const runs = await get(`${view.url}/`);
      expect(runs.status).toBe(200);
      expect(runs.body).toContain('href="/runs/team-1"');
      expect(runs.body).toContain('the team database');
      const run = await get(`${view.url}/runs/team-1`);
      expect(run.status).toBe(200);
      expect(run.body).toContain('verdict-name');
      expect(run.body).toContain('of 12 cases');
      const caseId = /\/runs\/team-1\/cases\/([^"?]+)\?split=val/.exec(run.body)?.[1] ?? '';
      const opened = await get(`${view.url}/runs/team-1/cases/${caseId}?split=val`);
      expect(opened.status).toBe(200);
      expect(opened.body).toContain('Calls');
      // Statistics are flushed lazily; what matters is no insert/update/delete from the viewer's reads.
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect(await writes()).toBe(before);
    } finally {
      view.child.kill('SIGTERM');
      await client.end();
    }
  }, 120_000);
});
