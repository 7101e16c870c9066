/**
 * `isobudget import inspect BASELINE CANDIDATE` on logs in inspect_ai's format
 * (test/fixtures/inspect/README.md): the `.eval` ZIP and the JSON dump give the same run, and
 * its verdict is the one `analyze --ledger` gives on the same numbers.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { CallRecord, ResultRecord } from '../src/ledger/records.js';
import type { VerdictRecord } from '../src/verdict/record.js';
import { readZipMember, zipMembers } from '../src/import/inspect/zip-reader.js';
import { runCli } from './support/cli.js';

const DIR = resolve(import.meta.dirname, 'fixtures/inspect');

interface Sample {
  id: string;
  epoch: number;
  scores: { match: { value: string } };
  metadata: { category: string };
  total_time: number;
  model_usage: Record<string, { input_tokens: number; output_tokens: number; total_tokens: number; input_tokens_cache_read?: number; total_cost?: number }>;
}

const logOf = (name: string) => JSON.parse(readFileSync(join(DIR, `${name}.json`), 'utf8')) as { samples: Sample[] };

function readJsonl<T>(file: string): T[] {
  return readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as T);
}

async function importLogs(baseline: string, candidate: string, extra: string[] = []) {
  const dir = mkdtempSync(join(tmpdir(), 'isobudget-inspect-'));
  const out = join(dir, 'runs', 'inspect-1');
  const result = await runCli(['import', 'inspect', baseline, candidate, '--out', out, ...extra], { cwd: dir });
  return { dir, out, ...result };
}

describe('import inspect', () => {
  test('.eval and .json logs import to the same results; usage, cache reads, cost and epochs as the logs say; zeros are unknown', async () => {
    const zipped = await importLogs(join(DIR, 'baseline.eval'), join(DIR, 'candidate.eval'));
    expect(zipped.stderr).toBe('');
    expect(zipped.code).toBe(0);
    expect(zipped.stdout).toContain('8 cases × 2 epoch(s), openai/gpt-4o-mini (baseline) vs openai/gpt-4o (candidate), 32 calls (2 without usage)');
    const dumped = await importLogs(join(DIR, 'baseline.json'), join(DIR, 'candidate.json'));
    expect(dumped.code).toBe(0);
    const strip = (records: ResultRecord[]) => records.map(({ ts: _ts, run_id: _run, ...rest }) => rest).sort((a, b) => `${a.arm}${a.case_id}${a.epoch}`.localeCompare(`${b.arm}${b.case_id}${b.epoch}`));
    const results = readJsonl<ResultRecord>(join(zipped.out, 'results.jsonl'));
    expect(strip(results)).toEqual(strip(readJsonl<ResultRecord>(join(dumped.out, 'results.jsonl'))));
    for (const [variant, arm] of [['baseline', 'baseline_single'], ['candidate', 'candidate_single']] as const) {
      for (const sample of logOf(variant).samples) {
        const result = results.find((r) => r.arm === arm && r.case_id === sample.id && r.epoch === sample.epoch - 1);
        const usage = Object.values(sample.model_usage)[0];
        if (!usage) throw new Error('no usage');
        const known = usage.total_tokens > 0;
        expect(result).toMatchObject({ passed: sample.scores.match.value === 'C', category: sample.metadata.category, latency_ms: Math.round(sample.total_time * 1000), calls_missing_usage: known ? 0 : 1 });
        // inspect's input_tokens excludes cache reads: the prompt is both.
        expect(result?.prompt_tokens).toBe(known ? usage.input_tokens + (usage.input_tokens_cache_read ?? 0) : undefined);
        expect(result?.total_tokens).toBe(known ? usage.total_tokens : undefined);
        expect(result?.cost_usd ?? null).toBe(known && usage.total_cost !== undefined ? usage.total_cost : null);
      }
    }
    const calls = readJsonl<CallRecord>(join(zipped.out, 'calls.jsonl'));
    expect(calls.filter((c) => c.cached_tokens === 128)).toHaveLength(14);
  });

  test('the imported verdict equals analyze --ledger on the same numbers', async () => {
    const { dir, out } = await importLogs(join(DIR, 'baseline.eval'), join(DIR, 'candidate.eval'));
    const imported = await runCli(['analyze', out, '--json', '--no-report']);
    expect(imported.code).toBe(0);
    const order = readJsonl<ResultRecord>(join(out, 'results.jsonl')).map((r) => `${r.arm}|${r.case_id}|${r.epoch}`);
    const rows = (['baseline', 'candidate'] as const).flatMap((variant) =>
      logOf(variant).samples.map((s) => {
        const usage = Object.values(s.model_usage)[0];
        const known = usage !== undefined && usage.total_tokens > 0;
        return {
          case_id: s.id, arm: `${variant}_single`, n: 1, epoch: s.epoch - 1, passed: s.scores.match.value === 'C', category: s.metadata.category, latency_ms: Math.round(s.total_time * 1000),
          ...(known ? { prompt_tokens: usage.input_tokens + (usage.input_tokens_cache_read ?? 0), completion_tokens: usage.output_tokens, total_tokens: usage.total_tokens } : {}),
          ...(known && usage.total_cost !== undefined ? { cost_usd: usage.total_cost } : {}),
        };
      }),
    );
    rows.sort((a, b) => order.indexOf(`${a.arm}|${a.case_id}|${a.epoch}`) - order.indexOf(`${b.arm}|${b.case_id}|${b.epoch}`));
    const file = join(dir, 'same-numbers.jsonl');
    writeFileSync(file, `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`);
    const seed = await runCli(['analyze', '--ledger', file, '--json', '--baseline-id', 'openai/gpt-4o-mini', '--candidate-id', 'openai/gpt-4o']);
    expect(seed.code).toBe(0);
    const a = JSON.parse(imported.stdout) as VerdictRecord;
    const b = JSON.parse(seed.stdout) as VerdictRecord;
    expect(a.same_budget).toMatchObject({ budget: null, budget_source: 'unknown' });
    // Whatever a ledger with unknown B may reach (i24-inputs caps it at inconclusive), an import reaches the same.
    const pathless = (value: unknown): unknown => JSON.parse(JSON.stringify(value, (key, v: unknown) => (key === 'paths' && typeof v === 'number' ? undefined : v)));
    for (const key of ['verdict', 'reason', 'same_budget', 'bestofn_off', 'arms', 'invariants'] as const) expect({ key, value: pathless(a[key]) }).toEqual({ key, value: pathless(b[key]) });
  });

  test('a sample with an error fails for that reason; a missing scorer and a single log are clear errors, nothing written', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'isobudget-inspect-bad-'));
    const log = JSON.parse(readFileSync(join(DIR, 'candidate.json'), 'utf8')) as { samples: Array<Record<string, unknown>> };
    const first = log.samples[0] as Record<string, unknown>;
    first.error = { message: 'RuntimeError: sandbox died', traceback: '…' };
    const file = join(dir, 'candidate-error.json');
    writeFileSync(file, JSON.stringify(log));
    const errored = await importLogs(join(DIR, 'baseline.json'), file);
    expect(errored.code).toBe(0);
    const result = readJsonl<ResultRecord>(join(errored.out, 'results.jsonl')).find((r) => r.arm === 'candidate_single' && r.case_id === 'date-01' && r.epoch === 0);
    expect(result).toMatchObject({ passed: false, paths: [{ finish_reason: 'error', error: 'RuntimeError: sandbox died' }] });

    const scorer = await importLogs(join(DIR, 'baseline.eval'), join(DIR, 'candidate.eval'), ['--scorer', 'includes']);
    expect(scorer.code).toBe(2);
    expect(scorer.stderr).toContain('has no score from includes');
    expect(scorer.stderr).toContain('the scorers present: match');
    expect(existsSync(join(scorer.dir, 'runs'))).toBe(false);

    const one = await runCli(['import', 'inspect', join(DIR, 'baseline.eval')]);
    expect(one.code).toBe(2);
    expect(one.stderr).toContain('pass two logs');
  });

  test('a damaged .eval (truncated, a flipped byte) is an error naming the file, never a crash', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'isobudget-inspect-zip-'));
    const bytes = readFileSync(join(DIR, 'baseline.eval'));
    const truncated = join(dir, 'truncated.eval');
    writeFileSync(truncated, bytes.subarray(0, bytes.length - 30));
    const cut = await importLogs(truncated, join(DIR, 'candidate.eval'));
    expect(cut.code).toBe(2);
    expect(cut.stderr).toContain(`${truncated}: the .eval archive`);
    // A flipped byte inside a deflated member: its CRC (or inflate) says so.
    const members = zipMembers(bytes, 'baseline.eval');
    const header = members.find((m) => m.name === 'header.json');
    if (!header) throw new Error('no header.json');
    expect(JSON.parse(readZipMember(bytes, header, 'baseline.eval', { left: 1 << 24 }).toString('utf8'))).toMatchObject({ version: 2, eval: { model: 'openai/gpt-4o-mini' } });
    const flipped = Buffer.from(bytes);
    const at = header.localOffset + 30 + header.name.length + 10;
    flipped[at] = (flipped[at] ?? 0) ^ 0xff;
    const damagedFile = join(dir, 'flipped.eval');
    writeFileSync(damagedFile, flipped);
    const damaged = await importLogs(damagedFile, join(DIR, 'candidate.eval'));
    expect(damaged.code).toBe(2);
    expect(damaged.stderr).toMatch(/member header\.json (fails its CRC-32|does not inflate)/);
    expect(damaged.stderr).not.toContain('    at ');
  });
});
