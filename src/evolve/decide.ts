/**
 * The loop's decisions, pure — shared by `isobudget evolve` and `calibrate --evolve`, so the
 * calibration measures the very code that accepts candidates.
 *
 * Multiple testing: screening many edits against one val split and keeping the best is the
 * uncontrolled multiple testing that makes greedy self-improvement loops accept 30–42% false
 * edits (PACE, arXiv 2606.08106). Each screen's gain interval is therefore widened to the
 * Bonferroni level 1 − α/m, where α = 1 − gates.confidence and m = rounds × candidates per
 * round, the most screens the loop may run on its val split (fixed when the loop starts). Why
 * Bonferroni rather than alpha-spending: m is known in advance, so an even split needs no
 * assumption about which round matters most; it holds under any dependence between screens
 * (they share the val cases and their incumbent, and edit each other); a loop that stops early
 * leaves α unspent, which is conservative, never invalid; and each screen's share α/m is a
 * level an anytime-valid sequential screen can be run at unchanged. Since `real_evolution`
 * needs the lower end of a two-sided interval above 0, each screen's one-sided error is
 * α/(2m), and the loop's chance of accepting any no-better edit is at most α/2.
 *
 * Sequential screening (the default, issue 14): the interval at 1 − α/m is the screen's
 * anytime-valid confidence sequence (betting CS, Waudby-Smith & Ramdas 2024), and a sequential
 * `real_evolution` needs it above 0 at the look where the screen stopped. By Ville's inequality
 * P(its lower end ever exceeds a true delta ≤ 0) ≤ α/(2m) whatever the stopping rule, so the
 * union bound gives the same α/2 for the whole loop under optional stopping — with the stops
 * chosen by the data, the incumbents and edits chosen by earlier screens, and the screens
 * sharing the val cases (Bonferroni needs no independence). The gain bound (`gain_confidence`)
 * stays per screen: it bounds accepting an edit whose gain is positive but below
 * min_same_budget_gain, not accepting a no-better one.
 */
import type { EvolveScreening } from '../config/types.js';
import type { VerdictName } from '../verdict/record.js';

/**
 * The loop's family confidence 1 − α: the sequential test's own level when it screens
 * (`sequential.confidence`, default gates.confidence), else gates.confidence.
 */
export function familyConfidence(screening: EvolveScreening, gatesConfidence: number, sequentialConfidence: number | undefined): number {
  return screening === 'sequential' ? (sequentialConfidence ?? gatesConfidence) : gatesConfidence;
}

/** Two-sided confidence of each screen's n=1 gain interval: 1 − α/m (Bonferroni). */
export function screenConfidence(familyAlpha: number, plannedScreens: number): number {
  if (!(familyAlpha > 0 && familyAlpha < 1)) throw new RangeError(`family alpha must be in (0, 1), got ${familyAlpha}`);
  if (!(Number.isInteger(plannedScreens) && plannedScreens >= 1)) throw new RangeError(`planned screens must be a positive integer, got ${plannedScreens}`);
  return 1 - familyAlpha / plannedScreens;
}

/**
 * Bootstrap rounds of a screen's analysis: enough that each tail of the corrected interval
 * (α/(2m) of the resamples) still holds 25 of them, as a 95% interval does with 1,000 rounds
 * (Efron & Tibshirani 1993, ch. 19) — with 2,000 rounds a 99.5% BCa bound would rest on its
 * 5th most extreme resample, and the calibration measured such bounds accepting too often.
 */
export const TAIL_RESAMPLES = 25;

export function screenBootstrapRounds(baseRounds: number, familyAlpha: number, plannedScreens: number): number {
  return Math.max(baseRounds, Math.ceil((TAIL_RESAMPLES * 2 * plannedScreens) / familyAlpha));
}

/** A screened candidate may replace the incumbent only with this verdict (at the corrected level). */
export function isAcceptable(verdict: VerdictName): boolean {
  return verdict === 'real_evolution';
}

export interface ScreenedCandidate {
  verdict: VerdictName;
  n1Delta: number;
  /** Lower end of the corrected gain interval. */
  ciLow: number;
}

/** Index of the candidate that replaces the incumbent: the acceptable one with the largest gain (then the larger lower bound, then the earlier). */
export function pickAccepted(screened: readonly ScreenedCandidate[]): number | undefined {
  let best: number | undefined;
  screened.forEach((candidate, index) => {
    if (!isAcceptable(candidate.verdict)) return;
    const current = best === undefined ? undefined : screened[best];
    if (!current || candidate.n1Delta > current.n1Delta || (candidate.n1Delta === current.n1Delta && candidate.ciLow > current.ciLow)) best = index;
  });
  return best;
}

export interface RoundOutcome {
  accepted: boolean;
  /** Some candidate of the round gained only at n=N (`budget_leakage`). */
  bestOfNOnly: boolean;
}

export type StopReason = 'rounds' | 'no_gain' | 'bestofn_streak' | 'budget_tokens' | 'usage_unknown' | 'interrupted';

export interface Stop {
  reason: StopReason;
  message: string;
}

/** The article's rule of thumb: this many rounds better only at n=N means the budget, not the prompt, is the problem. */
export const BESTOFN_STREAK = 3;

export const STREAK_MESSAGE = 'check sampling, retries and tool calls before tuning the prompt again';

/** Whether the loop stops after the rounds so far (`history`, oldest first). */
export function stopAfterRound(history: readonly RoundOutcome[], settings: { rounds: number; stopAfterNoGain: number }): Stop | undefined {
  const trailing = (test: (round: RoundOutcome) => boolean): number => {
    let count = 0;
    for (let i = history.length - 1; i >= 0 && test(history[i] as RoundOutcome); i -= 1) count += 1;
    return count;
  };
  const streak = trailing((round) => !round.accepted && round.bestOfNOnly);
  if (streak >= BESTOFN_STREAK) return { reason: 'bestofn_streak', message: `${streak} rounds in a row better only at n=N: ${STREAK_MESSAGE}` };
  const dry = trailing((round) => !round.accepted);
  if (dry >= settings.stopAfterNoGain) return { reason: 'no_gain', message: `${dry} round${dry === 1 ? '' : 's'} in a row without an accepted candidate (stop_after_no_gain: ${settings.stopAfterNoGain})` };
  if (history.length >= settings.rounds) return { reason: 'rounds', message: `all ${settings.rounds} rounds run` };
  return undefined;
}
