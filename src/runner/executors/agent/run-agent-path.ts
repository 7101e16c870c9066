/**
 * One agent path: the tool loop. Each turn sends the conversation so far with the tools; a
 * reply with tool calls runs them (concurrently, each under the time limit) and appends the
 * results; a reply without calls is the path's answer. Every turn gets only what remains of
 * the path's budget share, minus the prompt it is about to send, as max_tokens — so however
 * many turns a skill takes, the paths of a case together stay within B.
 */
import type { AgentExecutorConfig } from '../../../config/types.js';
import type { UnifiedFinishReason } from '../../../core/finish-reason.js';
import type { ChatMessage } from '../../../core/messages.js';
import { countPromptTokens, countToolDefinitionTokens } from '../../../core/tokens.js';
import type { ToolStep } from '../../../ledger/records.js';
import { estimatePrompt } from '../../estimate-prompt.js';
import { callModel } from '../../call-model.js';
import { buildMessages } from '../../plan.js';
import { runToolCall, type Tool } from '../../tools/index.js';
import type { PathRun, UnitContext } from '../../unit-context.js';
import { turnBudget, type PathBudget } from './path-budget.js';
import { pathSeed } from './path-seed.js';

export interface AgentPathInput {
  context: UnitContext;
  config: AgentExecutorConfig;
  tools: ReadonlyMap<string, Tool>;
  path: number;
  budget: PathBudget;
}

export async function runAgentPath(input: AgentPathInput): Promise<PathRun> {
  const { context, config, path, budget } = input;
  const { run, unit } = context;
  const variant = run.config.variants[unit.arm.variant];
  const messages: ChatMessage[] = buildMessages(variant.systemPrompt, unit.evalCase);
  const definitions = [...input.tools.values()].map((tool) => tool.definition);
  const definitionTokens = countToolDefinitionTokens(definitions);
  const toolContext = { tools: input.tools, timeoutMs: config.toolTimeoutMs, caseId: unit.evalCase.id, signal: run.signal };
  const seed = pathSeed(run.config.seed, unit.epoch, path);
  const trajectory: ToolStep[] = [];
  let tokens: number | undefined = 0;
  let text = '';
  let turns = 0;
  const end = (finishReason: UnifiedFinishReason, error?: string): PathRun => ({ path, text, finishReason, tokens, error, turns, trajectory });

  while (turns < config.maxTurns) {
    const estimate = await estimatePrompt(run, { model: variant.model, messages, tools: definitions, maxTokens: 1, temperature: variant.temperature, n: 1, seed }, countPromptTokens(messages) + definitionTokens);
    const prompt = estimate.tokens;
    const { maxTokens, binding } = turnBudget(budget.remaining(), prompt, run.config.budget.perCaseMaxTokens);
    if (maxTokens < 1) return end('budget_exhausted', `budget exhausted before turn ${turns + 1}: ${budget.remaining()} tokens left, the prompt alone needs ${prompt}`);
    const outcome = await callModel(
      context,
      { model: variant.model, messages: [...messages], tools: definitions, maxTokens, temperature: variant.temperature, n: 1, seed },
      { path, paths: 1, promptEstimate: prompt, estimate },
      budget,
    );
    if (!outcome.ok) {
      // Attempts of unknown outcome were booked at their reservations: the path spent them.
      if (tokens !== undefined) tokens += outcome.unknownBooked;
      return end(outcome.finish, outcome.error);
    }
    turns += 1;
    const answered = outcome.result.usage.totalTokens;
    const billed = answered === undefined ? undefined : answered + outcome.unknownBooked;
    // Unknown is not zero: one call without usage makes the path's total unknown.
    tokens = tokens === undefined || billed === undefined ? undefined : tokens + billed;
    const choice = outcome.result.choices[0];
    if (choice === undefined) return end('error', 'upstream returned no choices');
    text = choice.text;
    const calls = choice.toolCalls ?? [];
    const finish = choice.finishReason.unified;
    // A reply cut off at max_tokens is final: its tool calls, if any, may be cut too.
    if (finish === 'length') return end(binding ? 'budget_exhausted' : 'length');
    if (calls.length === 0) return end(finish === 'tool_calls' ? 'stop' : finish);

    messages.push({ role: 'assistant', content: choice.text, toolCalls: calls });
    const earlier = [...trajectory];
    const results = await Promise.all(calls.map((call) => runToolCall(call, turns, earlier, toolContext)));
    for (const result of results) {
      trajectory.push(result.step);
      messages.push(result.message);
    }
  }
  return end('error', `max_turns (${config.maxTurns}) reached while the model was still calling tools`);
}
