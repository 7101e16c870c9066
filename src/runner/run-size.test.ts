/**
 * The size of a run before it starts (issue 25, item 2), checked against closed forms: the
 * seed article's YAML on a 200-case val split is 6 arms × 200 cases × B = 200,000 →
 * 240,000,000 tokens, ≈ $2,400 at gpt-4o's dearer (output) price of $10 per million.
 */
import { describe, expect, test } from 'vitest';
import { parseConfigText } from '../config/index.js';
import type { EvalCase } from '../core/case.js';
import { buildPriceTable } from '../pricing/build-table.js';
import { formatUsd } from '../pricing/format-usd.js';
import type { CallRecord } from '../ledger/records.js';
import { planUnits } from './plan.js';
import { RunCap } from './run-cap.js';
import { describeRunSize, expectedSpend, sizeRun, unitWorstCase } from './run-size.js';

const SEED = `experiment: budget_fairness_best_of_n
provider: { base_url: https://taotoken.net/api, api_key_env: TAOTOKEN_API_KEY }
models: { candidate: gpt-4o, judge: gpt-4o }
budget: { total_tokens_per_case: 200000, per_case_max_tokens: 4096, best_of_n: [1, 4, 8] }
datasets: { val: eval/val.jsonl }
`;

function cases(count: number): EvalCase[] {
  return Array.from({ length: count }, (_, i) => ({ id: `c${i}`, input: 'q', messages: undefined, expected: 'x', reference: undefined, category: undefined, tags: [], cluster: undefined, metadata: {}, source: { file: 'v.jsonl', line: i + 1 } }));
}

describe('sizeRun', () => {
  test('the article\'s config on 200 cases: 240,000,000 tokens ≈ $2,400 at gpt-4o prices', () => {
    const config = parseConfigText(SEED, '/x/experiment.yaml');
    const units = planUnits({ split: 'val', cases: cases(200), regressionCases: [], bestOfN: config.budget.bestOfN, epochs: config.epochs });
    const size = sizeRun(config, units, buildPriceTable({ config: config.pricing, file: undefined }));
    expect(size.units).toBe(1200);
    expect(size.worstCaseTokens).toBe(240_000_000);
    expect(size.worstCaseUsd).toBeCloseTo(2400, 6);
    const line = describeRunSize(size, expectedSpend({ runId: 'bf-1', tokens: 31_000_000, units: 1200 }, 1200), formatUsd);
    expect(line).toContain('worst case 240,000,000 tokens ≈ $2,400.00 at gpt-4o prices; expected ≈ 31M (from run bf-1)');
  });

  test('a judge scorer outside B adds its calls: n × (max_tokens + the graded answer’s cap + the prompt allowance)', () => {
    const config = parseConfigText(`${SEED}scorer: { type: judge, model: gpt-4o, max_tokens: 500 }\n`, '/x/experiment.yaml');
    const [unit] = planUnits({ split: 'val', cases: cases(1), regressionCases: [], bestOfN: [4], epochs: 1 }).filter((u) => u.arm.n === 4);
    if (unit === undefined) throw new Error('no n=4 unit');
    // ⌊200,000 / 4⌋ = 50,000 > 4,096: each answer is capped at 4,096.
    expect(unitWorstCase(config, unit, buildPriceTable({ config: config.pricing, file: undefined })).tokens).toBe(200_000 + 4 * (500 + 4096 + 2000));
  });
});

describe('RunCap', () => {
  const call = (total: number | undefined, cost: number | null = null): CallRecord => ({ total_tokens: total, cost_usd: cost, max_tokens: 100 }) as unknown as CallRecord;

  test('reserves worst cases, settles to what was billed, and stops before the next could cross', () => {
    const cap = new RunCap({ maxTotalTokens: 10_000, maxCostUsd: undefined }, { tokens: 1_000, usd: 0 });
    const a = cap.reserve({ tokens: 4_000, usd: 0, calls: 1 });
    const b = cap.reserve({ tokens: 4_000, usd: 0, calls: 1 });
    expect(a && b).toBeTruthy();
    // 1,000 spent + 8,000 reserved + 4,000 > 10,000.
    expect(cap.reserve({ tokens: 4_000, usd: 0, calls: 1 })).toBeUndefined();
    expect(cap.stopReason).toContain('max_total_tokens 10,000');
  });

  test('a call without usage keeps its unit’s whole reservation as spent (unknown is not zero)', () => {
    const cap = new RunCap({ maxTotalTokens: 10_000, maxCostUsd: undefined }, { tokens: 0, usd: 0 });
    const known = cap.reserve({ tokens: 3_000, usd: 0, calls: 2 });
    if (!known) throw new Error('reserve failed');
    cap.settle(known, [call(120), call(80)]);
    expect(cap.tokens).toBe(200);
    const unknown = cap.reserve({ tokens: 3_000, usd: 0, calls: 2 });
    if (!unknown) throw new Error('reserve failed');
    cap.settle(unknown, [call(120), call(undefined)]);
    expect(cap.tokens).toBe(3_200);
  });

  test('a USD cap reserves the worst cost and settles to the calls’ cost', () => {
    const cap = new RunCap({ maxTotalTokens: undefined, maxCostUsd: 1 }, { tokens: 0, usd: 0.5 });
    const first = cap.reserve({ tokens: 1_000, usd: 0.3, calls: 1 });
    if (!first) throw new Error('reserve failed');
    expect(cap.reserve({ tokens: 1_000, usd: 0.3, calls: 1 })).toBeUndefined();
    expect(cap.stopReason).toContain('max_cost_usd 1');
  });
});
