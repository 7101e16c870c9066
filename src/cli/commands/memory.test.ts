import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { LoadedRun } from '../../memory/ingest-run.js';
import { days, fakeRun, T0, tempStore, type FakeVerdictSpec } from '../../memory/test-support/fixtures.js';
import type { CliIO } from '../io.js';
import { createMemoryCommand } from './memory.js';

/** A run directory on disk (manifest.json + verdict.json), as `memory ingest` reads it. */
function runDir(parent: string, spec: FakeVerdictSpec): string {
  const run: LoadedRun = fakeRun(spec);
  const dir = join(parent, 'runs', spec.run_id);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify(run.manifest));
  writeFileSync(join(dir, 'verdict.json'), JSON.stringify(run.verdict));
  return dir;
}

function harness() {
  const { store, dir, file } = tempStore();
  store.close();
  let now = T0;
  const command = createMemoryCommand({ now: () => now });
  const run = async (...args: string[]): Promise<{ code: number; out: string; err: string }> => {
    let out = '';
    let err = '';
    const io: CliIO = { stdout: { write: (t) => void (out += t) }, stderr: { write: (t) => void (err += t) }, env: {}, cwd: dir, signal: new AbortController().signal };
    const code = await command.run([...args, '--store', file], io);
    return { code, out, err };
  };
  return { dir, run, at: (date: Date) => void (now = date) };
}

describe('isobudget memory', () => {
  test('later runs that contradict a candidate lower its weight, then freeze it; show lists every version; conflicts are listed', async () => {
    const { dir, run, at } = harness();
    expect((await run('ingest', runDir(dir, { run_id: 'bf-1', verdict: 'real_evolution' }))).out).toContain('mem-date-parser-001 (skill_candidate) created');
    at(days(1));
    expect((await run('ingest', runDir(dir, { run_id: 'bf-2', verdict: 'budget_leakage', delta: 0.01, ci95: [-0.03, 0.05] }))).out).toContain('mem-date-parser-002 (negative_pattern) created');
    const conflicts = await run('conflicts');
    expect(conflicts.out).toContain('skill-date-parser-v3');
    expect(conflicts.out).toMatch(/says it works: {6}mem-date-parser-001 \(skill_candidate, active, verdict real_evolution, run bf-1\)/);
    at(days(2));
    const frozen = await run('ingest', runDir(dir, { run_id: 'bf-3', verdict: 'no_gain' }));
    expect(frozen.out).toMatch(/mem-date-parser-001 \(skill_candidate\): contradicted by bf-3 .*weight 0\.48 → 0\.24; frozen/);
    const show = await run('show', 'mem-date-parser-001', '--diff');
    expect(show.out).toContain('mem-date-parser-001  skill_candidate  v3  frozen');
    expect(show.out).toMatch(/v1 .* skill_candidate\/active {2}skill candidate: same-budget n=1 gain on val\n {6}--- skill-date-parser-v2/);
    expect(show.out).toContain('evidence 2026-06-03T00:00:00.000Z: bf-3 (val, no_gain, delta +0.000) contradicts');
    // Frozen records leave search; the negative pattern remains, marked.
    expect((await run('search')).out.split('\n')[0]).toMatch(/^NEGATIVE {2}mem-date-parser-002/);
    expect((await run('search', '--all')).out).toContain('[frozen]');
  });

  test('decay follows the configured half-life; --apply retires what decayed out', async () => {
    const { dir, run, at } = harness();
    expect((await run('config', '--half-life-days', '7')).out).toContain('half-life-days: 7');
    await run('ingest', runDir(dir, { run_id: 'bf-1', verdict: 'real_evolution' }));
    at(days(7));
    expect((await run('decay')).out).toContain('mem-date-parser-001  skill_candidate  weight 0.500');
    at(days(14));
    expect((await run('search')).out).toContain('weight 0.25');
    at(days(35));
    const applied = await run('decay', '--apply');
    expect(applied.out).toContain('retired mem-date-parser-001: decayed to weight 0.031 (< 0.05); not reconfirmed for 35 days (half-life 7 days)');
    expect((await run('search')).out).toBe('no matching active memory\n');
    await expect(run('config', '--half-life-days', '0')).rejects.toThrow('--half-life-days must be positive, got 0');
  });

  test('import-learnings refuses notes missing provenance (exit 2, naming the field) and takes the rest from --from-run', async () => {
    const { dir, run } = harness();
    mkdirSync(join(dir, 'notes', '.learnings'), { recursive: true });
    writeFileSync(join(dir, 'notes', '.learnings', 'tool-loop.md'), '# Tool loop\nRetries hid a timeout.\n');
    const refused = await run('import-learnings', join(dir, 'notes'));
    expect(refused.code).toBe(2);
    expect(refused.err).toContain('refused: memory record from .learnings/tool-loop.md refused: missing provenance fields `source_run`, `base_url`, `model`, `budget`, `n`, `verdict`');
    const from = runDir(dir, { run_id: 'bf-7', verdict: 'no_gain' });
    const imported = await run('import-learnings', join(dir, 'notes'), '--from-run', from);
    expect(imported.code).toBe(0);
    expect(imported.out).toContain('mem-tool-loop-001 v1 (learning) ← .learnings/tool-loop.md');
    expect((await run('search', 'timeout', '--json')).out).toContain('"source_run": "bf-7"');
  });

  test('retire and rollback are new versions; unknown actions are usage errors', async () => {
    const { dir, run } = harness();
    await run('ingest', runDir(dir, { run_id: 'bf-1', verdict: 'real_evolution' }));
    await run('ingest', runDir(dir, { run_id: 'bf-2', verdict: 'no_gain' }));
    expect((await run('rollback', 'mem-date-parser-001', '--reviewer', 'ana')).out).toContain('mem-date-parser-001: rollback to v1 (from v2) by ana');
    expect((await run('retire', 'mem-date-parser-001', '--note', 'superseded', '--reviewer', 'ana')).out).toContain('mem-date-parser-001 v4: retired by ana: superseded');
    await expect(run('frobnicate')).rejects.toThrow("unknown subcommand 'frobnicate'");
  });
});
