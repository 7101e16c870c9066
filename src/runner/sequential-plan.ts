/**
 * The plan of a sequential screening run (issue 14), pure: the seeded case order, the looks,
 * the levels of the tests, and the order units are scheduled in.
 *
 * Why a random order: the anytime-valid bounds assume the cases arrive as draws from one
 * population. A dataset is often sorted (by category, difficulty or date); screening its
 * first block would then estimate the delta of one slice. A seeded shuffle makes every
 * prefix a random sample, and the same seed gives the same order on a resume.
 */
import type { ExperimentConfig, SequentialConfig } from '../config/types.js';
import { createRng } from '../stats/index.js';
import type { SequentialPlan } from '../ledger/sequential-plan-record.js';
import type { Unit } from './plan.js';

export type { SequentialPlan } from '../ledger/sequential-plan-record.js';

/** Salt of the order seed: the shuffle does not reuse the simulator's or the bootstrap's stream. */
const ORDER_SALT = 0x51e9;

export function sequentialPlan(config: ExperimentConfig, sequential: SequentialConfig, caseIds: readonly string[]): SequentialPlan {
  const orderSeed = config.seed + ORDER_SALT;
  return {
    order: shuffledIds(caseIds, orderSeed),
    orderSeed,
    lookEvery: sequential.lookEvery,
    minCases: sequential.minCases,
    levels: {
      minGain: config.gates.minSameBudgetGain,
      confidence: sequential.confidence ?? config.gates.confidence,
      gainConfidence: sequential.gainConfidence,
      futilityConfidence: sequential.futilityConfidence,
      horizon: Math.max(1, caseIds.length),
    },
    maxTokenGrowthRatio: config.gates.maxTokenGrowthRatio,
    maxLatencyGrowthRatio: config.gates.maxLatencyGrowthRatio,
    epochs: config.epochs,
    bestOfN: [...new Set([1, ...config.budget.bestOfN])].sort((a, b) => a - b),
  };
}

/** Fisher–Yates with the seeded xoshiro128** stream: a uniform permutation, the same for the same seed. */
export function shuffledIds(ids: readonly string[], seed: number): string[] {
  const order = [...ids];
  const rng = createRng(seed);
  for (let i = order.length - 1; i > 0; i -= 1) {
    const j = rng.int(i + 1);
    [order[i], order[j]] = [order[j] as string, order[i] as string];
  }
  return order;
}

/** Whether the test is read after `cases` cases: at each block end from `minCases` on, and when the split is done. */
export function isLook(plan: Pick<SequentialPlan, 'lookEvery' | 'minCases' | 'order'>, cases: number): boolean {
  if (cases === plan.order.length) return true;
  return cases >= plan.minCases && cases % plan.lookEvery === 0;
}

/**
 * Units in the order a sequential run schedules them: the regression set first (it guards the
 * verdict however early the screen stops), then the screened cases one whole case at a time
 * in the seeded order, each case's arms in plan order.
 */
export function sequentialUnitOrder(units: readonly Unit[], order: readonly string[]): Unit[] {
  const rank = new Map(order.map((id, index) => [id, index]));
  const regression = units.filter((u) => u.split === 'regression');
  const screened = units.filter((u) => u.split !== 'regression');
  const position = (unit: Unit): number => rank.get(unit.evalCase.id) ?? Number.MAX_SAFE_INTEGER;
  // Array.prototype.sort is stable: a case's units keep their plan order.
  return [...regression, ...screened.sort((a, b) => position(a) - position(b))];
}
