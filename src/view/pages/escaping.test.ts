/**
 * The report's hostile corpus against every screen of the viewer: a string that would close
 * a script, open one, start an element with an event handler, open a comment or break a line
 * in JavaScript, in every field a screen shows (case ids, categories, inputs, outputs, errors,
 * memory records, review cards, key tags, loop ids). Each page must keep exactly its own one
 * script and gain no element.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { CallRecord, ResultRecord } from '../../ledger/records.js';
import type { MemoryRecord } from '../../memory/record.js';
import type { ReviewItem } from '../../memory/store/records.js';
import { writeSyntheticRun } from '../../report/html/synthetic-run.js';
import { queryGrid } from '../case-grid.js';
import { renderViewPage, type Screen } from '../layout.js';
import { bundleLinks, liveLinks } from '../links.js';
import { RunSource } from '../run-source.js';
import { casePage } from './case-page.js';
import { evolvePage } from './evolve-page.js';
import { memoryPage, memoryRecordPage } from './memory-page.js';
import { reviewPage } from './review-page.js';
import { runPage } from './run-page.js';
import { runsPage } from './runs-page.js';
import { spendPage } from './spend-page.js';

const HOSTILE = '</script><script>alert(1)</script><img src=x onerror=alert(2)><!--\u2028';

function check(body: string, screen: Screen = 'runs'): void {
  for (const links of [liveLinks, bundleLinks]) {
    const html = renderViewPage({ title: HOSTILE, screen, body, links, token: HOSTILE });
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<!--');
    expect(html).toContain('&lt;/script&gt;&lt;script&gt;alert(1)');
  }
}

describe('every screen escapes the hostile corpus', () => {
  const dir = mkdtempSync(join(tmpdir(), 'isobudget-view-escape-'));
  writeSyntheticRun({ dir: join(dir, 'runs', 'r'), cases: 6, rounds: 20 });
  const file = join(dir, 'runs', 'r', 'results.jsonl');
  const lines = readFileSync(file, 'utf8').trim().split('\n').map((line) => {
    const r = JSON.parse(line) as ResultRecord;
    if (r.case_id !== 'case-00001') return line;
    return JSON.stringify({ ...r, case_id: HOSTILE, category: HOSTILE, paths: r.paths.map((p) => ({ ...p, output: HOSTILE, error: HOSTILE, trajectory: [{ turn: 1, tool: HOSTILE, args_hash: HOSTILE, result_bytes: 1, duration_ms: 1, error: HOSTILE, retry: false }] })) });
  });
  writeFileSync(file, `${lines.join('\n')}\n`);
  const runs = new RunSource(join(dir, 'runs'), dir);
  const load = runs.load('r');
  if (!load?.ok) throw new Error('the synthetic run does not load');
  const run = load.run;

  test('Runs, Run and the case grid', () => {
    check(runsPage(runs.list().map((r) => ({ ...r, experiment: HOSTILE, broken: HOSTILE, ledger_error: HOSTILE })), { experiment: '', verdict: '', since: HOSTILE }, liveLinks, HOSTILE));
    const query = { filter: 'all' as const, search: HOSTILE, page: 0, pageSize: 50 };
    check(runPage(run, '', queryGrid(run.rows, { ...query, search: '' }, run.roles), query, liveLinks), 'run');
    check(runPage(run, '', queryGrid(run.rows, { ...query, search: '' }, run.roles), query, bundleLinks), 'run');
  });

  test('a case, with its calls', () => {
    const call = { arm: 'candidate_single', epoch: 0, path: 0, paths: 1, role: 'generate', model: HOSTILE, attempt: 1, prompt_tokens: 1, completion_tokens: 1, total_tokens: 2, usage_missing: false, max_tokens: 9, cost_usd: null, latency_ms: 1, finish_reason: 'stop', status: 500, error: HOSTILE, note: HOSTILE, case_id: HOSTILE, split: 'val' } as unknown as CallRecord;
    const page = casePage(run, HOSTILE, 'val', [call], liveLinks);
    expect(page).toBeDefined();
    check(page ?? '', 'run');
  });

  test('Memory, a record, Review, Spend and Evolve', () => {
    const record = { memory_id: HOSTILE, type: 'negative_pattern', title: HOSTILE, subject: HOSTILE, status: 'active', status_reason: HOSTILE, weight: 0.5, version: 1, verdict: HOSTILE, same_budget_delta: 0.1, same_budget_ci95: [0, 0.2], budget: 1000, n: 8, model: HOSTILE, base_url: HOSTILE, source: HOSTILE, source_run: HOSTILE, run_ids: [HOSTILE], reason: HOSTILE, skill: null, body: HOSTILE, changelog: HOSTILE } as unknown as MemoryRecord;
    check(memoryPage([record], new Map(), [{ subject: HOSTILE, positive: [record], negative: [record] }], liveLinks, new Set([HOSTILE]), HOSTILE), 'memory');
    check(memoryRecordPage(record, [{ record, diff: `+${HOSTILE}\n-${HOSTILE}`, created_at: HOSTILE }], 0.5, liveLinks, new Set()), 'memory');
    const item = { review_id: HOSTILE, kind: 'promotion', status: 'pending', memory_id: HOSTILE, memory_version: 1, gate_id: HOSTILE, reasons: [HOSTILE], created_at: HOSTILE, updated_at: HOSTILE, card: { title: HOSTILE, diff: `+${HOSTILE}`, same_budget: { delta: 0.1, ci95: [0, 0.2], cases: 9, split: HOSTILE }, tokens_per_success: null, p95_latency_ratio: null, bestofn: null, attribution: [HOSTILE], policy_changes: [HOSTILE], facts: [HOSTILE] } } as unknown as ReviewItem;
    const layer = { gate_id: HOSTILE, layer: 1 as const, name: 'format' as const, status: 'passed' as const, summary: HOSTILE, details: {}, recorded_at: HOSTILE };
    check(reviewPage([{ item, layers: [layer], decisions: [{ review_id: HOSTILE, decision: 'defer', reviewer: HOSTILE, note: HOSTILE, decided_at: HOSTILE }] }], [], liveLinks, true, HOSTILE), 'review');
    check(spendPage({ dir: HOSTILE, keys: [{ id: HOSTILE, budget: 9, spent: 1, tags: { run: HOSTILE }, createdAt: HOSTILE, revoked: false, closed: HOSTILE, overReservation: 1, reserved: 0 }], byDay: [{ group: HOSTILE, calls: 1, tokens: 1, missing: 0, cost: null }], byModel: [], byTag: [], overReservations: [{ ts: HOSTILE, keyId: HOSTILE, model: HOSTILE, reserved: 1, over: 1 }], unreadable: 0 }), 'spend');
    check(evolvePage([{ ok: false, id: HOSTILE, broken: HOSTILE }], liveLinks, HOSTILE), 'evolve');
  });
});
