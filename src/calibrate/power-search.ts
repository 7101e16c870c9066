/**
 * The smallest case count whose simulated power reaches a target: doubling from `start`
 * until a count reaches it, then bisection between the last count below and the first at or
 * above, stopping when they are within 50% of each other: near the target the power curve
 * is flat (the min-gain rule makes it creep up like Φ(c·√n)), so finer steps would be below
 * the Monte-Carlo error of a few hundred experiments (±5.5 points at 80% with 200).
 *
 * Assumes power grows with the case count, which the verdict rules make true up to noise;
 * common random numbers (experiment e reuses its first cases at every count) keep the
 * simulated curve close to monotone. Counts far from the target stop early (`stopWhenClearOf`).
 */
import { simulateScenario, type ScenarioInput, type ScenarioResult } from './simulate.js';

export interface PowerSearchInput {
  scenario: Omit<ScenarioInput, 'cases' | 'stopWhenClearOf'>;
  /** Target power, e.g. 0.8. */
  target: number;
  /** First count tried (cases). */
  start: number;
  /** Give up above this count (cases). */
  maxCases: number;
  /** Counts already simulated with the same scenario and seed (reused, not rerun). */
  known?: readonly ScenarioResult[];
}

export interface PowerSearchResult {
  target: number;
  /** Smallest count found to reach the target, or null when `maxCases` did not. */
  cases: number | null;
  /** The simulation at `cases` (power and its CI). */
  atCases: ScenarioResult | undefined;
  /** Every count simulated, ascending. */
  evaluated: ScenarioResult[];
  maxCases: number;
  /** Experiments a count gets unless it is settled early. */
  experimentsPerCount: number;
}

/** Relative gap between the bracketing counts at which bisection stops. */
const RESOLUTION = 1.5;

export function searchCasesForPower(input: PowerSearchInput): PowerSearchResult {
  if (!(input.start >= 2 && input.maxCases >= input.start)) throw new RangeError(`need 2 ≤ start ≤ maxCases, got ${input.start} and ${input.maxCases}`);
  const cache = new Map<number, ScenarioResult>();
  for (const result of input.known ?? []) cache.set(result.cases, result);
  const powerAt = (cases: number): ScenarioResult => {
    let result = cache.get(cases);
    if (!result) {
      result = simulateScenario({ ...input.scenario, cases, stopWhenClearOf: input.target });
      cache.set(cases, result);
    }
    return result;
  };
  const reaches = (cases: number): boolean => powerAt(cases).rate >= input.target;

  let low: number | undefined;
  let high = input.start;
  while (!reaches(high)) {
    low = high;
    if (high >= input.maxCases) return finish(input, null, cache);
    high = Math.min(high * 2, input.maxCases);
  }
  while (low !== undefined && high > low * RESOLUTION && high - low > 1) {
    const middle = Math.round((low + high) / 2);
    if (reaches(middle)) high = middle;
    else low = middle;
  }
  return finish(input, high, cache);
}

function finish(input: PowerSearchInput, cases: number | null, cache: Map<number, ScenarioResult>): PowerSearchResult {
  return {
    target: input.target,
    cases,
    atCases: cases === null ? undefined : cache.get(cases),
    evaluated: [...cache.values()].sort((a, b) => a.cases - b.cases),
    maxCases: input.maxCases,
    experimentsPerCount: input.scenario.experiments,
  };
}
