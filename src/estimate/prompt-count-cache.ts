/**
 * Provider prompt counts (Anthropic `count_tokens`) cached per prompt hash: a run sends the
 * same skill + case prompt for every path, epoch and retry, and the count is a network round
 * trip. An upstream without the endpoint (an OpenAI-compatible router speaking Anthropic:
 * 400/404/405/501) is asked once, one that keeps failing otherwise (429, 5xx, timeouts) three
 * times; then the learned ratio applies for that base URL.
 */
import { createHash } from 'node:crypto';

const LIMIT = 4096;
/** Statuses that say the endpoint is not there at all. */
const ABSENT = new Set([400, 404, 405, 501]);
const MAX_FAILURES = 3;

export class PromptCountCache {
  private readonly counts = new Map<string, number>();
  private readonly unavailable = new Set<string>();
  private readonly failures = new Map<string, number>();

  /** The cached count of `prompt` (any JSON-able request shape), else asks `count` once. */
  async count(baseUrl: string, prompt: unknown, count: () => Promise<number>): Promise<number | undefined> {
    if (this.unavailable.has(baseUrl)) return undefined;
    const key = createHash('sha256').update(baseUrl).update('\u0000').update(JSON.stringify(prompt)).digest('base64');
    const known = this.counts.get(key);
    if (known !== undefined) return known;
    let counted: number;
    try {
      counted = await count();
    } catch (error) {
      const status = (error as { status?: unknown } | undefined)?.status;
      const failures = (this.failures.get(baseUrl) ?? 0) + 1;
      this.failures.set(baseUrl, failures);
      if ((typeof status === 'number' && ABSENT.has(status)) || failures >= MAX_FAILURES) this.unavailable.add(baseUrl);
      return undefined;
    }
    if (!Number.isInteger(counted) || counted < 0) return undefined;
    if (this.counts.size >= LIMIT) this.counts.delete(this.counts.keys().next().value as string);
    this.counts.set(key, counted);
    return counted;
  }
}
