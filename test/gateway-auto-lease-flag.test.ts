/**
 * `gateway --db --auto-lease on|off`: the per-call mode's automatic leases can be turned off
 * from the command line. Off, every call reserves on the key's row — counted by a trigger on
 * `gateway_keys` that counts the updates raising `reserved` (one per call; with the leases on,
 * a few per lease top-up, test/gateway-replicas-auto-lease.test.ts). Bad values and
 * combinations are one line, exit 2.
 */
import { spawn, spawnSync } from 'node:child_process';
import { describe, expect, test } from 'vitest';
import { skipWithoutPostgres } from '../src/test-support/postgres.js';
import { BIN, mixedCall, type ReplicaProcess, useGrantCountingSchema } from './support/gateway-replicas.js';

const skip = await skipWithoutPostgres('gateway --auto-lease');
const CALLS = 24;

describe.skipIf(skip)('gateway --auto-lease on|off', () => {
  const fixture = useGrantCountingSchema('gwflag');
  const { mint, grants } = fixture;

  /** 24 capped calls, 6 at a time, through one replica started with `flags`; the key's row grants. */
  async function capped(flags: string[]): Promise<{ grants: number; statuses: number[]; replica: ReplicaProcess; key: { spent: string; reserved: string } }> {
    const { secret, id } = mint(2_000_000);
    const replica = await fixture.replica(flags);
    const statuses: number[] = [];
    for (let i = 0; i < CALLS; i += 6) statuses.push(...(await Promise.all(Array.from({ length: 6 }, (_, j) => mixedCall(replica.url, secret, i + j, `flag-${id}-${i + j}`)))).map((o) => o.status));
    expect(await replica.stop()).toBe(0);
    const key = (await fixture.db.query('SELECT spent, reserved FROM gateway_keys WHERE id = $1', [id])).rows[0] as { spent: string; reserved: string };
    return { grants: await grants(id), statuses, replica, key };
  }

  test('--auto-lease off: every call reserves on the key row (one grant per call); on (the default): fewer', async () => {
    const off = await capped(['--auto-lease', 'off']);
    expect(off.statuses.every((s) => s === 200)).toBe(true);
    expect(off.grants).toBe(CALLS);
    expect(Number(off.key.reserved)).toBe(0);
    const on = await capped([]);
    expect(on.statuses.every((s) => s === 200)).toBe(true);
    expect(on.grants).toBeGreaterThan(0);
    expect(on.grants).toBeLessThan(CALLS);
    expect(Number(on.key.reserved)).toBe(0);
  }, 60_000);

  test('the start line names the mode', async () => {
    const startLine = (flags: string[]): Promise<string> =>
      new Promise((resolve, reject) => {
        const child = spawn(process.execPath, [BIN, 'gateway', '--db', fixture.schema.url, '--upstream', `${fixture.upstream.url}/v1`, '--port', '0', ...flags], { stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: process.env.PATH ?? '' } });
        let out = '';
        child.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          const line = /^ {2}replica .*budgets .*$/m.exec(out);
          if (line) {
            child.kill('SIGTERM');
            resolve(line[0]);
          }
        });
        child.once('exit', (code) => reject(new Error(`gateway exited ${code} before its start line: ${out}`)));
      });
    expect(await startLine(['--auto-lease', 'off'])).toMatch(/budgets reserved per call on the key row \(automatic leases off\)$/);
    expect(await startLine([])).toMatch(/budgets reserved per call \(automatic leases on\)$/);
  }, 30_000);

  test.each([
    [['--auto-lease', 'maybe'], "isobudget gateway: --auto-lease must be on or off, got 'maybe'"],
    [['--auto-lease', 'off', '--budget-lease', '1000'], 'isobudget gateway: --auto-lease is for per-call budgets; --budget-lease leases every call already'],
  ])('gateway --db %j: one line, exit 2', (flags, line) => {
    const child = spawnSync(process.execPath, [BIN, 'gateway', '--db', fixture.schema.url, '--upstream', `${fixture.upstream.url}/v1`, '--port', '0', ...flags], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '' }, timeout: 10_000 });
    expect(child.status).toBe(2);
    expect(child.stderr.split('\n')[0]).toBe(line);
    expect(child.stderr).not.toMatch(/\n\s+at /);
  });

  test('--auto-lease without --db: one line, exit 2', () => {
    const child = spawnSync(process.execPath, [BIN, 'gateway', '--upstream', `${fixture.upstream.url}/v1`, '--auto-lease', 'off'], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '' }, timeout: 10_000 });
    expect(child.status).toBe(2);
    expect(child.stderr.split('\n')[0]).toBe('isobudget gateway: --auto-lease needs --db URL (gateway replicas on PostgreSQL)');
  });
});
