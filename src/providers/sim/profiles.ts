/**
 * Model profiles: what a simulated model is good at, how much it says and how fast it is.
 * Accuracy keys are the sim's own task kinds (`date:iso-week`, `search:hard`, …), which it
 * reads off the prompt — never the dataset's category column.
 */

export interface LatencyProfile {
  /** Fixed cost of a call (ms). */
  baseMs: number;
  /** Decoding cost per output token of the longest choice (ms/token). */
  perOutputTokenMs: number;
  /** Relative jitter: latency is scaled by a seeded factor in [1 − jitter, 1 + jitter]. */
  jitter: number;
}

export interface ModelProfile {
  name: string;
  /**
   * Probability of getting an item right, by task kind. Lookup tries the full kind
   * (`date:iso-week`), then its family (`date`), then `default`.
   */
  accuracy: Readonly<Record<string, number>>;
  /** Scales explanation length in thorough mode and adds a lead-in at ≥ 1 (0 = curt). */
  verbosity: number;
  latency: LatencyProfile;
  /** Judge score points added per doubling of the judged answer's length beyond 32 tokens. */
  judgeLengthBias: number;
}

const SMALL: ModelProfile = {
  name: 'sim-small',
  accuracy: {
    default: 0.8,
    'date:iso': 0.995,
    'date:month-name': 0.97,
    'date:day-month-name': 0.97,
    'date:slash': 0.85,
    'date:dot': 0.85,
    'date:compact': 0.85,
    'date:two-digit-year': 0.82,
    'date:iso-week': 0.6,
    'date:ordinal-date': 0.66,
    'search:easy': 0.98,
    'search:hard': 0.5,
    'arith:easy': 0.99,
    'arith:add-sub': 0.9,
    'arith:multiply': 0.78,
    'arith:precedence': 0.7,
    'arith:parentheses': 0.8,
    'lookup:1': 0.98,
    'lookup:2': 0.94,
    'lookup:3': 0.9,
  },
  verbosity: 1,
  latency: { baseMs: 40, perOutputTokenMs: 1.5, jitter: 0.2 },
  judgeLengthBias: 0.4,
};

const LARGE: ModelProfile = {
  name: 'sim-large',
  accuracy: {
    default: 0.9,
    'date:iso': 0.995,
    'date:month-name': 0.97,
    'date:day-month-name': 0.97,
    'date:slash': 0.95,
    'date:dot': 0.95,
    'date:compact': 0.95,
    'date:two-digit-year': 0.94,
    'date:iso-week': 0.88,
    'date:ordinal-date': 0.9,
    'search:easy': 0.995,
    'search:hard': 0.7,
    'arith:easy': 0.995,
    'arith:add-sub': 0.97,
    'arith:multiply': 0.92,
    'arith:precedence': 0.88,
    'arith:parentheses': 0.92,
    'lookup:1': 0.995,
    'lookup:2': 0.98,
    'lookup:3': 0.96,
  },
  verbosity: 1.5,
  latency: { baseMs: 120, perOutputTokenMs: 4, jitter: 0.2 },
  judgeLengthBias: 0.2,
};

/** A judge with a visible preference for long answers, so length gaming can be detected. */
const JUDGE: ModelProfile = {
  ...LARGE,
  name: 'sim-judge',
  verbosity: 0.5,
  latency: { baseMs: 50, perOutputTokenMs: 2, jitter: 0.2 },
  judgeLengthBias: 0.8,
};

const PROFILES: ReadonlyMap<string, ModelProfile> = new Map([SMALL, LARGE, JUDGE].map((p) => [p.name, p]));

/** Names `GET /v1/models` lists. */
export const SIM_MODEL_NAMES: readonly string[] = [...PROFILES.keys()];

/** Any other name (`sim-foo`, or a real model id a client insists on) gets sim-small's profile. */
export function getProfile(model: string): ModelProfile {
  return PROFILES.get(model) ?? { ...SMALL, name: model };
}

export function accuracyFor(profile: ModelProfile, kind: string): number {
  const direct = profile.accuracy[kind];
  if (direct !== undefined) return direct;
  const family = kind.split(':')[0] ?? kind;
  return profile.accuracy[family] ?? profile.accuracy['default'] ?? 0.8;
}
