/**
 * What every step of the loop shares: the config, the fixed settings, where things go, the
 * memory store, the cases it may show or must hold out, and the budget guard. A step that
 * must not run (the cap would not hold, Ctrl-C) throws `LoopStopped`, which only the loop
 * itself catches: it ends the loop cleanly, with everything done so far on disk.
 */
import type { EvalCase } from '../core/case.js';
import type { ExperimentConfig } from '../config/types.js';
import type { MemoryStore } from '../memory/store/spec.js';
import type { Provider } from '../providers/spec.js';
import type { Stop } from './decide.js';
import type { LoopPaths } from './layout.js';
import { loopTokens } from './ledger-tokens.js';
import type { EvolveSettings } from './types.js';

export interface LoopContext {
  evolveId: string;
  config: ExperimentConfig;
  settings: EvolveSettings;
  paths: LoopPaths;
  store: MemoryStore;
  env: NodeJS.ProcessEnv;
  signal: AbortSignal | undefined;
  /** A fresh provider for each run (a run closes its provider when it ends). */
  runProvider: () => Provider;
  proposerProvider: Provider;
  /** Secrets to scrub from every ledger line (API keys). */
  secrets: string[];
  concurrency: number | undefined;
  skillName: string;
  /** The starting skill (the config's baseline variant). */
  start: { version: string; text: string; file: string; variantId: string; tokens: number };
  cases: { train: EvalCase[]; val: EvalCase[]; test: EvalCase[]; regression: EvalCase[] };
  /** Production failures for the diagnosis (`--failures`), already limited to train. */
  production: ProductionFailures | undefined;
  log: (line: string) => void;
  now: () => Date;
}

export interface ProductionFailures {
  examples: Array<{ id: string; input: string; expected: string; category: string; budget: number; n: number }>;
  notTrain: number;
  duplicates: number;
}

export class LoopStopped extends Error {
  override readonly name = 'LoopStopped';
  constructor(readonly stop: Stop) {
    super(stop.message);
  }
}

/**
 * Throws `LoopStopped` unless `worstCase` more tokens fit under `budget_tokens` on top of what
 * the ledgers already hold — checked before every call and run, so the cap is never crossed.
 */
export function ensureFits(context: LoopContext, worstCase: number, what: string): void {
  if (context.signal?.aborted) throw new LoopStopped({ reason: 'interrupted', message: 'interrupted' });
  const spent = loopTokens(context.paths.dir);
  if (spent.callsMissingUsage > 0) {
    throw new LoopStopped({ reason: 'usage_unknown', message: `${spent.callsMissingUsage} call(s) reported no usage: the loop cannot prove it stays within budget_tokens` });
  }
  const cap = context.settings.budgetTokens;
  if (cap !== null && spent.total + worstCase > cap) {
    throw new LoopStopped({ reason: 'budget_tokens', message: `${what} may spend up to ${worstCase} tokens and only ${Math.max(0, cap - spent.total)} of budget_tokens ${cap} are left` });
  }
}
