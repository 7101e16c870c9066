/**
 * Issue 24, clusters: the dataset's `cluster` (also through `datasets.fields.cluster`) and the
 * ledger's `cluster` drive the intervals; `validate` warns when near-duplicate inputs suggest
 * clusters nobody declared.
 */
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { runCli } from './support/cli.js';

const DATE_PARSER = join(import.meta.dirname, '..', 'examples', 'date-parser');

/** A copy of date-parser whose val split has its first 40 rows' inputs repeated under new ids. */
function withDuplicates(edit: (row: Record<string, unknown>, i: number) => Record<string, unknown> = (row) => row, yaml: (text: string) => string = (text) => text): string {
  const dir = mkdtempSync(join(tmpdir(), 'isobudget-clusters-'));
  cpSync(DATE_PARSER, dir, { recursive: true });
  const val = join(dir, 'data', 'val.jsonl');
  const rows = readFileSync(val, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
  const copies = rows.slice(0, 40).map((row) => ({ ...row, id: `${String(row.id)}-copy`, input: `${String(row.input)}\u200b` }));
  writeFileSync(val, `${[...rows, ...copies].map((row, i) => JSON.stringify(edit(row, i))).join('\n')}\n`);
  const config = join(dir, 'experiment.yaml');
  writeFileSync(config, yaml(readFileSync(config, 'utf8')));
  return config;
}

test('validate warns about near-duplicates (NFKC, zero-width spaces) without a cluster field; --strict exits 2', async () => {
  const config = withDuplicates();
  const plain = await runCli(['validate', config]);
  expect(plain.code, plain.stderr).toBe(0);
  expect(plain.stderr).toMatch(/warning: .*val\.jsonl: cluster: 80 of 240 val cases are near-duplicates of another \(40 groups, e\.g\. `date-val-0001`, `date-val-0001-copy`\)/);
  expect(plain.stderr).toContain('datasets.fields.cluster');
  expect((await runCli(['validate', config, '--strict'])).code).toBe(2);
});

test('datasets.fields.cluster declares the clusters: no warning', async () => {
  const config = withDuplicates((row) => ({ ...row, meta: { doc: String(row.id).replace(/-copy$/, '') } }), (text) => text.replace('regression: data/regression.jsonl }', 'regression: data/regression.jsonl, fields: { cluster: meta.doc } }'));
  const result = await runCli(['validate', config]);
  expect(result.code, result.stderr).toBe(0);
  expect(result.stderr).not.toContain('near-duplicates');
  expect(readFileSync(config, 'utf8')).toContain('fields: { cluster: meta.doc }');
});

test('analyze --ledger reads the cluster field: a clustered score interval and its design effect', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'isobudget-clusters-ledger-'));
  const file = join(dir, 'ledger.jsonl');
  const rows: string[] = [];
  // 100 cases in 10 documents of 10 questions; the candidate wins every question of 2 documents.
  for (let i = 0; i < 100; i += 1) {
    const doc = Math.floor(i / 10);
    for (const [arm, passed] of [['baseline_single', i % 2 === 0], ['candidate_single', i % 2 === 0 || doc < 2]] as const) {
      rows.push(JSON.stringify({ case_id: `q${i}`, arm, n: 1, total_tokens: 500, latency_ms: 100, passed, cluster: doc, budget: 2000 }));
    }
  }
  writeFileSync(file, `${rows.join('\n')}\n`);
  const clustered = JSON.parse((await runCli(['analyze', '--ledger', file, '--json'])).stdout) as { verdict: string; same_budget: { ci_method: string; clusters: number; design_effect: number; ci95: [number, number] } };
  expect(clustered.same_budget).toMatchObject({ ci_method: 'tango-score-clustered', clusters: 10 });
  expect(clustered.same_budget.design_effect).toBeGreaterThan(1);
  expect(clustered.verdict).not.toBe('real_evolution');
  // The same ledger without the field: ten independent-looking wins per document, "real".
  writeFileSync(file, `${rows.map((row) => row.replace(/,"cluster":\d+/, '')).join('\n')}\n`);
  const independent = JSON.parse((await runCli(['analyze', '--ledger', file, '--json'])).stdout) as { verdict: string; same_budget: { ci_method: string } };
  expect(independent.same_budget.ci_method).toBe('tango-score');
  expect(independent.verdict).toBe('real_evolution');
});
