/**
 * Issue 15 item 4: `runs list`, `runs rm`, and `latest` / a unique id prefix wherever a
 * command takes a run directory.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { writeSyntheticRun } from '../src/report/html/synthetic-run.js';
import { runCli } from './support/cli.js';
import { writeExperiment } from './support/experiment.js';

const OLD = 'bf-20261130-090000-aaaa';
const NEW = 'bf-20261201-135117-4b36';
const BROKEN = 'bf-20261201-140002-dead';
let cwd = '';

/** Two decided runs (synthetic, fast) with their own ids and start times, and one broken run. */
beforeAll(() => {
  cwd = mkdtempSync(join(tmpdir(), 'isobudget-runs-cli-'));
  for (const [id, createdAt] of [[OLD, '2026-11-30T09:00:00.000Z'], [NEW, '2026-12-01T13:51:17.000Z']] as const) {
    const dir = join(cwd, 'runs', id);
    writeSyntheticRun({ dir, cases: 30, rounds: 200 });
    const manifestFile = join(dir, 'manifest.json');
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Record<string, unknown>;
    writeFileSync(manifestFile, JSON.stringify({ ...manifest, run_id: id, created_at: createdAt }));
    const verdictFile = join(dir, 'verdict.json');
    writeFileSync(verdictFile, JSON.stringify({ ...(JSON.parse(readFileSync(verdictFile, 'utf8')) as object), run_id: id }));
  }
  mkdirSync(join(cwd, 'runs', BROKEN));
});

describe('runs list / rm', () => {
  test('lists id, experiment, status, verdict, cases, tokens, cost, age — newest first, the broken run named as such', async () => {
    const table = await runCli(['runs', 'list'], { cwd });
    expect(table.code, table.stderr).toBe(0);
    const lines = table.stdout.split('\n');
    expect(lines[0]).toMatch(/^id\s+experiment\s+status\s+verdict\s+cases\s+tokens\s+cost\s+age$/);
    expect(lines[1]).toMatch(new RegExp(`^${BROKEN}\\s+—\\s+broken\\s`));
    expect(lines[2]).toMatch(new RegExp(`^${NEW}\\s+synthetic-report\\s+complete\\s+\\w+\\s+30\\s`));
    expect(lines[3]).toMatch(new RegExp(`^${OLD}\\s`));
    expect(table.stdout).toContain(`${BROKEN}: broken — empty: the run stopped before its manifest was written; remove it with \`isobudget runs rm ${BROKEN}\``);
    const json = await runCli(['runs', 'list', '--json', '--out', 'runs'], { cwd });
    const runs = JSON.parse(json.stdout) as Array<{ id: string; status: string; verdict: string | null; cases: number | null; cost_usd: number | null }>;
    expect(runs.map((r) => [r.id, r.status])).toEqual([[BROKEN, 'broken'], [NEW, 'complete'], [OLD, 'complete']]);
    expect(runs[1]?.cases).toBe(30);
    expect(runs[1]?.verdict).toEqual(expect.any(String));
    const elsewhere = await runCli(['runs', 'list', '--out', join(cwd, 'runs')], { cwd: '/' });
    expect(elsewhere.stdout).toContain(NEW);
  });

  test('rm removes the broken run and says what it removed; refuses what is not a run', async () => {
    const notes = join(cwd, 'runs', 'my-notes');
    mkdirSync(notes, { recursive: true });
    writeFileSync(join(notes, 'ideas.md'), 'keep');
    const refused = await runCli(['runs', 'rm', 'runs/my-notes'], { cwd });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('not a run directory');
    expect(existsSync(join(notes, 'ideas.md'))).toBe(true);
    const cwdRefused = await runCli(['runs', 'rm', '.'], { cwd });
    expect(cwdRefused.code).toBe(2);
    const removed = await runCli(['runs', 'rm', BROKEN.slice(0, 21)], { cwd });
    expect(removed.code, removed.stderr).toBe(0);
    expect(removed.stdout).toBe(`removed run ${BROKEN} (broken: empty: the run stopped before its manifest was written): ${join(cwd, 'runs', BROKEN)} (it was empty)\n`);
    expect(existsSync(join(cwd, 'runs', BROKEN))).toBe(false);
  });
});

describe('every command that takes a run directory takes latest and a unique id prefix', () => {
  test('analyze, report, ledger show/index, attribute, compare, memory ingest and import-learnings --from-run', async () => {
    const analyze = await runCli(['analyze', 'latest', '--json', '--no-report'], { cwd });
    expect(analyze.code, analyze.stderr).toBe(0);
    expect((JSON.parse(analyze.stdout) as { run_id: string }).run_id).toBe(NEW);
    const report = await runCli(['report', 'bf-20261130', '--out', 'old.html'], { cwd });
    expect(report.code, report.stderr).toBe(0);
    expect(existsSync(join(cwd, 'old.html'))).toBe(true);
    const show = await runCli(['ledger', 'show', 'latest'], { cwd });
    expect(show.code, show.stderr).toBe(0);
    expect(show.stdout).toContain(`run ${NEW}`);
    const index = await runCli(['ledger', 'index', 'bf-20261130-09'], { cwd });
    expect(index.stdout).toContain(join(cwd, 'runs', OLD, 'ledger.sqlite'));
    const attribute = await runCli(['attribute', 'latest', '--json'], { cwd });
    expect(attribute.code, attribute.stderr).toBe(0);
    const compare = await runCli(['compare', 'bf-20261130', 'latest', '--json'], { cwd });
    expect(compare.code, compare.stderr).toBe(0);
    const sides = JSON.parse(compare.stdout) as { a: { runId: string }; b: { runId: string } };
    expect([sides.a.runId, sides.b.runId]).toEqual([OLD, NEW]);
    const ingest = await runCli(['memory', 'ingest', 'latest', '--store', 'memory.sqlite'], { cwd });
    expect(ingest.code, ingest.stderr).toBe(0);
    expect(ingest.stdout).toContain(NEW);
    mkdirSync(join(cwd, 'notes', '.learnings'), { recursive: true });
    writeFileSync(join(cwd, 'notes', '.learnings', 'a.md'), '---\ntitle: dates\n---\nParse ISO dates first.\n');
    const learnings = await runCli(['memory', 'import-learnings', 'notes', '--from-run', 'bf-20261130', '--store', 'memory.sqlite'], { cwd });
    expect(learnings.code, learnings.stderr).toBe(0);
    expect(learnings.stdout).toContain('(learning) ← .learnings/a.md');
    const memory = await runCli(['memory', 'show', 'mem-a-001', '--store', 'memory.sqlite', '--json'], { cwd });
    expect(memory.stdout).toContain(OLD);
  });

  test('an ambiguous prefix is exit 2 listing the matches; an unknown one says how to find runs', async () => {
    for (const command of [['analyze', 'bf-2026'], ['report', 'bf-2026'], ['ledger', 'show', 'bf-2026'], ['attribute', 'bf-2026'], ['compare', 'bf-2026', 'latest'], ['memory', 'ingest', 'bf-2026'], ['run', '--resume', 'bf-2026']]) {
      const result = await runCli(command, { cwd });
      expect(result.code, command.join(' ')).toBe(2);
      expect(result.stderr).toContain(`'bf-2026' matches 2 runs`);
      expect(result.stderr).toContain(`${OLD}, ${NEW}`);
    }
    const unknown = await runCli(['analyze', 'bf-1999'], { cwd });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('isobudget runs list');
  });

  test('run --resume latest continues the newest run', async () => {
    const experiment = writeExperiment({ provider: '{ preset: sim }', cases: 4 });
    const first = await runCli(['run', experiment.configPath, '--run-id', 'bf-20261201-000000-r1', '--quiet', '--no-report', '--sim-latency-scale', '0'], { cwd: experiment.dir });
    expect(first.code, first.stderr).toBe(0);
    const resumed = await runCli(['run', '--resume', 'latest', '--quiet', '--no-report', '--sim-latency-scale', '0'], { cwd: experiment.dir });
    expect(resumed.code, resumed.stderr).toBe(0);
    // The newest run is found; being complete, resuming it is a no-op that says so (issue 15, item 7).
    expect(resumed.stdout).toContain('run bf-20261201-000000-r1 is already complete');
    const manifest = JSON.parse(readFileSync(join(experiment.runsDir, 'bf-20261201-000000-r1', 'manifest.json'), 'utf8')) as { resumed: number };
    expect(manifest.resumed).toBe(0);
  });
});
