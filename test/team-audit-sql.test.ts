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
import { auditLedgers, type AuditResult } from '../src/audit/audit.js';
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

  test('results summed per hour and kind audit as the files\' reader\'s tasks one by one: absent and null tokens or budget, a cost that is no number, n>1, retries, the window cutting an hour', async () => {
    const base = (await client.query<{ record: ResultRecord }>(`SELECT record FROM results WHERE run_id = 'au' LIMIT 1`)).rows[0]?.record as ResultRecord;
    // Eight weeks of a few hours each, several results an hour; tokens and retries rise, pass@1 does not.
    const since = Date.parse('2026-01-05T10:30:00Z');
    const until = Date.parse('2026-03-01T00:00:00Z');
    const hours = [-1, 0, 1, 2].flatMap((h) => Array.from({ length: 8 }, (_, week) => since - 30 * 60_000 + week * 7 * 86_400_000 + h * 3_600_000));
    const records = Array.from({ length: 480 }, (_, i): ResultRecord => {
      const hour = hours[i % hours.length] as number;
      const week = Math.floor((hour - since + 3_600_000) / (7 * 86_400_000));
      // Kinds mixed independently of the hour (a multiplicative hash of i).
      const hash = Math.imul(i + 1, 2_654_435_761) >>> 0;
      const pick = <T>(xs: readonly T[], shift: number): T => xs[(hash >>> shift) % xs.length] as T;
      const record: Record<string, unknown> = {
        ...base, case_id: `syn-${i}`, ts: new Date(hour + ((i * 7919) % 3_600_000)).toISOString(),
        n: pick([1, 1, 1, 4], 3), passed: pick([true, false, true], 6), retries: pick([0, 0, 1, 2], 9) + (week > 4 ? 1 : 0),
        split: pick(['val', 'val', 'regression'], 12), total_tokens: 100 * (week + 1) + (i % 13),
        budget: pick([2000, 2000, 1000], 15), cost_usd: 0.001 * (i % 17) + 0.1 / 3,
      };
      if (i % 11 === 0) delete record['total_tokens'];
      if (i % 23 === 0) record['total_tokens'] = null;
      if (i % 19 === 0) delete record['budget'];
      if (i % 29 === 0) record['budget'] = null;
      if (i % 5 === 0) delete record['cost_usd'];
      if (i % 31 === 0) record['cost_usd'] = 'n/a';
      return JSON.parse(JSON.stringify(record)) as ResultRecord;
    });
    for (const [i, record] of records.entries()) {
      const row = resultRow(record, 1000 + i, 'syn');
      await client.query(`INSERT INTO results (${RESULT_COLUMNS.join(', ')}) VALUES (${row.map((_, j) => `$${j + 1}`).join(', ')})`, row);
    }
    const db = openPool(schema.url, { applicationName: 'audit test', max: 2 });
    try {
      const data = await readAuditFromDatabase(db, since, until);
      // What the files' reader keeps of every record in the window, one task each.
      const inside = records.filter((r) => Date.parse(r.ts) >= since && Date.parse(r.ts) <= until);
      expect(inside.length).toBeLessThan(records.length);
      const one = { ...data, tasks: inside.map((r) => taskOfResult(r, Date.parse(r.ts))) };
      expect(data.tasks.reduce((sum, t) => sum + (t.count ?? 1), 0)).toBe(inside.length);
      expect(data.tasks.length).toBeLessThan(inside.length);
      expect(data.tasks.some((t) => (t.count ?? 1) >= 3)).toBe(true);
      for (const unit of ['week', 'month'] as const) {
        const summed = auditLedgers(data, { since, until, unit, minPeriods: 3 });
        const byTask = auditLedgers(one, { since, until, unit, minPeriods: 3 });
        // USD sums in another order: equal but for the last float digits.
        const cost = (a: AuditResult): unknown => a.periods.map((p) => ({ ...p, costUsd: p.costUsd === null ? null : Number(p.costUsd.toPrecision(12)), costPerTaskUsd: p.costPerTaskUsd === null ? null : Number(p.costPerTaskUsd.toPrecision(12)) }));
        expect(cost(summed)).toEqual(cost(byTask));
        expect({ ...summed, periods: undefined }).toEqual({ ...byTask, periods: undefined });
        expect(summed.periods.filter((p) => p.tasksPriced < p.tasks && p.passTasks > 0 && (p.values.bestofn_rate ?? 0) > 0 && (p.values.retries_per_task ?? 0) > 0).length).toBeGreaterThanOrEqual(2);
        expect(summed.sources.tasksMissingTokens).toBeGreaterThan(0);
      }
      expect(auditLedgers(data, { since, until, unit: 'week' }).trends.tokens_per_task.direction).toBe('rising');
    } finally {
      await db.end();
      await client.query(`DELETE FROM results WHERE attempt_id = 'syn'`);
    }
  });

  test('a result whose tokens or retries are no number (a string, an object) is read as unknown / 0, not a cast error that ends the audit', async () => {
    const base = (await client.query<{ record: ResultRecord }>(`SELECT record FROM results WHERE run_id = 'au' LIMIT 1`)).rows[0]?.record as ResultRecord;
    const ts = '2026-04-01T12:00:00.000Z';
    // Written as the worker writes them, then the records edited (the columns stay the worker's).
    const odd: Array<Record<string, unknown>> = [{ total_tokens: '1200', retries: 'x' }, { total_tokens: { n: 5 }, retries: [1] }, { total_tokens: 300, retries: 2 }];
    for (const [i, fields] of odd.entries()) {
      const row = resultRow({ ...base, case_id: `odd-${i}`, ts, total_tokens: 300, retries: 2 }, 5000 + i, 'odd');
      await client.query(`INSERT INTO results (${RESULT_COLUMNS.join(', ')}) VALUES (${row.map((_, j) => `$${j + 1}`).join(', ')})`, row);
      await client.query(`UPDATE results SET record = record || $1::jsonb WHERE attempt_id = 'odd' AND seq = $2`, [JSON.stringify(fields), 5000 + i]);
    }
    const db = openPool(schema.url, { applicationName: 'audit test', max: 2 });
    try {
      const data = await readAuditFromDatabase(db, Date.parse('2026-04-01T00:00:00Z'), Date.parse('2026-04-02T00:00:00Z'));
      expect(data.tasks.reduce((sum, t) => sum + (t.count ?? 1), 0)).toBe(3);
      expect(data.tasks.reduce((sum, t) => sum + (t.tokens ?? 0), 0)).toBe(300);
      expect(data.tasks.reduce((sum, t) => sum + t.retries, 0)).toBe(2);
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
