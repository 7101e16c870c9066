import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { freshSchema, skipWithoutPostgres, type TestSchema } from '../src/test-support/postgres.js';
import { runCli } from './support/cli.js';

const skip = await skipWithoutPostgres('isobudget db');

describe.skipIf(skip)('isobudget db migrate|status against a real PostgreSQL', () => {
  let schema: TestSchema;
  beforeAll(async () => {
    schema = await freshSchema('cli');
  });
  afterAll(async () => schema?.drop());

  test('migrate applies, a second migrate says current, status lists every migration; the URL comes from --db or the env', async () => {
    const first = await runCli(['db', 'migrate', '--db', schema.url]);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    const again = await runCli(['db', 'migrate'], { env: { ISOBUDGET_DATABASE_URL: schema.url } });
    expect(again.stdout).toMatch(/schema is current/);
    const status = await runCli(['db', 'status', '--db', schema.url]);
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(/schema is current/);
    expect(status.stdout).not.toMatch(/pending/);
  });
});

describe('isobudget db: bad input is one line, exit 2', () => {
  test('no URL, a wrong scheme, an unreachable server (the password never printed)', async () => {
    const none = await runCli(['db', 'migrate']);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/pass --db URL or set ISOBUDGET_DATABASE_URL/);
    const scheme = await runCli(['db', 'migrate', '--db', 'mysql://root@127.0.0.1/x']);
    expect(scheme.code).toBe(2);
    expect(scheme.stderr).toMatch(/must start with postgres:\/\//);
    const down = await runCli(['db', 'status', '--db', 'postgres://bob:hunter2@127.0.0.1:1/team']);
    expect(down.code).toBe(2);
    expect(down.stderr).toMatch(/cannot connect to postgres:\/\/bob@127\.0\.0\.1:1\/team: ECONNREFUSED/);
    expect(down.stderr).not.toContain('hunter2');
    expect(down.stderr).not.toMatch(/\n\s+at /);
    const action = await runCli(['db', 'migrat']);
    expect(action.code).toBe(2);
  });
});
