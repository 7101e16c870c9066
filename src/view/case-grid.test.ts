import { describe, expect, test } from 'vitest';
import type { PathOutcome, ResultRecord } from '../ledger/records.js';
import { armRoles, gridRows, queryGrid } from './case-grid.js';

function result(caseId: string, arm: string, n: number, epoch: number, passed: boolean, extra: Partial<PathOutcome> = {}, passedAny = passed): ResultRecord {
  const path: PathOutcome = { path: 0, output: `out ${caseId} ${arm}`, passed, score: passed ? 1 : 0, finish_reason: 'stop', tokens: 10, error: undefined, ...extra };
  return {
    schema_version: 1, kind: 'result', run_id: 'r', case_id: caseId, arm, variant: arm.startsWith('candidate') ? 'candidate' : 'baseline', n, epoch, split: 'val', category: 'c',
    passed, passed_any: passedAny, passes: passed ? 1 : 0, selected_path: 0, judge_score: undefined, paths: [path], prompt_tokens: 5, completion_tokens: 5, total_tokens: 10, cost_usd: 0.001,
  } as ResultRecord;
}

const arms = [
  { arm: 'baseline_single', n: 1, variant: 'baseline' },
  { arm: 'candidate_single', n: 1, variant: 'candidate' },
  { arm: 'baseline_best_of_4', n: 4, variant: 'baseline' },
  { arm: 'candidate_best_of_4', n: 4, variant: 'candidate' },
];

describe('case grid', () => {
  const results = [
    // won at n=1 over 3 epochs: baseline 1/3, candidate 3/3
    ...[0, 1, 2].map((e) => result('won', 'baseline_single', 1, e, e === 0)),
    ...[0, 1, 2].map((e) => result('won', 'candidate_single', 1, e, true)),
    // lost, and candidate passes only with Best-of-N
    result('lost', 'baseline_single', 1, 0, true),
    result('lost', 'candidate_single', 1, 0, false, { finish_reason: 'length' }),
    result('lost', 'candidate_best_of_4', 4, 0, true),
    // an error and a budget stop
    result('odd', 'baseline_single', 1, 0, false, { error: 'HTTP 500', finish_reason: 'error' as PathOutcome['finish_reason'] }),
    result('odd', 'candidate_single', 1, 0, false, { finish_reason: 'budget_exhausted' }),
  ];
  const rows = gridRows(results, new Map([['won', 'What is the ISO week of 2026-12-02?']]));
  const roles = armRoles(arms);
  const ids = (filter: Parameters<typeof queryGrid>[1]['filter'], search = ''): string[] => queryGrid(rows, { filter, search, page: 0, pageSize: 10 }, roles).rows.map((r) => r.caseId);

  test('epochs fold into k/n per arm', () => {
    const won = rows.find((r) => r.caseId === 'won');
    expect([won?.cells.get('baseline_single')?.passed, won?.cells.get('baseline_single')?.runs]).toEqual([1, 3]);
    expect(won?.cells.get('candidate_single')?.tokens).toBe(30);
    expect(won?.cells.get('candidate_single')?.costUsd).toBeCloseTo(0.003, 12);
  });

  test('each filter selects exactly its cases; search reads ids, inputs and outputs', () => {
    expect(roles).toEqual({ baselineSingle: 'baseline_single', candidateSingle: 'candidate_single', candidateBest: 'candidate_best_of_4' });
    expect(ids('all')).toEqual(['won', 'lost', 'odd']);
    expect(ids('won')).toEqual(['won']);
    expect(ids('regressions')).toEqual(['lost']);
    expect(ids('bon_only')).toEqual(['lost']);
    expect(ids('errors')).toEqual(['odd']);
    expect(ids('budget_exhausted')).toEqual(['odd']);
    expect(ids('length')).toEqual(['lost']);
    expect(ids('all', 'ISO WEEK')).toEqual(['won']);
    expect(ids('all', 'out odd')).toEqual(['odd']);
  });

  test('paging clamps to the last page and counts every match', () => {
    const page = queryGrid(rows, { filter: 'all', search: '', page: 9, pageSize: 2 }, roles);
    expect([page.page, page.pages, page.matching, page.rows.map((r) => r.caseId)]).toEqual([1, 2, 3, ['odd']]);
  });

  test('unknown usage stays unknown, never 0', () => {
    const unknown = gridRows([{ ...result('u', 'baseline_single', 1, 0, true), total_tokens: undefined, cost_usd: null }, result('u', 'baseline_single', 1, 1, true)], new Map());
    expect(unknown[0]?.cells.get('baseline_single')?.tokens).toBeUndefined();
    expect(unknown[0]?.cells.get('baseline_single')?.costUsd).toBeNull();
  });
});
