/**
 * Inventory lookup, a task that needs a tool: "How many units of K-4821 and K-1093 are in
 * stock in total?" The sim cannot know stock levels; it calls the offered lookup tool once
 * per item, reads the results back from the conversation, and adds them up. Each turn is
 * decided from the conversation alone, one round of calls per turn (all pending items in
 * parallel), so the loop is stateless and replayable.
 *
 * Where a model goes wrong, it goes wrong the same way under every skill (draws are keyed on
 * the item, see engine.ts): it sometimes sends a sloppy id (`4821` for `K-4821`), which the
 * tool rejects, and it sometimes adds up wrong. What a skill changes is only its habits:
 * "double-check every lookup by repeating it" and "retry a failed lookup" cost calls and
 * tokens and never change the answer — the redundancy the tool-loop example shows.
 */
import type { ToolDefinition } from '../../spec.js';
import { accuracyFor } from '../profiles.js';
import { itemDigits, readAttempts, readToolHabits, type LookupAttempt, type ToolHabits } from './lookup-state.js';
import type { SimTask, SolveContext, TaskReply } from './spec.js';

const ITEM = /\b[A-Z]{1,3}-\d{3,6}\b/g;
const ABOUT_STOCK = /\b(?:stock|inventory|on hand)\b/i;
/** Chance that the first lookup of an item sends the bare digits instead of the id. */
const SLIP_RATE = 0.25;
/** A model gives up on an item after this many calls for it. */
const MAX_CALLS_PER_ITEM = 4;

type Action = { kind: 'call'; args: string } | { kind: 'value'; value: number } | { kind: 'gave_up' };

export const lookupTask: SimTask = {
  name: 'lookup',
  solve(context: SolveContext): string | TaskReply | undefined {
    if (!ABOUT_STOCK.test(context.userText)) return undefined;
    const items = [...new Set(context.userText.match(ITEM) ?? [])];
    if (items.length === 0) return undefined;
    const tool = pickTool(context.tools);
    if (tool === undefined) return `I need an inventory lookup tool to check the stock of ${items.join(', ')}, and none was offered.`;
    const param = parameterName(tool);
    const habits = readToolHabits(context.skill);
    const attempts = readAttempts(context.conversation, tool.name, items);
    const calls: TaskReply['toolCalls'] = [];
    const values: number[] = [];
    const missing: string[] = [];
    for (const item of items) {
      const action = nextAction(item, attempts.get(item) ?? [], habits, param, context.draw);
      if (action.kind === 'call') calls.push({ name: tool.name, arguments: action.args });
      else if (action.kind === 'value') values.push(action.value);
      else missing.push(item);
    }
    if (calls.length > 0) return { text: '', toolCalls: calls };
    if (missing.length > 0) return `The lookup tool did not give me the stock of ${missing.join(', ')}, so I cannot give a total.`;
    return finalAnswer(context, items, values, habits);
  },
};

function nextAction(item: string, tries: readonly LookupAttempt[], habits: ToolHabits, param: string, draw: (label: string) => number): Action {
  const correct = JSON.stringify({ [param]: item });
  const succeeded = tries.filter((t) => t.ok);
  const lastOk = succeeded.at(-1);
  if (lastOk?.value !== undefined) {
    if (habits.doubleCheck && succeeded.length === 1 && tries.length < MAX_CALLS_PER_ITEM) return { kind: 'call', args: lastOk.args };
    return { kind: 'value', value: lastOk.value };
  }
  const last = tries.at(-1);
  if (last === undefined) return { kind: 'call', args: draw(`slip:${item}`) < SLIP_RATE ? JSON.stringify({ [param]: itemDigits(item) }) : correct };
  if (tries.length >= MAX_CALLS_PER_ITEM) return { kind: 'gave_up' };
  // An identical retry of a deterministic failure is useless, which is the point.
  if (habits.retryFailed && tries.filter((t) => t.args === last.args).length < 2) return { kind: 'call', args: last.args };
  // Read the error, fix the id.
  if (!tries.some((t) => t.args === correct)) return { kind: 'call', args: correct };
  return { kind: 'gave_up' };
}

function finalAnswer(context: SolveContext, items: readonly string[], values: readonly number[], habits: ToolHabits): string {
  const sum = values.reduce((a, b) => a + b, 0);
  const competent = context.draw('competence') < accuracyFor(context.profile, `lookup:${Math.min(items.length, 3)}`);
  // The slip of an adder: off by ten.
  const answer = competent ? sum : sum + (context.draw('slip-sign') < 0.5 ? -10 : 10);
  if (context.style.terse) return String(answer);
  const parts = items.map((item, i) => `${item}: ${values[i] ?? 0}`).join(', ');
  const checked = habits.doubleCheck ? ' (every lookup double-checked)' : '';
  if (context.style.thorough) return `Stock per item${checked}: ${parts}. Total: ${values.join(' + ')} = ${answer}. Answer: ${answer}`;
  return `Stock${checked}: ${parts}. Answer: ${answer}`;
}

/** The offered tool that looks things up (by name), else the only/first one. */
function pickTool(tools: readonly ToolDefinition[]): ToolDefinition | undefined {
  return tools.find((t) => /lookup|stock|inventory/i.test(t.name)) ?? tools[0];
}

/** The argument name the tool's schema declares first (`item` when it declares none). */
function parameterName(tool: ToolDefinition): string {
  const properties = tool.parameters['properties'];
  const first = properties !== null && typeof properties === 'object' ? Object.keys(properties)[0] : undefined;
  return first ?? 'item';
}
