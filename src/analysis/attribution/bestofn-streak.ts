/**
 * The seed's rule of thumb: a candidate with 3 consecutive rounds of no n=1 gain but an n=N
 * gain — check sampling, retry and tool-call amplification before touching the prompt again.
 */
import { finding, notApplicable, type Finding } from './finding.js';

export interface RoundSummary {
  runId: string;
  createdAt: string;
  n1Significant: boolean;
  nNSignificant: boolean;
}

export const STREAK = 3;

export function bestOfNStreak(history: readonly RoundSummary[]): Finding {
  if (history.length === 0) return notApplicable('bestofn_streak', 'no run history for this candidate');
  const ordered = [...history].sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0));
  let streak = 0;
  for (let i = ordered.length - 1; i >= 0; i -= 1) {
    const round = ordered[i] as RoundSummary;
    if (!round.n1Significant && round.nNSignificant) streak += 1;
    else break;
  }
  return finding(
    'bestofn_streak',
    streak >= STREAK,
    streak >= STREAK
      ? `${streak} consecutive rounds with no n=1 gain but an n=N gain: check sampling, retry and tool-call amplification first`
      : `${streak} consecutive round(s) of n=N-only gain (flag at ${STREAK})`,
    { rounds: ordered.length, streak, runs: ordered.slice(-streak || undefined).map((r) => r.runId).join(', ') },
    'leakage',
  );
}
