/**
 * Generated canary event streams for tests and demos: `days` days of control and canary
 * traffic, seeded, with per-day overrides so a test can plant a regression on day 3.
 */
import { createRng } from '../stats/index.js';
import type { CanaryVariant } from './assign.js';

export interface VariantProfile {
  /** Same-budget pass probability. */
  pass: number;
  /** Mean tokens per task (tokens); lognormal around it. */
  tokens: number;
  /** Median latency (ms); lognormal around it. */
  latencyMs: number;
  /** P(negative feedback). */
  negative: number;
}

export interface StreamSpec {
  start: string;
  days: number;
  perDay: Record<CanaryVariant, number>;
  profile: Record<CanaryVariant, VariantProfile>;
  /** Overrides for one day (1-based) and variant. */
  override?: (day: number, variant: CanaryVariant) => Partial<VariantProfile> | undefined;
  budget?: number;
  seed?: number;
}

export interface SyntheticEvent {
  variant: CanaryVariant;
  timestamp: string;
  passed: boolean;
  feedback: 'negative' | 'positive' | 'neutral';
  tokens: number;
  latency_ms: number;
  n: number;
  budget: number;
  case_id: string;
}

export function syntheticEvents(spec: StreamSpec): SyntheticEvent[] {
  const rng = createRng(spec.seed ?? 42);
  const start = Date.parse(spec.start);
  const out: SyntheticEvent[] = [];
  for (let day = 1; day <= spec.days; day++) {
    for (const variant of ['control', 'canary'] as const) {
      const profile = { ...spec.profile[variant], ...spec.override?.(day, variant) };
      for (let i = 0; i < spec.perDay[variant]; i++) {
        const passed = rng.next() < profile.pass;
        const negative = rng.next() < profile.negative;
        out.push({
          variant,
          timestamp: new Date(start + (day - 1) * 86_400_000 + Math.floor(rng.next() * 86_000_000)).toISOString(),
          passed,
          feedback: negative ? 'negative' : rng.next() < 0.3 ? 'positive' : 'neutral',
          tokens: Math.round(profile.tokens * Math.exp(0.3 * rng.normal())),
          latency_ms: Math.round(profile.latencyMs * Math.exp(0.4 * rng.normal())),
          n: 1,
          budget: spec.budget ?? 200_000,
          case_id: `${variant}-${day}-${i}`,
        });
      }
    }
  }
  return out;
}
