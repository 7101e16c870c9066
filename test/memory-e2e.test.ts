/**
 * Issue 6 end to end, through the CLI in-process on the shipped examples (simulator):
 * date-parser on val → memory ingest → gate (runs the test split) → review approve →
 * export: SKILL.md carries its provenance. search-leak on val → ingest → `memory search`
 * shows the negative pattern first.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { main } from '../src/cli/main.js';
import type { CliIO } from '../src/cli/io.js';
import { parseFrontMatter } from '../src/memory/front-matter.js';
import { runExperiment } from '../src/runner/run-experiment.js';

const root = join(import.meta.dirname, '..');
const examples = join(root, 'examples');

async function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io: CliIO = { stdout: { write: (t) => void (out += t) }, stderr: { write: (t) => void (err += t) }, env: {}, cwd: root, signal: new AbortController().signal };
  const code = await main(args, io);
  return { code, out, err };
}

describe('memory governance end to end', () => {
  const dir = mkdtempSync(join(tmpdir(), 'isobudget-memory-e2e-'));
  const store = ['--store', join(dir, 'memory.sqlite')];

  test('date-parser: val run → ingest → gate on test → review approve → export with provenance', async () => {
    const val = await runExperiment({ configPath: join(examples, 'date-parser', 'experiment.yaml'), split: 'val', outDir: join(dir, 'runs'), env: {} });
    const ingest = await cli(['memory', 'ingest', val.runDir, ...store]);
    expect(ingest.code).toBe(0);
    expect(ingest.out).toContain(`${val.runId} (val, real_evolution, candidate skill-date-parser-v3)`);
    expect(ingest.out).toContain('mem-date-parser-001 (skill_candidate) created');

    const gate = await cli(['gate', join(examples, 'date-parser', 'experiment.yaml'), '--out', join(dir, 'runs'), ...store]);
    expect(gate.err).not.toContain('internal error');
    expect(gate.code).toBe(20);
    expect(gate.out).toMatch(/1 format\s+passed\s+skill date-parser version 3: front matter valid; no contamination/);
    expect(gate.out).toMatch(/2 regression\s+passed\s+40 regression cases/);
    expect(gate.out).toMatch(/3 significance\s+passed\s+n=1 delta \+0\.\d+, 95% CI \[0\.\d+, 0\.\d+\] on 200 test cases/);
    expect(gate.out).toMatch(/4 budget\s+passed\s+tokens_per_success ×0\.\d\d/);
    expect(gate.out).toMatch(/5 human\s+pending\s+awaiting human review rev-0001/);
    expect(gate.out).toContain('needs a human: new domain: no skill named date-parser has been approved before');
    expect(gate.out).toContain('+- Two-digit years: 00–49 → 20xx, 50–99 → 19xx.');
    const testRun = /test run (bf-\S+)/.exec(gate.out)?.[1];
    expect(testRun).toBeDefined();

    const queue = await cli(['review', ...store]);
    expect(queue.out).toContain('rev-0001  [promotion]  promote skill-date-parser-v3');
    const review = await cli(['review', '--decide', 'rev-0001=approve', '--reviewer', 'ana', '--note', 'same-budget gain holds on test', ...store]);
    expect(review.code).toBe(0);
    expect(review.out).toContain('rev-0001 approved by ana: same-budget gain holds on test — mem-date-parser-001 promoted: skill mem-date-parser-002 v1 (date-parser)');
    expect((await cli(['gate', '--list', ...store])).out).toMatch(/test split [0-9a-f]{12} \(.*date-parser\/data\/test\.jsonl\): used 1 time\n/);
    const shown = await cli(['gate', '--show', 'gate-0001', ...store]);
    expect(shown.out).toMatch(/gate gate-0001 {2}passed/);
    expect(shown.out).toMatch(/5 human\s+passed\s+approved by ana at .*: same-budget gain holds on test/);

    const skills = join(dir, 'skills');
    const exported = await cli(['memory', 'export', '--skills', skills, ...store]);
    expect(exported.out).toContain('1 written, 0 unchanged, 0 removed');
    const doc = parseFrontMatter(readFileSync(join(skills, 'date-parser', 'SKILL.md'), 'utf8'));
    expect(doc.data).toMatchObject({
      name: 'date-parser', version: 3, description: 'Normalize a date written in a common format to ISO 8601 (YYYY-MM-DD).',
      isobudget: { memory_id: 'mem-date-parser-002', verdict: 'real_evolution', source_run: val.runId, run_ids: [val.runId, testRun], budget: 3000, n: 1, base_url: 'sim://local', model: 'sim-small', candidate_id: 'skill-date-parser-v3', baseline_id: 'skill-date-parser-v2', approved_by: 'ana', gate_id: 'gate-0001' },
    });
    expect(doc.body).toContain('- Two-digit years: 00–49 → 20xx, 50–99 → 19xx.');
  });

  test('search-leak: val run → ingest → a negative pattern that memory search shows first', async () => {
    const val = await runExperiment({ configPath: join(examples, 'search-leak', 'experiment.yaml'), split: 'val', outDir: join(dir, 'runs'), env: {} });
    const ingest = await cli(['memory', 'ingest', val.runDir, ...store]);
    expect(ingest.out).toContain('mem-number-search-001 (negative_pattern) created');

    const search = await cli(['memory', 'search', ...store]);
    const lines = search.out.split('\n');
    expect(lines[0]).toMatch(/^NEGATIVE {2}mem-number-search-001 {2}negative_pattern {2}weight 1\.00 {2}skill-number-search-v2: depends on Best-of-N; no gain at the same budget with n=1/);
    expect(lines[1]).toMatch(/do not chase: same-budget n=1 delta [+-]0\.\d+ .*at n=8 delta \+0\.\d+ spending \d+\.\d× the n=1 tokens/);
    expect(search.out).toContain('mem-date-parser-002  skill  weight 1.00');
    const json = JSON.parse((await cli(['memory', 'search', '--json', ...store])).out) as Array<Record<string, unknown>>;
    expect(json[0]).toMatchObject({ memory_id: 'mem-number-search-001', type: 'negative_pattern', negative: true, source_run: val.runId, base_url: 'sim://local', model: 'sim-small', budget: 1500, n: 8, verdict: 'budget_leakage', disposition: 'do_not_promote', pattern: 'depends on Best-of-N; no gain at the same budget with n=1' });
    expect(typeof json[0]?.['bestofn_ratio']).toBe('number');
    const exported = (await cli(['memory', 'export', ...store])).out.trim().split('\n').map((line) => JSON.parse(line) as { negative: boolean });
    expect(exported.map((r) => r.negative)).toEqual([true, false]);
  });
});
