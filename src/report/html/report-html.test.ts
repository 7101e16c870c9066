import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { ResultRecord } from '../../ledger/records.js';
import { armLetter } from './arm-labels.js';
import { attributionSection } from './attribution-section.js';
import { caseBrowserData, outputLimit } from './case-data.js';
import { gunzipSync } from 'node:zlib';
import { createRng } from '../../stats/index.js';
import { escapeHtml } from './escape.js';
import { packCases } from './pack-case-data.js';
import { forestRows } from './forest-chart.js';
import { paretoFrontier, type IsoBudgetPoint } from './iso-budget-data.js';
import { renderReport } from './render-report.js';
import { writeSyntheticRun } from './synthetic-run.js';

const HOSTILE = '</script><script>alert(1)</script><img src=x onerror=alert(2)><!--\u2028';

function result(caseId: string, arm: string, outputs: string[], passed: boolean, extra: Partial<ResultRecord> = {}): ResultRecord {
  const n = outputs.length;
  return {
    schema_version: 1, kind: 'result', run_id: 'r', case_id: caseId, arm, variant: arm.startsWith('baseline') ? 'baseline' : 'candidate', n, epoch: 0, split: 'val', category: 'cat',
    passed, passed_any: passed, passes: passed ? 1 : 0, selected_path: n - 1, judge_score: undefined,
    paths: outputs.map((output, path) => ({ path, output, passed: path === n - 1 ? passed : false, score: 0, finish_reason: 'stop', tokens: 10, error: undefined })),
    prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 * n, calls_missing_usage: 0, calls: 1, retries: 0, budget: 1000, budget_exhausted: false, over_budget: false, latency_ms: 5, ts: '', ...extra,
  };
}

describe('escaping', () => {
  test('HTML text and attributes', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;');
  });

  test('the packed case data is plain base64 (nothing HTML can see) and inflates back exactly', () => {
    const { data, payload } = packCases([result('c1', 'baseline_single', [HOSTILE], true)], new Map([['c1', { input: HOSTILE, expected: '' }]]));
    expect(payload).toMatch(/^[A-Za-z0-9+/]+=*$/);
    expect(JSON.parse(gunzipSync(Buffer.from(payload, 'base64')).toString('utf8'))).toEqual(data);
    expect(data.rows[0]?.a[0]?.o[0]?.[0]).toBe(HOSTILE);
  });

  test('incompressible outputs: the output budget shrinks until the payload fits', () => {
    const rng = createRng(9);
    const noise = (): string => Array.from({ length: 4000 }, () => String.fromCharCode(33 + rng.int(90))).join('');
    const results = Array.from({ length: 200 }, (_, i) => result(`c${i}`, 'baseline_single', [noise()], true));
    const { data, payload } = packCases(results, new Map(), { maxPayload: 400_000 });
    expect(payload.length).toBeLessThanOrEqual(400_000);
    expect(data.outputLimit).toBeLessThan(4000);
  });
});

describe('case browser data', () => {
  test('water-filling keeps short outputs whole and cuts only the long ones', () => {
    expect(outputLimit([10, 10, 1000], 120, 4000)).toBe(100);
    expect(outputLimit([10, 10, 50], 1000, 4000)).toBe(4000);
    expect(outputLimit([100_000], 1000, 4000)).toBe(1000);
  });

  test('identical outputs of the paths merge with their count; the selected one comes first; columns A B C D', () => {
    const results = [
      result('c2', 'baseline_single', ['x'], true),
      result('c2', 'candidate_single', ['y'], false),
      result('c2', 'baseline_best_of_4', ['a', 'b', 'a', 'c'], true),
      result('c2', 'candidate_best_of_4', ['a', 'a', 'a', 'a'], false),
      result('c10', 'baseline_single', ['x'], true),
      result('r1', 'baseline_single', ['x'], true, { split: 'regression' }),
    ];
    const data = caseBrowserData(results, new Map([['c2', { input: 'in', expected: 'out' }]]));
    expect(data.arms.map((a) => a.label)).toEqual(['A', 'B', 'C', 'D']);
    expect(data.roles).toEqual({ a: 0, b: 1, c: 2, d: 3 });
    expect(data.rows.map((r) => r.id)).toEqual(['c2', 'c10', 'r1']);
    const [c2] = data.rows;
    expect(c2?.q).toBe('in');
    expect(c2?.a[2]?.o.map((o) => [o[0], o[1], o[3]])).toEqual([['c', 1, 1], ['a', 2, 0], ['b', 1, 0]]);
    expect(c2?.a[3]?.o).toEqual([['a', 4, 0, 1, 1, null]]);
    expect(data.rows[1]?.a[1]).toBeNull();
  });

  test('a long output is cut and keeps its full length for the note', () => {
    const long = 'z'.repeat(10_000);
    const data = caseBrowserData([result('c1', 'baseline_single', [long], true)], new Map(), { outputBudget: 1_000_000, maxOutput: 500 });
    const entry = data.rows[0]?.a[0]?.o[0];
    expect(entry?.[0]).toHaveLength(500);
    expect(entry?.[4]).toBe(10_000);
    expect(data.truncatedOutputs).toBe(1);
  });
});

describe('charts data', () => {
  test('Pareto frontier: cheaper and at least as good, in token order', () => {
    const p = (label: string, tokens: number, rate: number): IsoBudgetPoint => ({ arm: label, label, variant: 'baseline', n: 1, metric: 'pass@1', product: true, rate, rateLow: rate, rateHigh: rate, tokens, tokensLow: tokens, tokensHigh: tokens });
    expect(paretoFrontier([p('A', 100, 0.5), p('B', 150, 0.7), p('C', 200, 0.6), p('D', 300, 0.8)]).map((x) => x.label)).toEqual(['A', 'B', 'D']);
  });

  test('arm letters follow the seed, with N appended when there are several', () => {
    expect(armLetter({ variant: 'candidate', n: 1 }, [1, 8])).toBe('B');
    expect(armLetter({ variant: 'baseline', n: 8 }, [1, 8])).toBe('C');
    expect(armLetter({ variant: 'candidate', n: 4 }, [1, 4, 8])).toBe('D4');
  });
});

describe('the rendered report', async () => {
  const run = writeSyntheticRun({ dir: mkdtempSync(join(tmpdir(), 'isobudget-report-unit-')), cases: 120, rounds: 200 });
  const hostile = run.results.map((r, i) => (i === 0 ? { ...r, case_id: HOSTILE, category: HOSTILE, paths: r.paths.map((p) => ({ ...p, output: HOSTILE })) } : r));
  const { html, warnings } = await renderReport({ verdict: { ...run.verdict, reason: HOSTILE }, manifest: run.manifest, results: hostile, texts: run.texts, notes: [HOSTILE], generatedAt: new Date('2026-06-02T00:00:00Z') });

  test('has every section, three charts with data marks, and no chart warning', () => {
    for (const heading of ['Pass rate against spend', 'The arms', 'Attribution', 'Regressions', 'Cases']) expect(html).toContain(`<h2>${heading}</h2>`);
    expect(html.match(/<svg /g)).toHaveLength(3);
    expect(html).toContain('class="mark-symbol role-mark');
    expect(html).toContain('class="mark-rect role-mark');
    expect(warnings).toEqual([]);
    expect(forestRows(run.verdict)[0]?.label).toBe('all cases');
  });

  test('is self-contained: no http(s) resource, a CSP that allows no network and only its own script', () => {
    expect(html).not.toMatch(/(src|href)="https?:/);
    expect(html).toMatch(/content="default-src &#39;none&#39;; img-src data:; style-src &#39;unsafe-inline&#39;; script-src &#39;sha256-[A-Za-z0-9+/=]+&#39;/);
  });

  test('escapes every hostile string: only its own two script elements, no injected element', () => {
    expect(html.match(/<script/g)).toHaveLength(2);
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<!--');
    expect(html).toContain('&lt;/script&gt;&lt;script&gt;alert(1)');
  });
});

test('a run without token usage still renders, and says what is missing', async () => {
  const results = ['baseline_single', 'candidate_single'].flatMap((arm) => [result('c1', arm, ['x'], true, { total_tokens: undefined, calls_missing_usage: 1 })]);
  const run = writeSyntheticRun({ dir: mkdtempSync(join(tmpdir(), 'isobudget-report-unit-')), cases: 10, rounds: 100 });
  const verdict = { ...run.verdict, arms: run.verdict.arms.map((a) => ({ ...a, meanTokensPerCase: undefined })), same_budget: null, categories: [], regression_set: null };
  const { html } = await renderReport({ verdict, manifest: undefined, results, texts: new Map(), notes: [], generatedAt: new Date() });
  expect(html).toContain('No arm has known token usage.');
  expect(html).toContain('No token usage was recorded.');
  expect(html).toContain('No same-budget comparison.');
});

describe('attribution section', () => {
  test('flagged findings first, with their action; absent section says how to get one', () => {
    const html = attributionSection({
      findings: [
        { detector: 'length_gaming', flagged: false, applicable: false, summary: 'no judge scores', evidence: {}, cause: null, action: null },
        { detector: 'bestofn_posing', flagged: true, applicable: true, summary: 'gain only at n=8 <b>', evidence: { n: 8, ci: [0.1, 0.2] }, cause: 'leakage', action: 'mark as "Best-of-N only"' },
      ],
      flags: ['bestofn_posing'],
    });
    expect(html.indexOf('bestofn posing')).toBeLessThan(html.indexOf('length gaming'));
    expect(html).toContain('⚑ flagged');
    expect(html).toContain('&lt;b&gt;');
    expect(html).toContain('[0.100, 0.200]');
    expect(attributionSection(undefined)).toContain('no attribution');
  });
});
