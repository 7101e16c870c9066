/**
 * One proposer call: through the runner's `callModel` (retries with backoff, a reservation
 * of prompt + max_tokens, one call record per attempt), checked against `budget_tokens`
 * first, recorded in the loop's own ledger (`calls.jsonl`, `role: propose`, split `train`:
 * only train is shown to the proposer), and its reply kept so a resumed loop never asks the
 * same question twice.
 */
import { runEstimation } from '../runner/estimate-prompt.js';
import { withoutUserinfo } from '../core/display-url.js';
import { buildPriceTable } from '../pricing/build-table.js';
import { closeSync, existsSync, fdatasyncSync, openSync, readFileSync, writeSync } from 'node:fs';
import type { ChatMessage } from '../core/messages.js';
import { countPromptTokens } from '../core/tokens.js';
import type { CallRecord } from '../ledger/records.js';
import { BudgetTracker } from '../budget/budget-tracker.js';
import { promptEstimate } from '../budget/path-budget.js';
import { callModel } from '../runner/call-model.js';
import { Semaphore } from '../runner/pool.js';
import type { RunContext, UnitContext } from '../runner/unit-context.js';
import { ensureFits, LoopStopped, type LoopContext } from './context.js';

export interface ProposerReply {
  /** `propose`, or `repair-<slot>`. */
  step: string;
  text: string;
  /** Tokens of every attempt of the call (tokens). */
  tokens: number;
  /** Set when the call failed after its retries: the round then has no proposals from it. */
  error?: string;
}

export function readReplies(file: string): ProposerReply[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8').split('\n').filter((line) => line.trim() !== '').flatMap((line) => {
    try {
      return [JSON.parse(line) as ProposerReply];
    } catch {
      return []; // a torn last line: that call is asked again (its calls are in the ledger)
    }
  });
}

let callSequence = 0;

export async function askProposer(context: LoopContext, round: number, step: string, messages: ChatMessage[]): Promise<ProposerReply> {
  const repliesFile = context.paths.round(round).proposerReplies;
  const known = readReplies(repliesFile).find((reply) => reply.step === step);
  if (known) return known;
  const { settings } = context;
  const provider = context.proposerProvider;
  const estimate = promptEstimate(countPromptTokens(messages), provider.protocol === 'sim');
  const worstCase = estimate + settings.proposerMaxTokens;
  ensureFits(context, worstCase, `the round-${round} proposer call (${step})`);
  const slot = /^repair-(\d+)$/.exec(step)?.[1];
  const caseId = slot === undefined ? `propose-r${round}` : `repair-r${round}-p${slot}`;
  const abort = new AbortController();
  const onAbort = (): void => abort.abort(new LoopStopped({ reason: 'interrupted', message: `interrupted during the round-${round} proposer call` }));
  context.signal?.addEventListener('abort', onAbort, { once: true });
  if (context.signal?.aborted) onAbort();
  const run: RunContext = {
    runId: context.evolveId,
    config: { ...context.config, provider: context.config.evolve?.provider ?? context.config.provider },
    provider,
    baseUrl: withoutUserinfo(provider.baseUrl),
    prices: buildPriceTable({ config: context.config.pricing }),
    pool: new Semaphore(1),
    limiter: undefined,
    promptExact: provider.protocol === 'sim',
    ...runEstimation(provider.protocol === 'sim'),
    nativeN: { enabled: false },
    signal: abort.signal,
    random: Math.random,
    // The proposer's ledger is written whole after the call (its replies file makes a resumed
    // loop skip a step already paid for), so a call id is all an intent needs here.
    startCall: () => `${context.evolveId}-${step}-r${round}-${(callSequence += 1)}`,
    onEvent: () => undefined,
    onSpend: () => undefined,
  };
  const unit: UnitContext = {
    run,
    unit: {
      key: `train|${caseId}|proposer|0`,
      split: 'train',
      evalCase: { id: caseId, input: '', messages, expected: undefined, reference: undefined, category: 'proposer', tags: [], cluster: undefined, metadata: {}, source: { file: context.paths.calls, line: 0 } },
      arm: { arm: 'proposer', variant: 'candidate', n: 1 },
      epoch: 0,
    },
    budget: new BudgetTracker(worstCase),
    calls: [],
  };
  try {
    const outcome = await callModel(unit, { model: settings.proposer, messages, maxTokens: settings.proposerMaxTokens, temperature: settings.proposerTemperature, n: 1 }, { role: 'propose', path: 0, paths: 1, promptEstimate: estimate });
    appendLines(context.paths.calls, unit.calls.map((call) => redact(JSON.stringify(call), context.secrets)));
    const reply: ProposerReply = outcome.ok
      ? { step, text: outcome.result.choices[0]?.text ?? '', tokens: tokensOf(unit.calls) }
      : { step, text: '', tokens: tokensOf(unit.calls), error: outcome.error };
    appendLines(repliesFile, [JSON.stringify(reply)]);
    return reply;
  } catch (error) {
    // Interrupted: the attempts made so far were (maybe) billed, so they go into the ledger.
    appendLines(context.paths.calls, unit.calls.map((call) => redact(JSON.stringify(call), context.secrets)));
    if (error instanceof LoopStopped) throw error;
    if (abort.signal.aborted) throw new LoopStopped({ reason: 'interrupted', message: 'interrupted' });
    throw error;
  } finally {
    context.signal?.removeEventListener('abort', onAbort);
  }
}

function tokensOf(calls: readonly CallRecord[]): number {
  return calls.reduce((sum, call) => sum + (call.total_tokens ?? 0), 0);
}

function redact(line: string, secrets: readonly string[]): string {
  return secrets.filter((s) => s.length >= 8).reduce((text, secret) => text.split(secret).join('[redacted]'), line);
}

/** Appends whole lines and syncs them: the ledger is what the budget is counted from. */
function appendLines(file: string, lines: readonly string[]): void {
  if (lines.length === 0) return;
  const fd = openSync(file, 'a');
  try {
    writeSync(fd, lines.map((line) => `${line}\n`).join(''));
    fdatasyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
