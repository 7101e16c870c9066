/**
 * The canary policy (canary.yaml): how long to watch, at which budget and n the pass rate is
 * compared, and the P0 thresholds whose breach means rollback. Every key is optional; the
 * defaults follow the seed (10% of traffic for 7 days) and the experiment gates'
 * defaults (tokens_per_success ×1.15, p95 latency ×1.30).
 */
import { z } from 'zod';
import { IsobudgetError, IsobudgetErrors } from '../core/errors.js';
import { formatKeyPath } from '../config/key-path.js';
import { parseYamlSource } from '../config/yaml-source.js';

export interface CanaryPolicy {
  /** Days to observe before `promote` (calendar days, UTC). */
  days: number;
  /** Share of traffic the canary gets (used by `canary assign` when --fraction is not given). */
  fraction: number;
  /** B of the same-budget pass rate; undefined = the budget most control events ran under. */
  budget: number | undefined;
  /** n of the same-budget pass rate. */
  n: number;
  confidence: number;
  /** A day's comparisons count only with at least this many events per variant. */
  minEvents: number;
  p0: {
    /** Breach when canary − control same-budget pass rate is below −this and significantly below 0. */
    passRateDrop: number;
    /** Breach when canary/control tokens_per_success is above this and significantly above 1. */
    tokensPerSuccessGrowth: number;
    /** Breach when canary/control p95 latency is above this and significantly above 1. */
    p95LatencyGrowth: number;
    /** Breach when canary − control negative-feedback rate is above this and significantly above 0. */
    negativeFeedbackIncrease: number;
  };
}

export const DEFAULT_POLICY: CanaryPolicy = {
  days: 7,
  fraction: 0.1,
  budget: undefined,
  n: 1,
  confidence: 0.95,
  minEvents: 30,
  p0: { passRateDrop: 0.02, tokensPerSuccessGrowth: 1.15, p95LatencyGrowth: 1.3, negativeFeedbackIncrease: 0.02 },
};

const schema = z.strictObject({
  days: z.int().positive().optional(),
  fraction: z.number().min(0).max(1).optional(),
  budget: z.int().positive().optional(),
  n: z.int().positive().optional(),
  confidence: z.number().gt(0).lt(1).optional(),
  min_events: z.int().positive().optional(),
  p0: z
    .strictObject({
      pass_rate_drop: z.number().min(0).max(1).optional(),
      tokens_per_success_growth: z.number().min(1).optional(),
      p95_latency_growth: z.number().min(1).optional(),
      negative_feedback_increase: z.number().min(0).max(1).optional(),
    })
    .optional(),
});

export function parsePolicy(text: string, file: string): CanaryPolicy {
  const source = parseYamlSource(text);
  const first = source.problems[0];
  if (first) throw new IsobudgetError('canary_policy', first.message, { location: { file, line: first.position.line, column: first.position.column } });
  const parsed = schema.safeParse(source.data ?? {});
  if (!parsed.success) {
    throw new IsobudgetErrors(
      parsed.error.issues.map((issue) => {
        const parent = issue.path.filter((p): p is string | number => typeof p !== 'symbol');
        // An unknown key is reported on its parent; point at the key itself.
        const path = issue.code === 'unrecognized_keys' && issue.keys[0] !== undefined ? [...parent, issue.keys[0]] : parent;
        const at = source.locate(path, 'key');
        return new IsobudgetError('canary_policy', issue.message, { location: { file, line: at.line, column: at.column, key: formatKeyPath(path) }, hint: 'keys: days, fraction, budget, n, confidence, min_events, p0.{pass_rate_drop, tokens_per_success_growth, p95_latency_growth, negative_feedback_increase}' });
      }),
    );
  }
  const p = parsed.data;
  const d = DEFAULT_POLICY;
  return {
    days: p.days ?? d.days,
    fraction: p.fraction ?? d.fraction,
    budget: p.budget ?? d.budget,
    n: p.n ?? d.n,
    confidence: p.confidence ?? d.confidence,
    minEvents: p.min_events ?? d.minEvents,
    p0: {
      passRateDrop: p.p0?.pass_rate_drop ?? d.p0.passRateDrop,
      tokensPerSuccessGrowth: p.p0?.tokens_per_success_growth ?? d.p0.tokensPerSuccessGrowth,
      p95LatencyGrowth: p.p0?.p95_latency_growth ?? d.p0.p95LatencyGrowth,
      negativeFeedbackIncrease: p.p0?.negative_feedback_increase ?? d.p0.negativeFeedbackIncrease,
    },
  };
}
