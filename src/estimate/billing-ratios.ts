/**
 * What an upstream bills for a prompt, relative to our o200k count of it, learned from settled
 * calls per (base URL, model), pure. Real providers bill with their own tokenizers and chat
 * templates, and one OpenAI-compatible base URL may serve Claude, Qwen and DeepSeek models:
 * a fixed margin over o200k is a guess. A target never seen is reserved with SEED_RATIO; once
 * calls have settled, with the worst ratio observed for it plus RATIO_MARGIN; PROMPT_OVERHEAD
 * is added on top either way.
 *
 * The ratio is billed / counted, template tokens included: if an upstream bills r·c + t for a
 * prompt of c counted tokens, a prompt of c₀ teaches r + t/c₀, which covers every longer prompt
 * too (an agent's conversation only grows). Prompts under MIN_LEARNING_COUNT teach nothing: on
 * them the template is most of the bill, and PROMPT_OVERHEAD is what covers it.
 */

/** Reservation factor for a (base URL, model) no call has settled on: above the 1.4–1.55 seen for foreign tokenizers on English, CJK and code. */
export const SEED_RATIO = 1.6;
/** Added to the worst observed ratio (relative): the next prompt may tokenize a little worse. */
export const RATIO_MARGIN = 0.05;
/** Tokens reserved on top of every estimated prompt (template and framing). */
export const PROMPT_OVERHEAD = 16;
/** Prompts shorter than this (counted tokens) are not learned from. */
export const MIN_LEARNING_COUNT = 32;

export interface RatioTarget {
  baseUrl: string;
  model: string;
}

interface Learned {
  /** Highest billed / counted seen. */
  worst: number;
  calls: number;
}

export class BillingRatios {
  private readonly learned = new Map<string, Learned>();

  /** The factor a prompt of this target is reserved with. */
  factor(target: RatioTarget): number {
    const seen = this.learned.get(keyOf(target));
    return seen === undefined ? SEED_RATIO : round4(seen.worst * (1 + RATIO_MARGIN));
  }

  /** Learns from a settled call: `counted` is our count of what was sent, `billed` the upstream's prompt tokens. */
  observe(target: RatioTarget, counted: number, billed: number | undefined): void {
    if (billed === undefined || !Number.isFinite(billed) || counted < MIN_LEARNING_COUNT) return;
    const ratio = billed / counted;
    const key = keyOf(target);
    const seen = this.learned.get(key);
    if (seen === undefined) this.learned.set(key, { worst: ratio, calls: 1 });
    else {
      seen.worst = Math.max(seen.worst, ratio);
      seen.calls += 1;
    }
  }

  /** Settled calls learned from, per target (for reports and tests). */
  calls(target: RatioTarget): number {
    return this.learned.get(keyOf(target))?.calls ?? 0;
  }
}

function keyOf(target: RatioTarget): string {
  return `${target.baseUrl}\u0000${target.model}`;
}

function round4(value: number): number {
  // Rounded up to 4 places (never below the exact factor); the epsilon absorbs float noise like 1.5750000000000002.
  return Math.ceil(value * 10_000 - 1e-9) / 10_000;
}
