/** `isobudget canary assign|analyze` through the real CLI: output shapes and --gate exit codes. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { syntheticEvents, type VariantProfile } from '../src/canary/synthetic-events.js';
import { runCli } from './support/cli.js';

const BASE: VariantProfile = { pass: 0.8, tokens: 1200, latencyMs: 900, negative: 0.05 };

test('assign: one key prints the variant; --keys FILE prints key<TAB>variant; sticky across calls', async () => {
  const one = await runCli(['canary', 'assign', '--fraction', '0.1', '--key', 'user-7']);
  expect(one.code).toBe(0);
  expect(['canary\n', 'control\n']).toContain(one.stdout);
  expect((await runCli(['canary', 'assign', '--fraction', '0.1', '--key', 'user-7'])).stdout).toBe(one.stdout);
  const dir = mkdtempSync(join(tmpdir(), 'isobudget-canary-'));
  writeFileSync(join(dir, 'keys.txt'), 'a\nb\nc\n');
  const many = await runCli(['canary', 'assign', '--fraction', '1', '--keys', 'keys.txt', '--salt', 's1'], { cwd: dir });
  expect(many.stdout).toBe('a\tcanary\nb\tcanary\nc\tcanary\n');
  const json = JSON.parse((await runCli(['canary', 'assign', '--fraction', '0.5', '--key', 'x', '--json'])).stdout) as { bucket: number; salt: string };
  expect(json.bucket).toBeGreaterThanOrEqual(0);
  expect(json.salt).toBe('isobudget-canary');
  expect((await runCli(['canary', 'assign', '--fraction', '2', '--key', 'x'])).code).toBe(2);
});

test('analyze --gate: 11 rollback naming the metric, 0 promote, 10 continue; policy days respected', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'isobudget-canary-'));
  const write = (name: string, days: number, drop: boolean): string => {
    const events = syntheticEvents({ start: '2026-06-01T00:00:00Z', days, perDay: { control: 900, canary: 300 }, profile: { control: BASE, canary: BASE }, override: (day, variant) => (drop && day === 3 && variant === 'canary' ? { pass: 0.5 } : undefined) });
    writeFileSync(join(dir, name), events.map((e) => JSON.stringify(e)).join('\n'));
    return name;
  };
  writeFileSync(join(dir, 'canary.yaml'), 'days: 7\np0:\n  pass_rate_drop: 0.02\n');
  const rollback = await runCli(['canary', 'analyze', write('bad.jsonl', 7, true), '--policy', 'canary.yaml', '--gate'], { cwd: dir });
  expect(rollback.code, rollback.stderr).toBe(11);
  expect(rollback.stdout).toMatch(/decision: ROLLBACK — P0 breach of same_budget_pass_rate(, tokens_per_success)? on day 3 \(2026-06-03\)/);
  const promote = await runCli(['canary', 'analyze', write('good.jsonl', 7, false), '--policy', 'canary.yaml', '--gate'], { cwd: dir });
  expect(promote.code).toBe(0);
  expect(promote.stdout).toContain('decision: PROMOTE');
  writeFileSync(join(dir, 'longer.yaml'), 'days: 14\n');
  const wait = await runCli(['canary', 'analyze', 'good.jsonl', '--policy', 'longer.yaml', '--gate', '--json'], { cwd: dir });
  expect(wait.code).toBe(10);
  expect(JSON.parse(wait.stdout)).toMatchObject({ decision: 'continue', daysObserved: 7 });
  const bad = await runCli(['canary', 'analyze', 'good.jsonl', '--policy', 'nope.yaml'], { cwd: dir });
  expect(bad.code).toBe(2);
});
