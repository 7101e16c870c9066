/**
 * Tokens the loop has spent, read from its ledgers — the only source of truth, so a resumed
 * loop counts what its crashed session billed too: the proposer ledger (`calls.jsonl` at the
 * loop's root) and every run directory's `calls.jsonl` and `interrupted-calls.jsonl` (calls
 * of units a resume re-ran: billed, and kept apart so none is counted twice).
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { OUTCOME_UNKNOWN } from '../ledger/call-intents.js';
import { readJsonl } from '../ledger/jsonl-reader.js';
import type { CallRecord } from '../ledger/records.js';

export type Phase = 'diagnose' | 'propose' | 'screen';

export interface LoopTokens {
  total: number;
  byPhase: Record<Phase, number>;
  /** Tokens per round and phase (round 0: none). */
  byRound: Map<number, Record<Phase, number>>;
  /** Answered calls that reported no usage: their spend is unknown, not 0. */
  callsMissingUsage: number;
  /** Every ledger file read, relative to the loop directory. */
  ledgers: string[];
}

const LEDGER_FILES = ['calls.jsonl', 'interrupted-calls.jsonl'];

export function loopTokens(dir: string): LoopTokens {
  const tokens: LoopTokens = { total: 0, byPhase: { diagnose: 0, propose: 0, screen: 0 }, byRound: new Map(), callsMissingUsage: 0, ledgers: [] };
  const add = (file: string, phase: Phase, fallbackRound: number): void => {
    if (!existsSync(file)) return;
    tokens.ledgers.push(relative(dir, file));
    for (const call of readJsonl<CallRecord>(file).records) {
      const spent = spentBy(call);
      if (spent === undefined) {
        tokens.callsMissingUsage += 1;
        continue;
      }
      if (spent === 0) continue;
      const round = phase === 'propose' ? roundOfCase(call.case_id) ?? fallbackRound : fallbackRound;
      tokens.total += spent;
      tokens.byPhase[phase] += spent;
      const perRound = tokens.byRound.get(round) ?? { diagnose: 0, propose: 0, screen: 0 };
      perRound[phase] += spent;
      tokens.byRound.set(round, perRound);
    }
  };
  for (const name of LEDGER_FILES) add(join(dir, name), 'propose', 0);
  for (const roundName of existsSync(dir) ? readdirSync(dir).sort() : []) {
    const round = /^round-(\d+)$/.exec(roundName)?.[1];
    if (round === undefined) continue;
    const roundDir = join(dir, roundName);
    for (const runName of readdirSync(roundDir).sort()) {
      const runDir = join(roundDir, runName);
      if (!statSync(runDir).isDirectory() || !existsSync(join(runDir, 'manifest.json'))) continue;
      for (const name of LEDGER_FILES) add(join(runDir, name), runName.endsWith('-diagnose') ? 'diagnose' : 'screen', Number(round));
    }
  }
  return tokens;
}

/** Proposer calls carry their round in the case id: `propose-r2`, `repair-r2-p1`. */
export function roundOfCase(caseId: string): number | undefined {
  const round = /-r(\d+)(?:-|$)/.exec(caseId)?.[1];
  return round === undefined ? undefined : Number(round);
}

/** Tokens of one run directory's ledgers (calls and interrupted calls). */
export function runTokens(runDir: string): number {
  let total = 0;
  for (const name of LEDGER_FILES) {
    for (const call of readJsonl<CallRecord>(join(runDir, name)).records) total += spentBy(call) ?? 0;
  }
  return total;
}

/**
 * What a call spent: its billed total; an attempt of unknown outcome (it may have been billed:
 * a timeout, a 5xx, a crash in flight) its reservation; a refused attempt 0; undefined when an
 * answered call reported no usage.
 */
function spentBy(call: CallRecord): number | undefined {
  if (call.note === OUTCOME_UNKNOWN) return call.reserved_tokens ?? call.booked_tokens ?? 0;
  if (call.error !== undefined) return 0;
  return call.total_tokens;
}
