/**
 * `isobudget datasets add-failures` as a real process on a copy of an example: production
 * failures land in the splits by a stable hash (±5% of the shares on 1,000 events), never
 * duplicate a case of any split, `sampling` failures go to train only, every change is a new
 * dataset version with a CHANGELOG line, and adding the same events again changes nothing.
 */
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { sha256 } from '../src/core/hash.js';
import { checkSplitOverlap, loadDataset } from '../src/datasets/index.js';
import { runCli } from './support/cli.js';

const EXAMPLE = join(import.meta.dirname, '..', 'examples', 'evolve-date-parser');

function copyExample(): string {
  const dir = mkdtempSync(join(tmpdir(), 'isobudget-add-failures-'));
  cpSync(EXAMPLE, dir, { recursive: true });
  return dir;
}

const pad = (n: number): string => String(n).padStart(2, '0');

/** 1,000 distinct failed tasks, 100 of them retried at n=8 and passed, plus 20 that repeat val cases. */
function events(dir: string): string {
  const val = readFileSync(join(dir, 'data', 'val.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { input: string; expected: string });
  const lines: string[] = [];
  for (let i = 0; i < 1000; i += 1) {
    const day = 1 + (i % 28);
    const month = 1 + (Math.floor(i / 28) % 12);
    const year = 1900 + Math.floor(i / 336);
    const input = `Production request ${i}: convert ${pad(day)}.${pad(month)}.${year} to YYYY-MM-DD`;
    const base = { input, expected: `${year}-${pad(month)}-${pad(day)}`, tokens: 812, latency_ms: 900, budget: 1000, timestamp: '2026-06-01T10:00:00Z', variant: 'canary', case_id: `prod-task-${i}` };
    lines.push(JSON.stringify({ ...base, passed: false, n: 1 }));
    if (i % 10 === 0) lines.push(JSON.stringify({ ...base, passed: true, n: 8 }));
  }
  for (const c of val.slice(0, 20)) lines.push(JSON.stringify({ input: c.input, expected: c.expected, passed: false, n: 1, budget: 1000, tokens: 500, latency_ms: 300 }));
  return `${lines.join('\n')}\n`;
}

interface Report { added: { train: number; val: number; test: number }; sampling: number; duplicates: number; files: Array<{ path: string; sha256_after: string }> }

describe('isobudget datasets add-failures', () => {
  test('hash split within ±5%, no duplicates across splits, sampling only in train, a CHANGELOG line; re-adding adds nothing', async () => {
    const dir = copyExample();
    const eventsFile = join(dir, 'events.jsonl');
    writeFileSync(eventsFile, events(dir));
    const before = Object.fromEntries(['train', 'val', 'test'].map((split) => [split, readFileSync(join(dir, 'data', `${split}.jsonl`), 'utf8')]));
    const first = await runCli(['datasets', 'add-failures', eventsFile, '--experiment', join(dir, 'experiment.yaml'), '--json']);
    expect(first.code, first.stderr).toBe(0);
    const report = JSON.parse(first.stdout) as Report;
    expect(report.duplicates).toBe(20);
    expect(report.sampling).toBe(100);
    const added = report.added.train + report.added.val + report.added.test;
    expect(added).toBe(1000);
    // 900 tasks are split by hash (the 100 sampling ones all go to train).
    expect(Math.abs((report.added.train - 100) / 900 - 0.5)).toBeLessThanOrEqual(0.05);
    expect(Math.abs(report.added.val / 900 - 0.25)).toBeLessThanOrEqual(0.05);
    expect(Math.abs(report.added.test / 900 - 0.25)).toBeLessThanOrEqual(0.05);

    const splits = Object.fromEntries(await Promise.all(['train', 'val', 'test'].map(async (split) => [split, await loadDataset(join(dir, 'data', `${split}.jsonl`), split as 'train')])));
    expect(checkSplitOverlap({ train: splits.train, val: splits.val, test: splits.test })).toEqual([]);
    for (const split of ['val', 'test']) expect(splits[split].filter((c: { tags: string[] }) => c.tags.includes('sampling'))).toEqual([]);
    expect(splits.train.filter((c: { tags: string[] }) => c.tags.includes('sampling'))).toHaveLength(100);
    const row = splits.val.find((c: { id: string }) => c.id.startsWith('prod-'));
    expect(row.metadata.failure).toMatchObject({ budget: 1000, n: 1 });
    // The old rows are untouched; the files are new versions named in the CHANGELOG.
    for (const split of ['train', 'val', 'test']) expect(readFileSync(join(dir, 'data', `${split}.jsonl`), 'utf8').startsWith(before[split] ?? '')).toBe(true);
    const changelog = readFileSync(join(dir, 'data', 'CHANGELOG'), 'utf8').trim().split('\n');
    expect(changelog).toHaveLength(1);
    expect(changelog[0]).toContain(`train.jsonl +${report.added.train} (100 sampling) sha256 ${sha256(before.train ?? '').slice(0, 12)}→`);
    expect(changelog[0]).toContain('dropped 20 duplicate(s)');

    const second = await runCli(['datasets', 'add-failures', eventsFile, '--experiment', join(dir, 'experiment.yaml'), '--json']);
    expect(second.code, second.stderr).toBe(0);
    const again = JSON.parse(second.stdout) as Report;
    expect(again.added).toEqual({ train: 0, val: 0, test: 0 });
    expect(again.duplicates).toBe(1020);
    expect(again.files).toEqual([]);
    expect(readFileSync(join(dir, 'data', 'CHANGELOG'), 'utf8').trim().split('\n')).toHaveLength(1);
    for (const file of report.files) expect(sha256(readFileSync(file.path))).toBe(file.sha256_after);
  });

  test('a bad event line is exit 2 naming the file, line and key, and nothing is written', async () => {
    const dir = copyExample();
    const eventsFile = join(dir, 'bad.jsonl');
    writeFileSync(eventsFile, '{"input":"x","passed":false,"n":1,"budget":100,"expected":"y"}\n{"passed":false,"n":1,"budget":100}\n');
    const val = readFileSync(join(dir, 'data', 'val.jsonl'), 'utf8');
    const result = await runCli(['datasets', 'add-failures', eventsFile, '--experiment', join(dir, 'experiment.yaml')]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${eventsFile}:2: input: missing (required)`);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(readFileSync(join(dir, 'data', 'val.jsonl'), 'utf8')).toBe(val);
  });
});

test('a split read as CSV (or through datasets.fields) is refused before anything is written: appended JSONL would corrupt it', async () => {
  const dir = copyExample();
  const eventsFile = join(dir, 'events.jsonl');
  writeFileSync(eventsFile, events(dir));
  const rows = readFileSync(join(dir, 'data', 'test.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { id: string; input: string; expected: string });
  const csvText = `id,input,expected\n${rows.map((r) => `${r.id},"${r.input}",${r.expected}`).join('\n')}\n`;
  writeFileSync(join(dir, 'data', 'test.csv'), csvText);
  const config = join(dir, 'experiment.yaml');
  writeFileSync(config, readFileSync(config, 'utf8').replace('data/test.jsonl', 'data/test.csv'));
  const result = await runCli(['datasets', 'add-failures', eventsFile, '--experiment', config]);
  expect(result.code).toBe(2);
  expect(result.stderr).toMatch(/experiment\.yaml(:\d+)?: datasets\.test: datasets\.test is not plain JSONL: add-failures appends JSONL rows/);
  expect(readFileSync(join(dir, 'data', 'test.csv'), 'utf8')).toBe(csvText);
});
