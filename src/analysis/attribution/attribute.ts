/**
 * Attribution of fake evolution (DESIGN §6), pure: runs every detector and lists the
 * findings with their routed actions. History (earlier runs, production feedback) is passed
 * in by the caller, which does the I/O.
 */
import type { ResultRecord } from '../../ledger/records.js';
import type { Analysis } from '../analyze-run.js';
import { bestOfNPosing } from './bestofn-posing.js';
import { bestOfNStreak, type RoundSummary } from './bestofn-streak.js';
import { evalDrift, type EvalDriftInput } from './eval-drift.js';
import type { Finding } from './finding.js';
import { hiddenRegression } from './hidden-regression.js';
import { lengthGaming } from './length-gaming.js';
import { singlePathPairs } from './paired-rows.js';
import { toolRedundancy } from './tool-redundancy.js';

export interface AttributionHistory {
  drift?: EvalDriftInput;
  rounds?: readonly RoundSummary[];
}

export interface Attribution {
  findings: Finding[];
  /** Detectors that flagged something. */
  flags: string[];
}

export function attribute(results: readonly ResultRecord[], analysis: Analysis, history: AttributionHistory = {}): Attribution {
  const findings: Finding[] = [
    lengthGaming(singlePathPairs(results), analysis.settings),
    bestOfNPosing(analysis),
    toolRedundancy(results),
    hiddenRegression(analysis),
  ];
  if (history.drift) findings.push(evalDrift(history.drift));
  if (history.rounds) findings.push(bestOfNStreak(history.rounds));
  return { findings, flags: findings.filter((f) => f.flagged).map((f) => f.detector) };
}
