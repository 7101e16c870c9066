/**
 * The flags of a safe first paid run, shared by `run`, `evolve` and `gate`: the case subset
 * (`--limit`, `--cases`, `--sample --seed`), the size line (`--dry-run`, printed at every
 * start), the confirmation above a threshold on a paid provider (`--yes`), and the run-level
 * cap (`--max-total-tokens`).
 *
 * Without a TTY nobody can answer a question: above the threshold such a run starts only with
 * `--yes` and says why it refused (a CI job that should spend sets --yes on purpose).
 */
import { createInterface } from 'node:readline/promises';
import { IsobudgetError } from '../../core/errors.js';
import type { CaseSelection } from '../../runner/case-selection.js';
import { describeRunSize } from '../../runner/run-size.js';
import type { ExperimentSize } from '../../runner/size-experiment.js';
import { formatUsd } from '../../pricing/format-usd.js';
import { intOption } from '../args.js';

/** Worst case above which a paid run asks first (USD); without a price, the token figure below. */
export const CONFIRM_ABOVE_USD = 20;
/** Worst case above which a paid run without a price asks first (tokens). */
export const CONFIRM_ABOVE_TOKENS = 10_000_000;

export const CASE_FLAGS = {
  limit: { type: 'string', value: 'N', help: 'run only the first N cases of the split (file order); the run is marked partial: "N of M cases"', example: '5' },
  cases: { type: 'string', value: 'ID,ID…', help: 'run only these case ids (marked partial)', example: 'q-001,q-007' },
  sample: { type: 'string', value: 'N', help: 'run a random subset of N cases, stratified by category (with --seed; marked partial)', example: '20' },
  seed: { type: 'string', value: 'S', help: 'the seed of --sample', fallback: '0', example: '7' },
} as const;

export const SIZE_FLAGS = {
  'dry-run': { type: 'boolean', help: 'print units, calls at most, worst-case and expected tokens and money, then stop: no run directory, no call' },
  yes: { type: 'boolean', help: `start a paid run whose worst case is above $${CONFIRM_ABOVE_USD} (or ${CONFIRM_ABOVE_TOKENS.toLocaleString('en-US')} tokens unpriced) without asking; needed without a TTY` },
  'max-total-tokens': { type: 'string', value: 'N', help: 'run-level cap over every call (over budget.max_total_tokens): stops starting units that could cross it; the run ends interrupted and --resume with a higher cap completes it', example: '2000000' },
} as const;

/** The case subset the flags ask for; undefined: the whole split. */
export function caseSelection(values: { limit?: string | boolean | undefined; cases?: string | boolean | undefined; sample?: string | boolean | undefined; seed?: string | boolean | undefined }): CaseSelection | undefined {
  const text = (name: 'limit' | 'cases' | 'sample' | 'seed'): string | undefined => (typeof values[name] === 'string' ? (values[name] as string) : undefined);
  const given = (['limit', 'cases', 'sample'] as const).filter((name) => text(name) !== undefined);
  if (given.length > 1) throw new IsobudgetError('usage', `--${given.join(' and --')} choose cases differently: give one of them`);
  if (text('seed') !== undefined && text('sample') === undefined) throw new IsobudgetError('usage', '--seed goes with --sample N');
  const positive = (name: 'limit' | 'sample'): number => {
    const value = intOption(name, text(name));
    if (value === undefined || value < 1) throw new IsobudgetError('usage', `--${name} must be a whole number ≥ 1, got '${text(name)}'`);
    return value;
  };
  if (text('limit') !== undefined) return { kind: 'limit', limit: positive('limit') };
  if (text('sample') !== undefined) return { kind: 'sample', size: positive('sample'), seed: intOption('seed', text('seed')) ?? 0 };
  const ids = text('cases');
  if (ids === undefined) return undefined;
  const list = ids.split(',').map((id) => id.trim()).filter((id) => id !== '');
  if (list.length === 0) throw new IsobudgetError('usage', '--cases needs at least one case id (ID,ID…)');
  return { kind: 'cases', ids: list };
}

export function maxTotalTokensFlag(value: string | boolean | undefined): number | undefined {
  if (typeof value !== 'string') return undefined;
  const parsed = intOption('max-total-tokens', value.replace(/[_,]/g, ''));
  if (parsed === undefined || parsed < 1) throw new IsobudgetError('usage', `--max-total-tokens must be a whole number of tokens ≥ 1, got '${value}'`);
  return parsed;
}

/** The size line: "run size: 880 units, at most …; worst case … tokens ≈ $… at … prices; expected ≈ …". */
export function sizeLine(sized: ExperimentSize, maxTotalTokens: number | undefined): string {
  const simulator = sized.config.provider.protocol === 'sim';
  const partial = sized.inputs.partial === undefined ? '' : ` (${sized.inputs.partial.cases} of ${sized.inputs.partial.of} cases: ${sized.inputs.partial.selection})`;
  const cap = maxTotalTokens ?? sized.config.budget.maxTotalTokens;
  const caps = [cap === undefined ? undefined : `max_total_tokens ${cap.toLocaleString('en-US')}`, sized.config.budget.maxCostUsd === undefined ? undefined : `max_cost_usd ${sized.config.budget.maxCostUsd}`].filter((c) => c !== undefined);
  return `run size${partial}: ${describeRunSize(sized.size, sized.expected, formatUsd, simulator)}${caps.length > 0 ? `; run-level cap ${caps.join(', ')}` : ''}`;
}

/** Why this run needs a yes before it spends; undefined when it does not (simulator, or under the threshold). */
export function needsConfirmation(sized: ExperimentSize, maxTotalTokens: number | undefined): string | undefined {
  if (sized.config.provider.protocol === 'sim') return undefined;
  const cap = maxTotalTokens ?? sized.config.budget.maxTotalTokens;
  const tokens = Math.min(sized.size.worstCaseTokens, cap ?? Number.POSITIVE_INFINITY);
  const usd = sized.size.worstCaseUsd === undefined ? undefined : Math.min(sized.size.worstCaseUsd, sized.config.budget.maxCostUsd ?? Number.POSITIVE_INFINITY);
  if (usd !== undefined) return usd > CONFIRM_ABOVE_USD ? `its worst case is ${formatUsd(usd)} (above $${CONFIRM_ABOVE_USD})` : undefined;
  return tokens > CONFIRM_ABOVE_TOKENS ? `its worst case is ${tokens.toLocaleString('en-US')} tokens (above ${CONFIRM_ABOVE_TOKENS.toLocaleString('en-US')}) and no price is known` : undefined;
}

/** Asks on the terminal; true for y/yes. */
export async function confirmOnTerminal(question: string, signal: AbortSignal): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await rl.question(question, { signal });
    return /^y(es)?$/i.test(answer.trim());
  } catch {
    return false;
  } finally {
    rl.close();
  }
}
