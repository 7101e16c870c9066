/**
 * Task dispatch in a fixed order. The judge goes first because a judge prompt quotes the
 * task it grades (a date, a sum) and must not be mistaken for that task.
 */
import type { SimTask, SolveContext, TaskReply } from './spec.js';
import { judgeTask } from './judge-task.js';
import { dateTask } from './date-task.js';
import { digitSearchTask } from './digit-search.js';
import { arithmeticTask } from './arithmetic-task.js';
import { lookupTask } from './lookup-task.js';
import { fallbackTask } from './fallback-task.js';
import { proposeTask } from './propose-task.js';

// Lookup before the others: its question names item ids and numbers another task could misread.
// The proposers first of all: they answer only as sim-proposer*, and their prompt quotes dates.
export const SIM_TASKS: readonly SimTask[] = [proposeTask, judgeTask, lookupTask, dateTask, digitSearchTask, arithmeticTask];

export function solveTask(context: SolveContext): { task: string; text: string; toolCalls?: TaskReply['toolCalls'] } {
  for (const task of SIM_TASKS) {
    const reply = task.solve(context);
    if (typeof reply === 'string') return { task: task.name, text: reply };
    if (reply !== undefined) return { task: task.name, ...reply };
  }
  const fallback = fallbackTask.solve(context);
  return { task: fallbackTask.name, text: typeof fallback === 'string' ? fallback : fallback?.text ?? '' };
}

export type { SimTask, SolveContext, TaskReply } from './spec.js';
