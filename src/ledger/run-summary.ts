/**
 * One line of `runs list`: what a run is, how far it got, what it decided and what it spent.
 * Spend is read from the call records (every attempt, judging and interrupted calls
 * included: all of them may have been billed), tokens and USD side by side; unknown usage
 * and unpriced calls are counted, never summed as 0.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readJsonl } from './jsonl-reader.js';
import type { CallRecord } from './records.js';
import type { RunDirEntry } from './run-listing.js';

export interface RunSummary {
  id: string;
  dir: string;
  experiment: string | null;
  /** The manifest's status, or `broken` when there is no usable manifest. */
  status: 'running' | 'complete' | 'interrupted' | 'broken';
  /** Why a broken run is broken. */
  broken: string | null;
  split: string | null;
  /** The verdict in verdict.json, when the run has been decided. */
  verdict: string | null;
  /** Cases in the run's split. */
  cases: number | null;
  /** Tokens billed by every call with usage (tokens). */
  tokens: number;
  /** Calls answered without usage: `tokens` is then a lower bound. */
  calls_missing_usage: number;
  /** USD over every priced call; null when no call has a price. */
  cost_usd: number | null;
  /** Calls with usage but no price (their cost is unknown, not 0). */
  calls_unpriced: number;
  calls: number;
  /** Set when a ledger file could not be read (a damaged line): the spend columns are then incomplete. */
  ledger_error: string | null;
  created_at: string | null;
  /** Seconds since the run started (broken runs: since the directory last changed). */
  age_seconds: number;
}

export function summarizeRun(entry: RunDirEntry, now: Date): RunSummary {
  const manifest = entry.manifest;
  let spend: Spend = { tokens: 0, missing: 0, cost: null, unpriced: 0, calls: 0 };
  let ledgerError: string | null = null;
  try {
    if (manifest) spend = spendOf(entry.dir);
  } catch (error) {
    // One damaged ledger must not hide the other runs.
    ledgerError = error instanceof Error ? error.message : String(error);
  }
  const started = entry.createdAt === undefined ? entry.modifiedMs : Date.parse(entry.createdAt);
  const split = manifest?.split;
  return {
    id: entry.id,
    dir: entry.dir,
    experiment: manifest?.experiment ?? null,
    status: entry.broken !== undefined || !manifest ? 'broken' : manifest.status,
    broken: entry.broken ?? null,
    split: split ?? null,
    verdict: manifest ? verdictOf(entry.dir) : null,
    cases: split === undefined ? null : manifest?.datasets[split]?.cases ?? null,
    tokens: spend.tokens,
    calls_missing_usage: spend.missing,
    cost_usd: spend.cost,
    calls_unpriced: spend.unpriced,
    calls: spend.calls,
    ledger_error: ledgerError,
    created_at: entry.createdAt ?? null,
    age_seconds: Number.isFinite(started) ? Math.max(0, Math.round((now.getTime() - started) / 1000)) : 0,
  };
}

interface Spend {
  tokens: number;
  missing: number;
  cost: number | null;
  unpriced: number;
  calls: number;
}

function spendOf(dir: string): Spend {
  let tokens = 0;
  let missing = 0;
  let cost: number | null = null;
  let unpriced = 0;
  let calls = 0;
  for (const file of ['calls.jsonl', 'interrupted-calls.jsonl']) {
    for (const call of readJsonl<CallRecord>(join(dir, file)).records) {
      calls += 1;
      if (call.usage_missing) missing += 1;
      if (typeof call.total_tokens === 'number') tokens += call.total_tokens;
      if (typeof call.cost_usd === 'number') cost = (cost ?? 0) + call.cost_usd;
      else if (typeof call.total_tokens === 'number') unpriced += 1;
    }
  }
  return { tokens, missing, cost, unpriced, calls };
}

function verdictOf(dir: string): string | null {
  const file = join(dir, 'verdict.json');
  if (!existsSync(file)) return null;
  try {
    const value = JSON.parse(readFileSync(file, 'utf8')) as { verdict?: unknown };
    return typeof value.verdict === 'string' ? value.verdict : null;
  } catch {
    return null;
  }
}
