/**
 * Task dispatch in a fixed order. The judge goes first because a judge prompt quotes the
 * task it grades (a date, a sum) and must not be mistaken for that task.
 */
import type { SimTask, SolveContext } from './spec.js';
import { judgeTask } from './judge-task.js';
import { dateTask } from './date-task.js';
import { digitSearchTask } from './digit-search.js';
import { arithmeticTask } from './arithmetic-task.js';
import { fallbackTask } from './fallback-task.js';

export const SIM_TASKS: readonly SimTask[] = [judgeTask, dateTask, digitSearchTask, arithmeticTask];

export function solveTask(context: SolveContext): { task: string; text: string } {
  for (const task of SIM_TASKS) {
    const text = task.solve(context);
    if (text !== undefined) return { task: task.name, text };
  }
  return { task: fallbackTask.name, text: fallbackTask.solve(context) ?? '' };
}

export type { SimTask, SolveContext } from './spec.js';
