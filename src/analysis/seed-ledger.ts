/**
 * Reads a ledger written by someone else's script in the seed's record format:
 * `run_id, case_id, arm, n, model, base_url, prompt_tokens, completion_tokens, total_tokens,
 * latency_ms, passed, judge_score`, arms named `baseline_single`, `candidate_single`,
 * `baseline_best_of_<N>`, `candidate_best_of_<N>`.
 *
 * Several rows for one (case, arm) — one per path, or one per retry — aggregate as:
 * tokens summed (everything billed counts toward B); latency the maximum (paths run side by
 * side); `passed` of the row marked `selected: true` if any, else of the LAST row (a retry's
 * final answer); pass@N (oracle) = any row passed; `epoch` keeps repeats of n=1 apart.
 * A row without usage makes that (case, arm) total unknown — never 0.
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { IsobudgetError, IsobudgetErrors } from '../core/errors.js';
import { LEDGER_SCHEMA_VERSION, type ResultRecord } from '../ledger/records.js';

const ARM = /^(baseline|candidate)_(single|best_of_(\d+))$/;

interface SeedRow {
  run_id?: unknown;
  case_id?: unknown;
  arm?: unknown;
  n?: unknown;
  total_tokens?: unknown;
  prompt_tokens?: unknown;
  completion_tokens?: unknown;
  latency_ms?: unknown;
  passed?: unknown;
  judge_score?: unknown;
  category?: unknown;
  epoch?: unknown;
  selected?: unknown;
  split?: unknown;
}

interface Group {
  first: { run_id: string; case_id: string; arm: string; variant: 'baseline' | 'candidate'; n: number; epoch: number; category: string | undefined; split: ResultRecord['split'] };
  rows: number;
  passes: number;
  lastPassed: boolean;
  selectedPassed: boolean | undefined;
  tokens: number | undefined;
  prompt: number | undefined;
  completion: number | undefined;
  missing: number;
  latency: number;
  judge: number | undefined;
}

export async function readSeedLedger(file: string): Promise<ResultRecord[]> {
  const groups = new Map<string, Group>();
  const lines = createInterface({ input: createReadStream(file), crlfDelay: Infinity });
  let line = 0;
  const errors: IsobudgetError[] = [];
  for await (const text of lines) {
    line += 1;
    if (text.trim() === '') continue;
    let row: SeedRow;
    try {
      row = JSON.parse(text) as SeedRow;
    } catch (error) {
      errors.push(new IsobudgetError('ledger_row', `invalid JSON: ${(error as Error).message}`, { location: { file, line } }));
      if (errors.length >= 20) break;
      continue;
    }
    const problem = checkRow(row);
    if (problem) {
      errors.push(new IsobudgetError('ledger_row', problem.message, { location: { file, line, key: problem.key }, hint: 'each row needs case_id, arm (baseline_single, candidate_best_of_8, …) and passed' }));
      if (errors.length >= 20) break;
      continue;
    }
    add(groups, row);
  }
  if (errors.length > 0) throw errors.length === 1 ? errors[0] : new IsobudgetErrors(errors);
  if (groups.size === 0) throw new IsobudgetError('ledger_empty', 'the ledger has no rows', { location: { file } });
  return [...groups.values()].map(toResult);
}

function checkRow(row: SeedRow): { message: string; key: string } | undefined {
  if (typeof row !== 'object' || row === null) return { message: 'a row must be a JSON object', key: '' };
  if (typeof row.case_id !== 'string' && typeof row.case_id !== 'number') return { message: 'case_id is missing', key: 'case_id' };
  if (typeof row.arm !== 'string' || !ARM.test(row.arm)) return { message: `arm ${JSON.stringify(row.arm)} is not baseline_single, candidate_single, baseline_best_of_<N> or candidate_best_of_<N>`, key: 'arm' };
  if (typeof row.passed !== 'boolean' && row.passed !== 0 && row.passed !== 1) return { message: 'passed must be true or false', key: 'passed' };
  return undefined;
}

function add(groups: Map<string, Group>, row: SeedRow): void {
  const arm = row.arm as string;
  const match = ARM.exec(arm) as RegExpExecArray;
  const n = match[3] === undefined ? 1 : Number(match[3]);
  const epoch = typeof row.epoch === 'number' ? row.epoch : 0;
  const caseId = String(row.case_id);
  const split = row.split === 'regression' ? 'regression' : 'val';
  const key = `${split}|${caseId}|${arm}|${epoch}`;
  let group = groups.get(key);
  if (!group) {
    group = {
      first: { run_id: typeof row.run_id === 'string' ? row.run_id : 'external', case_id: caseId, arm, variant: match[1] as 'baseline' | 'candidate', n, epoch, category: typeof row.category === 'string' ? row.category : undefined, split },
      rows: 0, passes: 0, lastPassed: false, selectedPassed: undefined, tokens: 0, prompt: 0, completion: 0, missing: 0, latency: 0, judge: undefined,
    };
    groups.set(key, group);
  }
  const passed = row.passed === true || row.passed === 1;
  group.rows += 1;
  group.passes += passed ? 1 : 0;
  group.lastPassed = passed;
  if (row.selected === true) group.selectedPassed = passed;
  const tokens = typeof row.total_tokens === 'number' ? row.total_tokens : undefined;
  if (tokens === undefined) group.missing += 1;
  group.tokens = group.tokens === undefined || tokens === undefined ? undefined : group.tokens + tokens;
  group.prompt = group.prompt === undefined || typeof row.prompt_tokens !== 'number' ? undefined : group.prompt + row.prompt_tokens;
  group.completion = group.completion === undefined || typeof row.completion_tokens !== 'number' ? undefined : group.completion + row.completion_tokens;
  if (typeof row.latency_ms === 'number') group.latency = Math.max(group.latency, row.latency_ms);
  if (typeof row.judge_score === 'number') group.judge = row.judge_score;
}

function toResult(group: Group): ResultRecord {
  const passed = group.selectedPassed ?? group.lastPassed;
  return {
    schema_version: LEDGER_SCHEMA_VERSION,
    kind: 'result',
    ...group.first,
    passed,
    passed_any: group.passes > 0,
    passes: Math.min(group.passes, group.first.n),
    selected_path: undefined,
    judge_score: group.judge,
    paths: [],
    prompt_tokens: group.prompt,
    completion_tokens: group.completion,
    total_tokens: group.tokens,
    calls_missing_usage: group.missing,
    calls: group.rows,
    retries: 0,
    budget: Number.POSITIVE_INFINITY,
    budget_exhausted: false,
    over_budget: false,
    latency_ms: group.latency,
    ts: '',
  };
}
