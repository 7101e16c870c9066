/**
 * `audit --db` sums the calls in the database, one row per UTC hour (periods are UTC weeks
 * or months, so no hour straddles two): the same audit as the run's files give, with the
 * number of rows that leave the server bounded by hours, not by calls.
 */
import type pg from 'pg';
import { describe, expect, test } from 'vitest';
import { openPool } from '../src/db/index.js';
import { callTotalsMismatch } from '../src/distributed/call-totals.js';
import { RESULT_COLUMNS, resultRow } from '../src/distributed/ledger-rows.js';
import { readAuditFromDatabase } from '../src/distributed/team-reads.js';
import { taskOfResult } from '../src/audit/read-ledgers.js';
import type { ResultRecord } from '../src/ledger/records.js';
import { skipWithoutPostgres, type TestSchema } from '../src/test-support/postgres.js';
import { runCli } from './support/cli.js';
import { count, simProject, useMigratedSchema } from './support/team.js';

const skip = await skipWithoutPostgres('audit --db in SQL');

describe.skipIf(skip)('audit --db aggregates in the database', () => {
  let schema: TestSchema;
  let client: pg.Client;
  useMigratedSchema('aud', (s, c) => {
    schema = s;
    client = c;
  });

  test('the database audit equals the files\' audit; rows read are hours, not calls', async () => {
    const dir = simProject('aud', 12);
    expect((await runCli(['run', 'experiment.yaml', '--db', schema.url, '--distributed', '--detach', '--run-id', 'au'], { cwd: dir })).code).toBe(0);
    expect((await runCli(['worker', '--db', schema.url, '--until-idle', '--sim-latency-scale', '0'], { cwd: dir })).code).toBe(0);
    expect((await runCli(['runs', 'wait', 'au', '--db', schema.url, '--json'], { cwd: dir })).code).toBe(0);
    // Native n: some calls returned two outputs (the audit's output length divides by outputs).
    expect(await count(client, `SELECT count(*)::int AS n FROM calls WHERE run_id = 'au' AND paths = 2`)).toBeGreaterThan(0);
    const fromDb = await runCli(['audit', '--db', schema.url, '--json'], { cwd: dir });
    const fromFiles = await runCli(['audit', '--runs', 'runs', '--json'], { cwd: dir });
    expect(fromDb.code, fromDb.stderr).toBe(0);
    expect(fromFiles.code, fromFiles.stderr).toBe(0);
    const shape = (text: string): unknown => {
      const audit = JSON.parse(text) as { periods: unknown; trends: unknown; sources: Record<string, unknown> };
      return { periods: audit.periods, trends: audit.trends, tasks: audit.sources['tasks'], calls: audit.sources['calls'] };
    };
    expect(shape(fromDb.stdout)).toEqual(shape(fromFiles.stdout));
    const generate = await count(client, `SELECT count(*)::int AS n FROM calls WHERE state = 'committed' AND role = 'generate'`);
    const db = openPool(schema.url, { applicationName: 'audit test', max: 4 });
    try {
      const data = await readAuditFromDatabase(db, Date.now() - 86_400_000, Date.now() + 60_000);
      expect(data.calls.reduce((sum, call) => sum + (call.count ?? 1), 0)).toBe(generate);
      // Everything ran within a minute or two: one or two hours, whatever the number of calls.
      expect(data.calls.length).toBeLessThanOrEqual(2);
      expect(generate).toBeGreaterThan(20);
      // The totals both reads use add up to the calls the run wrote, folded per hour at its finish.
      expect(await callTotalsMismatch(db)).toBeUndefined();
      expect(await count(client, `SELECT count(*)::int AS n FROM call_totals WHERE run_id = 'au' AND unit_key <> ''`)).toBe(0);
      expect(await count(client, `SELECT count(*)::int AS n FROM call_totals WHERE run_id = 'au'`)).toBeLessThanOrEqual(12);
    } finally {
      await db.end();
    }
  });

  test('the database reads of a result what the files\' reader keeps: absent and null tokens or budget, a cost that is no number', async () => {
    const base = (await client.query<{ record: ResultRecord }>(`SELECT record FROM results WHERE run_id = 'au' LIMIT 1`)).rows[0]?.record as ResultRecord;
    const odd: ResultRecord[] = [
      { ...base, case_id: 'odd-1', total_tokens: undefined, budget: null as unknown as number },
      { ...base, case_id: 'odd-2', total_tokens: null as unknown as number, budget: undefined as unknown as number, retries: 2 },
      { ...base, case_id: 'odd-3', cost_usd: 'n/a' as unknown as number, passed: false, n: 4 },
    ];
    for (const [i, record] of odd.entries()) {
      const row = resultRow(JSON.parse(JSON.stringify(record)) as ResultRecord, 1000 + i, 'odd');
      await client.query(`INSERT INTO results (${RESULT_COLUMNS.join(', ')}) VALUES (${row.map((_, j) => `$${j + 1}`).join(', ')})`, row);
    }
    const db = openPool(schema.url, { applicationName: 'audit test', max: 2 });
    try {
      const { tasks } = await readAuditFromDatabase(db, Date.now() - 86_400_000, Date.now() + 60_000);
      const time = Date.parse(base.ts);
      const ours = tasks.filter((t) => t.time === time);
      for (const record of odd) expect(ours).toContainEqual(taskOfResult(JSON.parse(JSON.stringify(record)) as ResultRecord, time));
    } finally {
      await db.end();
      await client.query(`DELETE FROM results WHERE attempt_id = 'odd'`);
    }
  });

  test('analyze --db equals analyze of the run\'s files; a committed call changed after the finish makes it invalid (ledger_integrity)', async () => {
    const dir = simProject('ana', 8);
    expect((await runCli(['run', 'experiment.yaml', '--db', schema.url, '--distributed', '--detach', '--run-id', 'an'], { cwd: dir })).code).toBe(0);
    expect((await runCli(['worker', '--db', schema.url, '--until-idle', '--sim-latency-scale', '0'], { cwd: dir })).code).toBe(0);
    expect((await runCli(['runs', 'wait', 'an', '--db', schema.url, '--json'], { cwd: dir })).code).toBe(0);
    const verdict = (text: string): Record<string, unknown> => {
      const { report_path: _path, created_at: _at, ...rest } = JSON.parse(text) as Record<string, unknown>;
      return rest;
    };
    const fromDb = await runCli(['analyze', 'an', '--db', schema.url, '--json', '--no-report'], { cwd: dir });
    const fromFiles = await runCli(['analyze', 'runs/an', '--json', '--no-report'], { cwd: dir });
    expect(fromDb.code, fromDb.stderr).toBe(0);
    expect(fromFiles.code, fromFiles.stderr).toBe(0);
    expect(verdict(fromDb.stdout)).toEqual(verdict(fromFiles.stdout));
    expect(verdict(fromDb.stdout)['verdict']).not.toBe('invalid');

    await client.query(`UPDATE calls SET state = 'interrupted' WHERE id = (SELECT min(id) FROM calls WHERE run_id = 'an' AND state = 'committed')`);
    const edited = JSON.parse((await runCli(['analyze', 'an', '--db', schema.url, '--json', '--no-report'], { cwd: dir })).stdout) as { verdict: string; checks: Array<{ name: string; passed: boolean; detail: string }> };
    expect(edited.verdict).toBe('invalid');
    expect(edited.checks[0]).toMatchObject({ name: 'ledger_integrity', passed: false });
    expect(edited.checks[0]?.detail).toMatch(/^the team database holds \d+ committed calls of run an, \d+ when it finished/);
  });
});
