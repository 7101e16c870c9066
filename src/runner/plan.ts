/**
 * Plans a run, pure: cases × arms × epochs → units. Case-major order, so an interrupted
 * run has whole cases done rather than whole arms, and per-arm progress stays comparable.
 */
import type { EvalCase } from '../core/case.js';
import type { ChatMessage } from '../core/messages.js';

export type Variant = 'baseline' | 'candidate';
export type UnitSplit = 'train' | 'val' | 'test' | 'regression';

export interface ArmSpec {
  /** Seed's arm naming: `baseline_single`, `candidate_best_of_8`. */
  arm: string;
  variant: Variant;
  n: number;
}

export interface Unit {
  key: string;
  split: UnitSplit;
  evalCase: EvalCase;
  arm: ArmSpec;
  epoch: number;
}

export function armName(variant: Variant, n: number): string {
  return n === 1 ? `${variant}_single` : `${variant}_best_of_${n}`;
}

export function armsFor(bestOfN: readonly number[]): ArmSpec[] {
  const arms: ArmSpec[] = [];
  for (const n of bestOfN) {
    for (const variant of ['baseline', 'candidate'] as const) arms.push({ arm: armName(variant, n), variant, n });
  }
  return arms;
}

export function unitKey(split: UnitSplit, caseId: string, arm: string, epoch: number): string {
  return `${split}|${caseId}|${arm}|${epoch}`;
}

export interface PlanInput {
  split: UnitSplit;
  cases: readonly EvalCase[];
  /** Regression cases run on the n=1 arms only: they guard pass@1, the product metric. */
  regressionCases: readonly EvalCase[];
  bestOfN: readonly number[];
  /** Repeats of the n=1 arms. */
  epochs: number;
  /** Variants to run (default both); `evolve` diagnoses one skill on train with the baseline alone. */
  variants?: readonly Variant[];
}

export function planUnits(input: PlanInput): Unit[] {
  const arms = armsFor(input.bestOfN).filter((arm) => input.variants === undefined || input.variants.includes(arm.variant));
  const units: Unit[] = [];
  const add = (split: UnitSplit, cases: readonly EvalCase[], armList: readonly ArmSpec[]): void => {
    for (const evalCase of cases) {
      for (const arm of armList) {
        const epochs = arm.n === 1 ? input.epochs : 1;
        for (let epoch = 0; epoch < epochs; epoch += 1) {
          units.push({ key: unitKey(split, evalCase.id, arm.arm, epoch), split, evalCase, arm, epoch });
        }
      }
    }
  };
  add(input.split, input.cases, arms);
  add('regression', input.regressionCases, arms.filter((a) => a.n === 1));
  return units;
}

/** The messages a chat executor sends: skill text as system prompt, the case as user turn. */
export function buildMessages(systemPrompt: string, evalCase: EvalCase): ChatMessage[] {
  const messages: ChatMessage[] = [];
  if (systemPrompt.trim() !== '') messages.push({ role: 'system', content: systemPrompt });
  if (evalCase.messages && evalCase.messages.length > 0) {
    // A case's own system message follows the skill's, so the skill still leads.
    messages.push(...evalCase.messages);
  } else {
    messages.push({ role: 'user', content: evalCase.input });
  }
  return messages;
}
