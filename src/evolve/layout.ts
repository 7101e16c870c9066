/**
 * Layout of `evolve/<id>/`:
 *
 *     state.json                 the loop's fixed settings and status (what --resume reads)
 *     calls.jsonl                every proposer call (role: propose)
 *     lineage.json, summary.json, report.html
 *     round-<r>/diagnosis.json, diagnosis.md     the incumbent's failures on train
 *     round-<r>/proposer-input.md                the proposer's whole input (audit)
 *     round-<r>/proposer-request.json            the same as messages, plus the checks' context
 *     round-<r>/proposer-replies.jsonl           every reply, so a resume never asks twice
 *     round-<r>/candidates/v<version>.md         each proposal that passed its checks
 *     round-<r>/<id>-r<r>-diagnose/              the train run (a run directory)
 *     round-<r>/<id>-r<r>-v<version>/            one screening run per candidate (four arms, val)
 */
import { join } from 'node:path';

export interface RoundPaths {
  dir: string;
  diagnosisJson: string;
  diagnosisMd: string;
  proposerInput: string;
  proposerRequest: string;
  proposerReplies: string;
  candidates: string;
}

export interface LoopPaths {
  dir: string;
  state: string;
  calls: string;
  lineage: string;
  summary: string;
  report: string;
  round(r: number): RoundPaths;
}

export function loopPaths(dir: string): LoopPaths {
  return {
    dir,
    state: join(dir, 'state.json'),
    calls: join(dir, 'calls.jsonl'),
    lineage: join(dir, 'lineage.json'),
    summary: join(dir, 'summary.json'),
    report: join(dir, 'report.html'),
    round(r: number): RoundPaths {
      const roundDir = join(dir, `round-${r}`);
      return {
        dir: roundDir,
        diagnosisJson: join(roundDir, 'diagnosis.json'),
        diagnosisMd: join(roundDir, 'diagnosis.md'),
        proposerInput: join(roundDir, 'proposer-input.md'),
        proposerRequest: join(roundDir, 'proposer-request.json'),
        proposerReplies: join(roundDir, 'proposer-replies.jsonl'),
        candidates: join(roundDir, 'candidates'),
      };
    },
  };
}

/** Run ids name their directories and are the memory's provenance: unique per loop and step. */
export function diagnoseRunId(evolveId: string, round: number): string {
  return `${evolveId}-r${round}-diagnose`;
}

export function screenRunId(evolveId: string, round: number, version: string): string {
  return `${evolveId}-r${round}-v${version}`;
}

/** e.g. `ev-20261129-071925-3fa2`: sortable by time, unique within a second. */
export function newEvolveId(now = new Date(), random = Math.random): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `ev-${stamp}-${Math.floor(random() * 0x10000).toString(16).padStart(4, '0')}`;
}
