/**
 * A generated year (or any span) of run and gateway ledgers for audit tests and demos:
 * monthly trends in tokens, output length, Best-of-N usage, retries and pass@1 are set by
 * the spec; noise is seeded. Pure: returns records; the caller writes them.
 */
import { LEDGER_SCHEMA_VERSION, type CallRecord, type ResultRecord } from '../ledger/records.js';
import { createRng } from '../stats/index.js';

export interface LedgerTrendSpec {
  /** First month, e.g. '2026-01'. */
  start: string;
  months: number;
  runsPerMonth: number;
  casesPerRun: number;
  /** Gateway sessions per day (0 = no gateway ledger). */
  gatewaySessionsPerDay: number;
  /** Month-over-month multiplicative growth of tokens (e.g. 0.05 = +5%/month). */
  tokenGrowth: number;
  /** Absolute change of pass@1 per month (e.g. 0.02). */
  passSlope: number;
  /** Absolute change of the Best-of-N usage rate per month in the gateway (e.g. 0.02). */
  bestOfNSlope: number;
  /** Change of retries per task per month (e.g. 0.02). */
  retrySlope: number;
  seed?: number;
}

export interface SyntheticRun {
  runId: string;
  results: ResultRecord[];
  calls: CallRecord[];
}

export interface SyntheticLedgers {
  runs: SyntheticRun[];
  /** Gateway call records by day (`YYYY-MM-DD`). */
  gateway: Map<string, CallRecord[]>;
}

const BUDGET = 8000;

export function syntheticLedgers(spec: LedgerTrendSpec): SyntheticLedgers {
  const rng = createRng(spec.seed ?? 3);
  const [year, month] = spec.start.split('-').map(Number) as [number, number];
  const runs: SyntheticRun[] = [];
  const gateway = new Map<string, CallRecord[]>();
  for (let m = 0; m < spec.months; m++) {
    const scale = (1 + spec.tokenGrowth) ** m;
    const pass = Math.min(0.98, 0.6 + spec.passSlope * m);
    const retries = Math.max(0, 0.1 + spec.retrySlope * m);
    for (let r = 0; r < spec.runsPerMonth; r++) {
      const day = 1 + Math.floor(((r + 0.5) * 27) / spec.runsPerMonth);
      const ts = new Date(Date.UTC(year, month - 1 + m, day, 10)).toISOString();
      const runId = `bf-${ts.slice(0, 10)}-${r}`;
      const results: ResultRecord[] = [];
      const calls: CallRecord[] = [];
      for (let c = 0; c < spec.casesPerRun; c++) {
        for (const variant of ['baseline', 'candidate'] as const) {
          const completion = Math.round(200 * scale * Math.exp(0.2 * rng.normal()));
          const prompt = 300;
          const retried = rng.next() < retries ? 1 : 0;
          const base = { schema_version: LEDGER_SCHEMA_VERSION, run_id: runId, case_id: `c${c}`, arm: `${variant}_single`, n: 1, epoch: 0, split: 'val' as const, ts };
          results.push({ ...base, kind: 'result', variant, category: undefined, passed: rng.next() < pass, passed_any: false, passes: 0, selected_path: 0, judge_score: undefined, paths: [], prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion, calls_missing_usage: 0, calls: 1 + retried, retries: retried, budget: BUDGET, budget_exhausted: false, over_budget: false, latency_ms: 1000 });
          calls.push(call({ ...base, completion, prompt, attempt: 1, role: 'generate' }));
        }
      }
      runs.push({ runId, results, calls });
    }
    for (let d = 1; d <= 28 && spec.gatewaySessionsPerDay > 0; d++) {
      const date = new Date(Date.UTC(year, month - 1 + m, d, 12)).toISOString();
      const list: CallRecord[] = [];
      for (let s = 0; s < spec.gatewaySessionsPerDay; s++) {
        const n = rng.next() < Math.min(1, 0.05 + spec.bestOfNSlope * m) ? 4 : 1;
        const turns = 3 + (rng.next() < retries ? 1 : 0);
        for (let t = 0; t < turns; t++) {
          const completion = Math.round(150 * scale * Math.exp(0.2 * rng.normal()));
          list.push(call({ schema_version: LEDGER_SCHEMA_VERSION, run_id: 'gateway', case_id: `session-${date.slice(0, 10)}-${s}`, arm: 'gateway', n, epoch: 0, split: 'val', ts: date, completion, prompt: 800, attempt: t === 3 ? 2 : 1, role: 'gateway' }));
        }
      }
      gateway.set(date.slice(0, 10), list);
    }
  }
  return { runs, gateway };
}

function call(c: { schema_version: number; run_id: string; case_id: string; arm: string; n: number; epoch: number; split: CallRecord['split']; ts: string; completion: number; prompt: number; attempt: number; role: CallRecord['role'] }): CallRecord {
  return {
    schema_version: c.schema_version,
    kind: 'call',
    run_id: c.run_id,
    case_id: c.case_id,
    arm: c.arm,
    n: c.n,
    path: 0,
    paths: 1,
    epoch: c.epoch,
    split: c.split,
    model: 'sim-small',
    base_url: 'sim://local',
    protocol: 'sim',
    prompt_tokens: c.prompt,
    completion_tokens: c.completion,
    total_tokens: c.prompt + c.completion,
    cached_tokens: 0,
    reasoning_tokens: 0,
    usage_missing: false,
    max_tokens: 4096,
    finish_reason: 'stop',
    finish_reason_raw: 'stop',
    latency_ms: 900,
    attempt: c.attempt,
    status: 200,
    role: c.role,
    error: undefined,
    retried: false,
    note: undefined,
    ts: c.ts,
  };
}
