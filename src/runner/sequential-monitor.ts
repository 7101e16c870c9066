/**
 * Watches the results of a sequential run as they are committed and decides, after each block
 * of cases in the seeded order, whether to stop (issue 14). Pure apart from its own state: the
 * runner feeds it live, the verdict replays results.jsonl through it, and both reach the same
 * stop because the decision reads only the longest complete prefix of the order — never the
 * cases that happened to finish first.
 */
import type { ResultRecord } from '../ledger/records.js';
import { quantile } from '../stats/index.js';
import { decideLook, hasDecidedGain, PairedScreen, type ScreenDecision, type ScreenEvidence, type StopReason } from '../stats/sequential-screen.js';
import { armName } from './plan.js';
import { isLook, type SequentialPlan } from './sequential-plan.js';

export interface SequentialStop {
  /** Cases read when the stop was decided (a look). */
  atCases: number;
  reason: StopReason;
  /** A futility stop with the whole CS below 0. */
  regression: boolean;
}

export interface SequentialTokens {
  /** Σ billed tokens of every result recorded: regression set, screened cases, and cases in flight at the stop (tokens). */
  spent: number;
  /** Results whose total was unknown (left out of `spent`). */
  unknownResults: number;
  /** Σ tokens of the regression set (tokens). */
  regression: number;
  /** Σ tokens of the cases the decision read (tokens). */
  read: number;
  /** What the whole split would have cost: regression set + the spend per read case × the split's cases (tokens). */
  fullSplitEstimate: number;
}

export interface LookRecord {
  cases: number;
  /** n=1 delta (point estimate) at the look. */
  delta: number;
  decision: StopReason | 'continue';
}

export interface SequentialOutcome {
  plannedCases: number;
  /** Cases whose results the decision read, in order. */
  caseIds: string[];
  /** Screened cases with at least one result, those in flight at the stop included. */
  casesStarted: number;
  stop: SequentialStop | undefined;
  singles: ScreenEvidence;
  bestOfN: ScreenEvidence | undefined;
  /** N of the screened Best-of-N comparison (the largest n), if any. */
  bestN: number | undefined;
  /** The anytime-valid n=1 gain is decided (CS above 0, gain bound ≥ g, point estimate ≥ g). */
  decidedGain: boolean;
  /** tokens_per_success and p95 latency ratios within the gates at the last look. */
  withinGates: boolean;
  looks: LookRecord[];
  tokens: SequentialTokens;
}

interface GateSums {
  tokensA: number;
  tokensB: number;
  passA: number;
  passB: number;
  latencyA: number[];
  latencyB: number[];
}

export class SequentialMonitor {
  private readonly byCase = new Map<string, Map<string, ResultRecord>>();
  private readonly singles: PairedScreen;
  private readonly bestOfNScreen: PairedScreen | undefined;
  private readonly bestN: number | undefined;
  private readonly expected: string[];
  private readonly looks: LookRecord[] = [];
  private readonly gates: GateSums = { tokensA: 0, tokensB: 0, passA: 0, passB: 0, latencyA: [], latencyB: [] };
  private read = 0;
  private withinGates = false;
  private decision: SequentialStop | undefined;
  private spent = 0;
  private unknownResults = 0;
  private regressionTokens = 0;
  private readTokens = 0;

  constructor(readonly plan: SequentialPlan) {
    this.singles = new PairedScreen(plan.levels);
    const wide = plan.bestOfN.filter((n) => n > 1);
    this.bestN = wide.length > 0 ? Math.max(...wide) : undefined;
    this.bestOfNScreen = this.bestN === undefined ? undefined : new PairedScreen(plan.levels);
    this.expected = plan.bestOfN.flatMap((n) => (['baseline', 'candidate'] as const).flatMap((variant) => {
      const epochs = n === 1 ? plan.epochs : 1;
      return Array.from({ length: epochs }, (_, epoch) => slotKey(armName(variant, n), epoch));
    }));
  }

  /** The stop, once decided; the runner schedules no new case after it. */
  get stopped(): SequentialStop | undefined {
    return this.decision;
  }

  /** Takes one committed result (any split, any order, at most once per unit) and reads every look it completes. */
  record(result: ResultRecord): void {
    const tokens = result.total_tokens;
    if (tokens === undefined) this.unknownResults += 1;
    else this.spent += tokens;
    if (result.split === 'regression') {
      this.regressionTokens += tokens ?? 0;
      return;
    }
    let slots = this.byCase.get(result.case_id);
    if (!slots) this.byCase.set(result.case_id, (slots = new Map()));
    slots.set(slotKey(result.arm, result.epoch), result);
    this.advance();
  }

  outcome(): SequentialOutcome {
    const planned = this.plan.order.length;
    const perCase = this.read === 0 ? 0 : this.readTokens / this.read;
    return {
      plannedCases: planned,
      caseIds: this.plan.order.slice(0, this.read),
      casesStarted: this.byCase.size,
      stop: this.decision,
      singles: this.singles.evidence(),
      bestOfN: this.bestOfNScreen?.evidence(),
      bestN: this.bestN,
      decidedGain: hasDecidedGain(this.singles.evidence(), this.plan.levels.minGain),
      withinGates: this.withinGates,
      looks: [...this.looks],
      tokens: { spent: this.spent, unknownResults: this.unknownResults, regression: this.regressionTokens, read: this.readTokens, fullSplitEstimate: Math.round(this.regressionTokens + perCase * planned) },
    };
  }

  /** Screened cases with at least one result recorded. */
  startedCases(): string[] {
    return [...this.byCase.keys()];
  }

  /** The screens themselves, for their bounds (bisection; read once when the verdict is written). */
  screens(): { singles: PairedScreen; bestOfN: PairedScreen | undefined } {
    return { singles: this.singles, bestOfN: this.bestOfNScreen };
  }

  private advance(): void {
    while (this.decision === undefined && this.read < this.plan.order.length) {
      const slots = this.byCase.get(this.plan.order[this.read] as string);
      if (!slots || !this.expected.every((key) => slots.has(key))) return;
      this.readCase(slots);
      this.read += 1;
      if (isLook(this.plan, this.read)) this.look();
    }
  }

  private readCase(slots: Map<string, ResultRecord>): void {
    const arm = (variant: 'baseline' | 'candidate', n: number): ResultRecord[] => {
      const epochs = n === 1 ? this.plan.epochs : 1;
      return Array.from({ length: epochs }, (_, epoch) => slots.get(slotKey(armName(variant, n), epoch)) as ResultRecord);
    };
    const a = arm('baseline', 1);
    const b = arm('candidate', 1);
    const passA = meanOf(a, (r) => (r.passed ? 1 : 0));
    const passB = meanOf(b, (r) => (r.passed ? 1 : 0));
    this.singles.add(passB - passA);
    if (this.bestN !== undefined && this.bestOfNScreen) {
      const c = arm('baseline', this.bestN)[0] as ResultRecord;
      const d = arm('candidate', this.bestN)[0] as ResultRecord;
      this.bestOfNScreen.add((d.passed ? 1 : 0) - (c.passed ? 1 : 0));
    }
    for (const record of slots.values()) this.readTokens += record.total_tokens ?? 0;
    // As the verdict reads them (compareTokens, p95LatencyRatio): tokens over cases known on both arms.
    const tokensA = a.every((r) => r.total_tokens !== undefined) ? meanOf(a, (r) => r.total_tokens ?? 0) : undefined;
    const tokensB = b.every((r) => r.total_tokens !== undefined) ? meanOf(b, (r) => r.total_tokens ?? 0) : undefined;
    if (tokensA !== undefined && tokensB !== undefined) {
      this.gates.tokensA += tokensA;
      this.gates.tokensB += tokensB;
      this.gates.passA += passA;
      this.gates.passB += passB;
    }
    this.gates.latencyA.push(meanOf(a, (r) => r.latency_ms));
    this.gates.latencyB.push(meanOf(b, (r) => r.latency_ms));
  }

  private look(): void {
    const singles = this.singles.look();
    const bestOfN = this.bestOfNScreen?.look();
    this.withinGates = this.gatesHold();
    const decision: ScreenDecision = decideLook({ singles, bestOfN, withinGates: this.withinGates, exhausted: this.read === this.plan.order.length, minGain: this.plan.levels.minGain });
    this.looks.push({ cases: this.read, delta: singles.mean, decision: decision.reason ?? 'continue' });
    if (decision.stop && decision.reason) this.decision = { atCases: this.read, reason: decision.reason, regression: decision.regression };
  }

  private gatesHold(): boolean {
    const { tokensA, tokensB, passA, passB, latencyA, latencyB } = this.gates;
    const ratio = tokensB / passB / (tokensA / passA);
    const tokensOk = Number.isFinite(ratio) && ratio <= this.plan.maxTokenGrowthRatio;
    const p95A = quantile(latencyA, 0.95);
    const p95B = quantile(latencyB, 0.95);
    const latency = p95A === undefined || p95B === undefined || p95A === 0 ? undefined : p95B / p95A;
    return tokensOk && (latency === undefined || latency <= this.plan.maxLatencyGrowthRatio);
  }
}

/** Feeds every result of a run through a fresh monitor: the decision a live run made (or would make). */
export function replaySequential(plan: SequentialPlan, results: Iterable<ResultRecord>): SequentialMonitor {
  const monitor = new SequentialMonitor(plan);
  for (const result of results) monitor.record(result);
  return monitor;
}

function slotKey(arm: string, epoch: number): string {
  return `${arm}|${epoch}`;
}

function meanOf(records: readonly ResultRecord[], pick: (record: ResultRecord) => number): number {
  return records.reduce((sum, record) => sum + pick(record), 0) / records.length;
}
