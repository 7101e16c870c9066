/**
 * Sequential screening of one paired comparison (issue 14), pure: the anytime-valid tests a
 * screening run reads after each block of cases, and the stop rule over them.
 *
 * Each case gives a paired difference d ∈ [−1, 1] (candidate pass − baseline pass, means over
 * epochs), mapped to x = (d + 1)/2 ∈ [0, 1] for the betting bounds of `betting-cs.ts`
 * (Waudby-Smith & Ramdas 2024). Four one-sided capital processes watch one comparison:
 *
 * | evidence      | side  | at m       | miscoverage a            | reads as                          |
 * |---------------|-------|------------|--------------------------|-----------------------------------|
 * | `aboveZero`   | lower | d = 0      | (1 − confidence)/2       | the two-sided CS lies above 0     |
 * | `belowZero`   | upper | d = 0      | (1 − confidence)/2       | the two-sided CS lies below 0     |
 * | `gainReached` | lower | d = g      | 1 − gain_confidence      | the gain bound is at least g      |
 * | `futile`      | upper | d = g      | 1 − futility_confidence  | the futility bound is below g     |
 *
 * (g = min_same_budget_gain.) Evidence is read only at looks and is sticky: once a capital has
 * reached 1/a at a look, that side stays decided (the running intersection of the bounds).
 * What each one guarantees, at every look and whatever the stopping rule: P(aboveZero | the
 * true delta ≤ 0) ≤ (1 − confidence)/2, and P(gainReached | the true delta < g) ≤
 * 1 − gain_confidence. Futility can only stop a run, never promote one: its level trades
 * tokens against power, not against false promotion.
 */
import { bettingBound, CapitalProcess, PlugInMoments, type BetSchedule, type BoundSide } from './betting-cs.js';

export interface ScreenLevels {
  /** g: the minimum gain (pass-rate difference, −1..1) a promotion needs. */
  minGain: number;
  /** Two-sided confidence of the anytime-valid CS, e.g. 0.95. */
  confidence: number;
  /** One-sided confidence that the gain is at least g before promoting, e.g. 0.8. */
  gainConfidence: number;
  /** One-sided confidence that the gain is below g before stopping for futility, e.g. 0.6. */
  futilityConfidence: number;
  /** Cases the split holds: the bets are tuned to it (cases). */
  horizon: number;
}

export interface ScreenEvidence {
  /** Paired differences seen (cases). */
  cases: number;
  /** Their mean: the point estimate of the delta. */
  mean: number;
  aboveZero: boolean;
  belowZero: boolean;
  gainReached: boolean;
  futile: boolean;
}

export interface ScreenBounds {
  /** The anytime-valid two-sided CS of the delta at `confidence`, running over the looks. */
  cs: readonly [number, number];
  /** Lower bound at `gainConfidence` (one-sided). */
  gainBound: number;
  /** Upper bound at `futilityConfidence` (one-sided). */
  futilityBound: number;
}

type EvidenceName = 'aboveZero' | 'belowZero' | 'gainReached' | 'futile';

interface Watch {
  side: BoundSide;
  /** m on the x = (d + 1)/2 scale. */
  m: number;
  schedule: BetSchedule;
}

export class PairedScreen {
  private readonly moments = new PlugInMoments();
  private readonly watches: Record<EvidenceName, Watch>;
  private readonly processes: Record<EvidenceName, CapitalProcess>;
  private readonly decided: Record<EvidenceName, boolean> = { aboveZero: false, belowZero: false, gainReached: false, futile: false };
  private readonly xs: number[] = [];
  private readonly looks: number[] = [];
  private sum = 0;

  constructor(readonly levels: ScreenLevels) {
    checkLevels(levels);
    const zero = toUnit(0);
    const gain = toUnit(levels.minGain);
    const twoSided = (1 - levels.confidence) / 2;
    const schedule = (alpha: number): BetSchedule => ({ alpha, horizon: levels.horizon });
    this.watches = {
      aboveZero: { side: 'lower', m: zero, schedule: schedule(twoSided) },
      belowZero: { side: 'upper', m: zero, schedule: schedule(twoSided) },
      gainReached: { side: 'lower', m: gain, schedule: schedule(1 - levels.gainConfidence) },
      futile: { side: 'upper', m: gain, schedule: schedule(1 - levels.futilityConfidence) },
    };
    const process = (watch: Watch): CapitalProcess => new CapitalProcess(watch.side, watch.m, watch.schedule);
    this.processes = { aboveZero: process(this.watches.aboveZero), belowZero: process(this.watches.belowZero), gainReached: process(this.watches.gainReached), futile: process(this.watches.futile) };
  }

  /** Adds one case's paired difference d ∈ [−1, 1]. */
  add(difference: number): void {
    if (!(difference >= -1 && difference <= 1)) throw new RangeError(`a paired difference must be in [−1, 1], got ${difference}`);
    const x = toUnit(difference);
    for (const name of EVIDENCE) this.processes[name].add(x, this.moments.variance);
    this.moments.add(x);
    this.xs.push(x);
    this.sum += difference;
  }

  /** Reads the tests now: a capital at 1/a decides its side for good. */
  look(): ScreenEvidence {
    if (this.looks.at(-1) !== this.xs.length) this.looks.push(this.xs.length);
    for (const name of EVIDENCE) if (this.processes[name].rejects) this.decided[name] = true;
    return this.evidence();
  }

  /** The evidence as of the last look (the mean is current). */
  evidence(): ScreenEvidence {
    const cases = this.xs.length;
    return { cases, mean: cases === 0 ? 0 : this.sum / cases, ...this.decided };
  }

  /**
   * The bounds behind the evidence at each look, on the difference scale, each a running
   * intersection over the looks so far (bisection: O(looks · cases) capital evaluations per bound).
   */
  history(): Array<ScreenBounds & { cases: number; mean: number }> {
    const running: Record<EvidenceName, number> = { aboveZero: 0, belowZero: 1, gainReached: 0, futile: 1 };
    return this.looks.map((cases) => {
      for (const name of EVIDENCE) {
        const { side, schedule } = this.watches[name];
        const at = bettingBound(this.xs, side, schedule, cases);
        running[name] = side === 'lower' ? Math.max(running[name], at) : Math.min(running[name], at);
      }
      const mean = this.xs.slice(0, cases).reduce((sum, x) => sum + fromUnit(x), 0) / cases;
      return { cases, mean, cs: [fromUnit(running.aboveZero), fromUnit(running.belowZero)] as const, gainBound: fromUnit(running.gainReached), futilityBound: fromUnit(running.futile) };
    });
  }

  /** The bounds as of the last look (the trivial [−1, 1] before any). */
  bounds(): ScreenBounds {
    const last = this.history().at(-1);
    return last ? { cs: last.cs, gainBound: last.gainBound, futilityBound: last.futilityBound } : { cs: [-1, 1], gainBound: -1, futilityBound: 1 };
  }
}

export type StopReason = 'efficacy' | 'futility' | 'leakage' | 'exhausted';

export interface ScreenLook {
  /** The n=1 comparison (candidate_single − baseline_single). */
  singles: ScreenEvidence;
  /** The largest-N selected@N comparison, when the run has Best-of-N arms. */
  bestOfN: ScreenEvidence | undefined;
  /** tokens_per_success and p95 latency ratios within the gates (point estimates, as the verdict reads them). */
  withinGates: boolean;
  /** Every case of the split has run. */
  exhausted: boolean;
  minGain: number;
}

export interface ScreenDecision {
  stop: boolean;
  reason: StopReason | undefined;
  /** A futility stop whose CS lies below 0: the candidate is decided worse. */
  regression: boolean;
}

/**
 * The stop rule at one look, in order: efficacy (the n=1 gain decided at least g, the point
 * estimate ≥ g, tokens and latency within the gates) → leakage (n=1 cannot reach g, the
 * selected@N gain is decided as efficacy would decide it) → futility (n=1 cannot reach g, or is
 * decided below 0) → exhausted → go on.
 */
export function decideLook(look: ScreenLook): ScreenDecision {
  const { singles, bestOfN } = look;
  if (hasDecidedGain(singles, look.minGain) && look.withinGates) return { stop: true, reason: 'efficacy', regression: false };
  const singlesFutile = singles.futile || singles.belowZero;
  if (singlesFutile && bestOfN !== undefined && hasDecidedGain(bestOfN, look.minGain)) return { stop: true, reason: 'leakage', regression: false };
  if (singlesFutile) return { stop: true, reason: 'futility', regression: singles.belowZero };
  if (look.exhausted) return { stop: true, reason: 'exhausted', regression: false };
  return { stop: false, reason: undefined, regression: false };
}

/** The statistical half of efficacy: the CS above 0, the gain bound at least g, the point estimate at least g. */
export function hasDecidedGain(evidence: ScreenEvidence, minGain: number): boolean {
  return evidence.aboveZero && evidence.gainReached && evidence.mean >= minGain;
}

const EVIDENCE: readonly EvidenceName[] = ['aboveZero', 'belowZero', 'gainReached', 'futile'];

function toUnit(difference: number): number {
  return (difference + 1) / 2;
}

function fromUnit(x: number): number {
  return 2 * x - 1;
}

function checkLevels(levels: ScreenLevels): void {
  for (const [name, value] of [['confidence', levels.confidence], ['gainConfidence', levels.gainConfidence], ['futilityConfidence', levels.futilityConfidence]] as const) {
    if (!(value > 0 && value < 1)) throw new RangeError(`${name} must be in (0, 1), got ${value}`);
  }
  if (!(levels.minGain >= 0 && levels.minGain < 1)) throw new RangeError(`minGain must be in [0, 1), got ${levels.minGain}`);
  if (!(levels.horizon >= 1)) throw new RangeError(`horizon must be at least 1 case, got ${levels.horizon}`);
}
