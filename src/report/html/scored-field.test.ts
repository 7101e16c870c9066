/** The case browser shows the scored field first and the client's raw envelope folded (issue 24 item 8). */
import { expect, test } from 'vitest';
import { LEDGER_SCHEMA_VERSION, type ResultRecord } from '../../ledger/records.js';
import { CASE_BROWSER_SCRIPT } from './case-browser-script.js';
import { caseBrowserData } from './case-data.js';

const CLAUDE_JSON = JSON.stringify({ type: 'result', subtype: 'success', is_error: false, duration_ms: 5210, num_turns: 1, result: '2024-03-01', session_id: 'abc', total_cost_usd: 0.01, usage: { input_tokens: 812, output_tokens: 245 } });

function result(arm: string, output: string): ResultRecord {
  return {
    schema_version: LEDGER_SCHEMA_VERSION, kind: 'result', run_id: 'r', case_id: 'c1', arm, variant: arm.startsWith('baseline') ? 'baseline' : 'candidate', n: 1, epoch: 0, split: 'val', category: undefined,
    passed: true, passed_any: true, passes: 1, selected_path: 0, judge_score: undefined,
    paths: [{ path: 0, output, passed: true, score: 1, finish_reason: 'stop', tokens: 100, error: undefined }],
    prompt_tokens: 80, completion_tokens: 20, total_tokens: 100, calls_missing_usage: 0, calls: 1, retries: 0, budget: 1000, budget_exhausted: false, over_budget: false, latency_ms: 10, ts: '',
  };
}

test('with scorer.output_field each output carries the field it scored; without, none', () => {
  const results = [result('baseline_single', CLAUDE_JSON), result('candidate_single', 'not json')];
  const data = caseBrowserData(results, new Map(), { outputField: 'result' });
  expect(data.outputField).toBe('result');
  expect(data.rows[0]?.a[0]?.o[0]?.[5]).toBe('2024-03-01');
  expect(data.rows[0]?.a[0]?.o[0]?.[0]).toBe(CLAUDE_JSON);
  // Unreadable (not JSON): no scored field; the raw text says why the scorer failed.
  expect(data.rows[0]?.a[1]?.o[0]?.[5]).toBeNull();
  expect(caseBrowserData(results, new Map()).rows[0]?.a[0]?.o[0]?.[5]).toBeNull();
});

test('the browser renders the scored field before a <details> holding the raw output', () => {
  const scored = CASE_BROWSER_SCRIPT.indexOf("'scored field ('");
  const folded = CASE_BROWSER_SCRIPT.indexOf("el('details', 'raw-output')");
  expect(scored).toBeGreaterThan(0);
  expect(folded).toBeGreaterThan(scored);
});
