import { describe, expect, test } from 'vitest';
import { isAcceptable, pickAccepted, screenConfidence, stopAfterRound, STREAK_MESSAGE, type RoundOutcome } from './decide.js';

describe('the loop\'s decisions', () => {
  test('Bonferroni: each screen\'s interval is at 1 − α/m, m = rounds × candidates', () => {
    expect(screenConfidence(0.05, 10)).toBeCloseTo(0.995, 12);
    expect(screenConfidence(0.05, 15)).toBeCloseTo(1 - 0.05 / 15, 12);
    expect(screenConfidence(0.05, 1)).toBeCloseTo(0.95, 12);
    expect(() => screenConfidence(0.05, 0)).toThrow(RangeError);
    expect(() => screenConfidence(1.2, 3)).toThrow(RangeError);
  });

  test('only real_evolution is acceptable; the round keeps the largest gain', () => {
    expect(['real_evolution', 'budget_growth', 'budget_leakage', 'inconclusive', 'no_gain', 'regression', 'invalid'].filter((v) => isAcceptable(v as never))).toEqual(['real_evolution']);
    expect(pickAccepted([{ verdict: 'no_gain', n1Delta: 0.3, ciLow: 0.1 }, { verdict: 'real_evolution', n1Delta: 0.1, ciLow: 0.02 }, { verdict: 'real_evolution', n1Delta: 0.12, ciLow: 0.01 }])).toBe(2);
    expect(pickAccepted([{ verdict: 'real_evolution', n1Delta: 0.1, ciLow: 0.01 }, { verdict: 'real_evolution', n1Delta: 0.1, ciLow: 0.03 }])).toBe(1);
    expect(pickAccepted([{ verdict: 'budget_leakage', n1Delta: 0, ciLow: 0 }])).toBeUndefined();
  });

  test('stops: rounds used up, stop_after_no_gain dry rounds, the three-round n=N-only streak', () => {
    const round = (accepted: boolean, bestOfNOnly = false): RoundOutcome => ({ accepted, bestOfNOnly });
    const settings = { rounds: 5, stopAfterNoGain: 3 };
    expect(stopAfterRound([round(true), round(false)], settings)).toBeUndefined();
    expect(stopAfterRound([round(true), round(false), round(false), round(false)], settings)?.reason).toBe('no_gain');
    expect(stopAfterRound([round(true), round(true), round(false), round(true), round(true)], settings)?.reason).toBe('rounds');
    const streak = stopAfterRound([round(false, true), round(false, true), round(false, true)], { rounds: 5, stopAfterNoGain: 5 });
    expect(streak).toEqual({ reason: 'bestofn_streak', message: `3 rounds in a row better only at n=N: ${STREAK_MESSAGE}` });
    // An accepted round breaks the streak.
    expect(stopAfterRound([round(false, true), round(true, true), round(false, true)], { rounds: 5, stopAfterNoGain: 5 })).toBeUndefined();
  });
});
