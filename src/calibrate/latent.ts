/**
 * The latent population of a simulated experiment: per-case pass probabilities, token and
 * latency scales, categories — no text, because the verdict reads none.
 *
 * Difficulty. A case's baseline pass probability p ~ Beta(a, b) with mean m (the baseline
 * pass rate) and standard deviation s (the between-case spread). From the Beta moments,
 * Var p = m(1 − m)/(a + b + 1), so a + b = m(1 − m)/s² − 1, a = m(a + b), b = (1 − m)(a + b).
 * Real eval sets are strongly dispersed (many cases always or never solved); s = 0.25 at
 * m = 0.6 gives a + b ≈ 2.8, a broad hump.
 *
 * Effect. The candidate's probability is a common shift on the LOGIT scale,
 * q = σ(logit p + θ) = p·e^θ / (1 − p + p·e^θ), with θ solved numerically so that the
 * population mean E[q − p] equals `effect`. Why the logit: a probability-scale shift p + δ
 * must be clipped at 1 for easy cases, which silently shrinks the effect; the logit shift
 * moves mid-difficulty cases most and never leaves [0, 1]. Solving θ keeps `effect` on the
 * scale the verdict measures (the pass-rate delta B − A), so "effect 0.1" means ten points.
 */
import type { Rng } from '../stats/index.js';
import { createRng } from '../stats/index.js';

export interface Population {
  /** Mean baseline pass probability over cases, in (0, 1). */
  baselinePass: number;
  /** Standard deviation of the per-case pass probability; 0 ≤ spread² < m(1 − m). */
  spread: number;
  /** Population mean pass-rate delta candidate − baseline (probability scale). */
  effect: number;
  /** Number of categories; cases are assigned round-robin, independent of difficulty. */
  categories: number;
  /** Median tokens of one path (tokens). */
  tokensPerPath: number;
  /** Median latency of one path (ms). */
  latencyMs: number;
}

export interface LatentCase {
  id: string;
  category: string | undefined;
  baselineP: number;
  candidateP: number;
  /** Case-level median tokens of one path, shared by both variants (long cases are long for both). */
  tokenScale: number;
  /** Case-level median latency of one path (ms), shared by both variants. */
  latencyScale: number;
}

/** Case-level log-scale SD of tokens and latency: lognormal, a few-fold between short and long cases. */
const CASE_LOG_SD = 0.5;
/** Draws used to solve θ and the population SD of differences; their error is ~1e-3. */
const POPULATION_SAMPLE = 20_000;

export function betaShapes(mean: number, spread: number): { a: number; b: number } {
  if (!(mean > 0 && mean < 1)) throw new RangeError(`baseline pass rate must be in (0, 1), got ${mean}`);
  const variance = spread * spread;
  if (!(spread > 0 && variance < mean * (1 - mean))) {
    throw new RangeError(`spread must be in (0, ${Math.sqrt(mean * (1 - mean)).toFixed(3)}) for a pass rate of ${mean}, got ${spread}`);
  }
  const total = (mean * (1 - mean)) / variance - 1;
  return { a: mean * total, b: (1 - mean) * total };
}

/**
 * Gamma(shape, 1) by Marsaglia & Tsang (2000), "A simple method for generating gamma
 * variables", ACM TOMS 26(3); shape < 1 via their boost Gamma(shape + 1)·U^(1/shape).
 */
export function gammaVariate(rng: Rng, shape: number): number {
  if (shape < 1) return gammaVariate(rng, shape + 1) * rng.next() ** (1 / shape);
  const d = shape - 1 / 3;
  const c = 1 / Math.sqrt(9 * d);
  for (;;) {
    let x: number;
    let v: number;
    do {
      x = rng.normal();
      v = 1 + c * x;
    } while (v <= 0);
    v = v * v * v;
    const u = rng.next();
    if (u < 1 - 0.0331 * x * x * x * x) return d * v;
    if (Math.log(u) < 0.5 * x * x + d * (1 - v + Math.log(v))) return d * v;
  }
}

/** Beta(a, b) as X/(X + Y) with X ~ Gamma(a), Y ~ Gamma(b). */
export function betaVariate(rng: Rng, a: number, b: number): number {
  const x = gammaVariate(rng, a);
  const y = gammaVariate(rng, b);
  // Both underflow only for tiny shapes; the mean is then the least surprising answer.
  return x + y > 0 ? x / (x + y) : a / (a + b);
}

/** σ(logit p + θ) written with k = e^θ, exact at p = 0 and p = 1. */
export function shiftProbability(p: number, k: number): number {
  return (p * k) / (1 - p + p * k);
}

export interface PopulationSummary {
  /** e^θ of the logit shift that gives the population mean delta `effect`. */
  shiftFactor: number;
  /** θ itself (logits). */
  logitShift: number;
  /** SD of one case's paired difference b − a (0/1 outcomes): the closed form's input. */
  sdDiff: number;
}

/**
 * Solves θ by bisection on a fixed sample of the population, and the SD of one paired
 * difference, Var(b − a) = E[p(1 − p) + q(1 − q)] + Var(q − p) (law of total variance; a and
 * b are independent Bernoulli draws given the case).
 */
export function summarizePopulation(population: Population, seed: number): PopulationSummary {
  const { a, b } = betaShapes(population.baselinePass, population.spread);
  const rng = createRng(seed);
  const ps = new Float64Array(POPULATION_SAMPLE);
  for (let i = 0; i < ps.length; i += 1) ps[i] = betaVariate(rng, a, b);
  const meanDelta = (k: number): number => {
    let sum = 0;
    for (const p of ps) sum += shiftProbability(p, k) - p;
    return sum / ps.length;
  };
  let theta = 0;
  if (population.effect !== 0) {
    let low = -30;
    let high = 30;
    const reachable = population.effect > 0 ? meanDelta(Math.exp(high)) : meanDelta(Math.exp(low));
    if (Math.abs(population.effect) >= Math.abs(reachable)) {
      throw new RangeError(`effect ${population.effect} is out of reach for a baseline pass rate of ${population.baselinePass} (at most ${reachable.toFixed(3)})`);
    }
    for (let step = 0; step < 80; step += 1) {
      theta = (low + high) / 2;
      if (meanDelta(Math.exp(theta)) < population.effect) low = theta;
      else high = theta;
    }
  }
  const k = Math.exp(theta);
  let within = 0;
  let sum = 0;
  let sumSquares = 0;
  for (const p of ps) {
    const q = shiftProbability(p, k);
    within += p * (1 - p) + q * (1 - q);
    sum += q - p;
    sumSquares += (q - p) ** 2;
  }
  const n = ps.length;
  const between = sumSquares / n - (sum / n) ** 2;
  return { shiftFactor: k, logitShift: theta, sdDiff: Math.sqrt(within / n + between) };
}

/** The first `count` cases of one experiment; case i is the same for every count ≥ i + 1. */
export function drawLatentCases(population: Population, shiftFactor: number, count: number, rng: Rng): LatentCase[] {
  const { a, b } = betaShapes(population.baselinePass, population.spread);
  const cases: LatentCase[] = [];
  for (let i = 0; i < count; i += 1) {
    const baselineP = betaVariate(rng, a, b);
    cases.push({
      id: `case-${String(i).padStart(5, '0')}`,
      category: population.categories > 1 ? `cat-${i % population.categories}` : undefined,
      baselineP,
      candidateP: shiftProbability(baselineP, shiftFactor),
      tokenScale: population.tokensPerPath * Math.exp(CASE_LOG_SD * rng.normal()),
      latencyScale: population.latencyMs * Math.exp(CASE_LOG_SD * rng.normal()),
    });
  }
  return cases;
}
