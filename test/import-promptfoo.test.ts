/**
 * `isobudget import promptfoo` on a results.json written by promptfoo 0.121.20 itself
 * (test/fixtures/promptfoo/README.md), through the built CLI: the run directory it makes reads
 * like any run, and its verdict is the one `analyze --ledger` gives on the same numbers.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { CallRecord, ResultRecord } from '../src/ledger/records.js';
import type { VerdictRecord } from '../src/verdict/record.js';
import { runCli } from './support/cli.js';

const FIXTURE = resolve(import.meta.dirname, 'fixtures/promptfoo/date-parser-results.json');

interface PromptfooRow {
  promptIdx: number;
  testIdx: number;
  success: boolean;
  latencyMs: number;
  testCase: { description: string; metadata?: { category?: string } };
  response?: { tokenUsage?: { prompt?: number; completion?: number; total?: number } };
}

const rows = (JSON.parse(readFileSync(FIXTURE, 'utf8')) as { results: { results: PromptfooRow[] } }).results.results;

function readJsonl<T>(file: string): T[] {
  return readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as T);
}

async function importFixture(file = FIXTURE, extra: string[] = []): Promise<{ dir: string; out: string; code: number | null; stdout: string; stderr: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'isobudget-pf-'));
  const out = join(dir, 'runs', 'pf-1');
  const result = await runCli(['import', 'promptfoo', file, '--out', out, ...extra], { cwd: dir });
  return { dir, out, ...result };
}

describe('import promptfoo', () => {
  test('a real results.json becomes a run: one result per (test, prompt, repeat), usage and latency as promptfoo recorded them', async () => {
    const { out, code, stdout, stderr } = await importFixture();
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toContain('10 cases × 2 epoch(s), skill-date-parser-v2 (baseline) vs skill-date-parser-v3 (candidate), 40 calls (0 without usage)');
    const results = readJsonl<ResultRecord>(join(out, 'results.jsonl'));
    const calls = readJsonl<CallRecord>(join(out, 'calls.jsonl'));
    expect(results).toHaveLength(rows.length);
    expect(calls).toHaveLength(rows.length);
    // Independently of the importer: the k-th row of a test in a column is epoch k.
    const seen = new Map<string, number>();
    for (const row of [...rows].sort((a, b) => a.testIdx - b.testIdx)) {
      const key = `${row.promptIdx}|${row.testCase.description}`;
      const epoch = seen.get(key) ?? 0;
      seen.set(key, epoch + 1);
      const arm = row.promptIdx === 0 ? 'baseline_single' : 'candidate_single';
      const result = results.find((r) => r.case_id === row.testCase.description && r.arm === arm && r.epoch === epoch);
      expect(result).toMatchObject({ passed: row.success, total_tokens: row.response?.tokenUsage?.total, prompt_tokens: row.response?.tokenUsage?.prompt, latency_ms: row.latencyMs, category: row.testCase.metadata?.category, n: 1 });
    }
    expect(Math.max(...results.map((r) => r.epoch))).toBe(1);
    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as { config: { budget: { totalTokensPerCase: unknown } }; imported: Record<string, unknown> };
    expect(manifest.config.budget.totalTokensPerCase).toBeNull();
    expect(manifest.imported).toMatchObject({ tool: 'promptfoo', tool_version: '0.121.20', budget: null });
  });

  test('the imported verdict equals analyze --ledger on the same numbers written as a seed-format ledger', async () => {
    const { dir, out } = await importFixture();
    const imported = await runCli(['analyze', out, '--json', '--no-report']);
    expect(imported.code).toBe(0);
    // The same numbers, from promptfoo's rows (not from the import), in the seed's row format.
    const seen = new Map<string, number>();
    const ledger = [...rows].sort((a, b) => a.testIdx - b.testIdx).map((row) => {
      const key = `${row.promptIdx}|${row.testCase.description}`;
      const epoch = seen.get(key) ?? 0;
      seen.set(key, epoch + 1);
      const usage = row.response?.tokenUsage;
      return { case_id: row.testCase.description, arm: row.promptIdx === 0 ? 'baseline_single' : 'candidate_single', n: 1, epoch, passed: row.success, prompt_tokens: usage?.prompt, completion_tokens: usage?.completion, total_tokens: usage?.total, latency_ms: row.latencyMs, category: row.testCase.metadata?.category };
    });
    // The import's result order, so both bootstraps see the cases in one order.
    const order = readJsonl<ResultRecord>(join(out, 'results.jsonl')).map((r) => `${r.case_id}|${r.arm}|${r.epoch}`);
    ledger.sort((a, b) => order.indexOf(`${a.case_id}|${a.arm}|${a.epoch}`) - order.indexOf(`${b.case_id}|${b.arm}|${b.epoch}`));
    const file = join(dir, 'same-numbers.jsonl');
    writeFileSync(file, `${ledger.map((r) => JSON.stringify(r)).join('\n')}\n`);
    const seed = await runCli(['analyze', '--ledger', file, '--json', '--baseline-id', 'skill-date-parser-v2', '--candidate-id', 'skill-date-parser-v3']);
    expect(seed.code).toBe(0);
    const a = JSON.parse(imported.stdout) as VerdictRecord;
    const b = JSON.parse(seed.stdout) as VerdictRecord;
    expect(a.verdict).toBe('inconclusive');
    expect(a.same_budget).toMatchObject({ budget: null, budget_source: 'unknown' });
    // Everything but the count of per-path outcomes, which a seed ledger does not have (path-errors.ts).
    const pathless = (value: unknown): unknown => JSON.parse(JSON.stringify(value, (key, v: unknown) => (key === 'paths' && typeof v === 'number' ? undefined : v)));
    for (const key of ['verdict', 'reason', 'same_budget', 'bestofn_off', 'bestofn_on', 'arms', 'invariants', 'gates'] as const) expect({ key, value: pathless(a[key]) }).toEqual({ key, value: pathless(b[key]) });
    expect(a.arms.map((arm) => arm.errors.paths)).toEqual([20, 20]);
    const text = await runCli(['analyze', out, '--no-report']);
    expect(text.stdout).toContain('B unknown');
  });

  test('report, compare and analyze --csv read an import like any run', async () => {
    const { dir, out } = await importFixture();
    const report = await runCli(['report', out]);
    expect(report.stderr).toBe('');
    expect(report.code).toBe(0);
    expect(existsSync(join(out, 'report.html'))).toBe(true);
    const html = readFileSync(join(out, 'report.html'), 'utf8');
    expect(html).toContain('B unknown');
    expect(html).not.toContain('B not binding');
    const second = join(dir, 'runs', 'pf-2');
    expect((await runCli(['import', 'promptfoo', FIXTURE, '--out', second])).code).toBe(0);
    const compare = await runCli(['compare', out, second]);
    expect(compare.code).toBe(0);
    expect(compare.stdout).toContain('no case flipped');
    const csv = await runCli(['analyze', out, '--csv']);
    expect(csv.stdout.trimEnd().split('\n')).toHaveLength(1 + rows.length);
    // Memory needs the B its evidence was judged at: an import is refused by name, nothing stored.
    const memory = await runCli(['memory', 'ingest', out, '--store', join(dir, 'memory.sqlite')]);
    expect(memory.code).toBe(2);
    expect(memory.stderr).toContain('was imported from promptfoo, which runs under no token budget B');
  });

  test('zeros with no usage reported are unknown, not 0 tokens', async () => {
    const json = JSON.parse(readFileSync(FIXTURE, 'utf8')) as { results: { results: Array<Omit<PromptfooRow, 'response'> & { response: { tokenUsage: unknown } }> } };
    const first = json.results.results[0];
    if (!first) throw new Error('empty fixture');
    first.response.tokenUsage = { total: 0, prompt: 0, completion: 0, numRequests: 1 };
    const dir = mkdtempSync(join(tmpdir(), 'isobudget-pf-zero-'));
    const file = join(dir, 'results.json');
    writeFileSync(file, JSON.stringify(json));
    const { out, code, stdout } = await importFixture(file);
    expect(code).toBe(0);
    expect(stdout).toContain('40 calls (1 without usage)');
    const result = readJsonl<ResultRecord>(join(out, 'results.jsonl')).find((r) => r.case_id === first.testCase.description && r.arm === 'baseline_single' && r.epoch === 0);
    expect(result).toMatchObject({ calls_missing_usage: 1 });
    expect(result?.total_tokens).toBeUndefined();
    const call = readJsonl<CallRecord>(join(out, 'calls.jsonl'))[0];
    expect(call).toMatchObject({ usage_missing: true });
    expect(call?.total_tokens).toBeUndefined();
  });

  test('--baseline/--candidate pick columns; an id not present gets a did-you-mean and the ids present, exit 2, nothing written', async () => {
    const swapped = await importFixture(FIXTURE, ['--baseline', 'skill-date-parser-v3', '--candidate', 'sim-small/skill-date-parser-v2']);
    expect(swapped.code).toBe(0);
    expect(swapped.stdout).toContain('skill-date-parser-v3 (baseline) vs skill-date-parser-v2 (candidate)');
    const wrong = await importFixture(FIXTURE, ['--baseline', 'skill-date-parser-v4']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain("--baseline skill-date-parser-v4 is not a prompt or provider of this eval; did you mean 'skill-date-parser-v2'?");
    expect(wrong.stderr).toContain('the ids present: skill-date-parser-v2, sim-small');
    expect(wrong.stderr).not.toContain('    at ');
    expect(existsSync(join(wrong.dir, 'runs'))).toBe(false);
  });

  test('bad input: not JSON, another results version, an existing run — exit 2, the file named, nothing half-written', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'isobudget-pf-bad-'));
    const notJson = join(dir, 'broken.json');
    writeFileSync(notJson, '{"results": ');
    const broken = await importFixture(notJson);
    expect(broken.code).toBe(2);
    expect(broken.stderr).toContain(`${notJson}: promptfoo results file is not valid JSON`);
    const v2 = join(dir, 'v2.json');
    writeFileSync(v2, JSON.stringify({ results: { version: 2, prompts: [], results: [] } }));
    const old = await importFixture(v2);
    expect(old.code).toBe(2);
    expect(old.stderr).toContain('results.version: results format version 2 is not supported');
    const first = await importFixture();
    const before = readdirSync(first.out).sort();
    const again = await runCli(['import', 'promptfoo', FIXTURE, '--out', first.out]);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('already exists');
    expect(readdirSync(first.out).sort()).toEqual(before);
    expect(readdirSync(join(first.dir, 'runs'))).toEqual(['pf-1']);
  });
});
