/**
 * Provider prompt counts (Anthropic `count_tokens`) cached per prompt hash: a run sends the
 * same skill + case prompt for every path, epoch and retry, and the count is a network round
 * trip. A failed count is remembered per base URL, so an upstream without the endpoint (an
 * OpenAI-compatible router speaking Anthropic) is asked once, then the learned ratio applies.
 */
import { createHash } from 'node:crypto';

const LIMIT = 4096;

export class PromptCountCache {
  private readonly counts = new Map<string, number>();
  private readonly unavailable = new Set<string>();

  /** The cached count of `prompt` (any JSON-able request shape), else asks `count` once. */
  async count(baseUrl: string, prompt: unknown, count: () => Promise<number>): Promise<number | undefined> {
    if (this.unavailable.has(baseUrl)) return undefined;
    const key = createHash('sha256').update(baseUrl).update('\u0000').update(JSON.stringify(prompt)).digest('base64');
    const known = this.counts.get(key);
    if (known !== undefined) return known;
    let counted: number;
    try {
      counted = await count();
    } catch {
      this.unavailable.add(baseUrl);
      return undefined;
    }
    if (!Number.isInteger(counted) || counted < 0) return undefined;
    if (this.counts.size >= LIMIT) this.counts.delete(this.counts.keys().next().value as string);
    this.counts.set(key, counted);
    return counted;
  }
}
