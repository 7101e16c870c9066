/**
 * `rescore --allow-calls` on a run whose own scorer is a judge (examples/verbose-judge,
 * embedded simulator): the source's judge calls measured the old scoring, so the new run
 * holds the new judge calls instead of them — never both — the judge selector's recorded
 * `select` calls stay, and the ledgers still add up.
 */
import { readFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { readJsonl } from '../src/ledger/jsonl-reader.js';
import type { CallRecord } from '../src/ledger/records.js';
import { runCli } from './support/cli.js';

const CONFIG = join(import.meta.dirname, '..', 'examples', 'verbose-judge', 'experiment.yaml');

test('a judge run again replaces the source\'s judge calls; select calls and the ledger totals hold', async () => {
  const runs = mkdtempSync(join(tmpdir(), 'isobudget-rescore-judge-'));
  const run = await runCli(['run', CONFIG, '--limit', '4', '--out', runs, '--run-id', 'src', '--quiet']);
  expect(run.stderr).not.toContain('internal error');
  const rescored = await runCli(['rescore', join(runs, 'src'), '--allow-calls', '--out', runs, '--run-id', 'again']);
  expect(rescored.stderr).not.toContain('internal error');
  expect([0, 10, 11]).toContain(rescored.code);
  const calls = (id: string) => readJsonl<CallRecord>(join(runs, id, 'calls.jsonl')).records;
  const roles = (id: string, role: string) => calls(id).filter((c) => c.role === role).length;
  expect(roles('src', 'judge')).toBeGreaterThan(0);
  // The same deterministic judge on the same outputs: as many judge calls as the source, not twice as many.
  expect(roles('again', 'judge')).toBe(roles('src', 'judge'));
  expect(roles('again', 'select')).toBe(roles('src', 'select'));
  expect(roles('again', 'generate')).toBe(roles('src', 'generate'));
  const manifest = JSON.parse(readFileSync(join(runs, 'again', 'manifest.json'), 'utf8')) as { calls?: { committed: number }; events: { message: string }[] };
  expect(manifest.calls?.committed).toBe(calls('again').length);
  expect(manifest.events.at(-1)?.message).toContain(`the judge run again with --allow-calls: ${roles('again', 'judge')} new calls`);
  const verdict = JSON.parse(readFileSync(join(runs, 'again', 'verdict.json'), 'utf8')) as { verdict: string; reason: string };
  expect(verdict.reason).not.toMatch(/ledger|calls\.jsonl/);
  const source = JSON.parse(readFileSync(join(runs, 'src', 'verdict.json'), 'utf8')) as { verdict: string };
  expect(verdict.verdict).toBe(source.verdict);
});
