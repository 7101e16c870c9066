import { describe, expect, test } from 'vitest';
import type { ChatMessage } from '../../../core/messages.js';
import type { ToolDefinition } from '../../spec.js';
import { simulate } from '../engine.js';

const LOOKUP: ToolDefinition = { name: 'lookup', description: 'Stock of one item', parameters: { type: 'object', properties: { item: { type: 'string' } } } };
const STOCK: Record<string, number> = { 'K-4821': 137, 'M-1093': 52 };
const ONCE = 'Use the lookup tool. End with "Answer: <total>".';
const CAREFUL = `${ONCE} Double-check every lookup by repeating it. If a lookup fails, retry the same call once.`;
const QUESTION = 'How many units of K-4821 and M-1093 are in stock in total?';

/** Runs the loop on the engine with a tool that rejects bare digits; returns every call and the answer. */
function loop(skill: string, seed: number, tools: ToolDefinition[] = [LOOKUP]): { calls: string[][]; answer: string } {
  const messages: ChatMessage[] = [{ role: 'system', content: skill }, { role: 'user', content: QUESTION }];
  const calls: string[][] = [];
  for (let turn = 0; turn < 10; turn += 1) {
    const choice = simulate({ model: 'sim-small', messages, maxTokens: 256, temperature: 0.2, n: 1, seed, tools }, { seed: 1 }).choices[0];
    if (!choice?.toolCalls) return { calls, answer: choice?.text ?? '' };
    expect(choice.finishReason).toEqual({ unified: 'tool_calls', raw: 'tool_calls' });
    calls.push(choice.toolCalls.map((c) => c.arguments));
    messages.push({ role: 'assistant', content: choice.text, toolCalls: choice.toolCalls });
    for (const call of choice.toolCalls) {
      const item = (JSON.parse(call.arguments) as { item: string }).item;
      const stock = STOCK[item];
      messages.push({ role: 'tool', toolCallId: call.id, content: stock === undefined ? `Error: unknown item id "${item}"` : JSON.stringify({ item, stock }) });
    }
  }
  throw new Error('loop did not end');
}

describe('lookup task', () => {
  test('looks every item up in one turn, then answers the sum', () => {
    const seeds = Array.from({ length: 40 }, (_, i) => i);
    const clean = seeds.map((seed) => loop(ONCE, seed)).find((run) => run.calls.length === 1);
    expect(clean?.calls[0]).toEqual(['{"item":"K-4821"}', '{"item":"M-1093"}']);
    expect(clean?.answer).toMatch(/^Stock: K-4821: 137, M-1093: 52\. Answer: (189|179|199)$/);
  });

  test('a sloppy id is rejected and corrected; the careful skill first retries it unchanged', () => {
    const seed = Array.from({ length: 60 }, (_, i) => i).find((s) => loop(ONCE, s).calls[0]?.some((args) => /"\d+"/.test(args)));
    expect(seed).toBeDefined();
    const once = loop(ONCE, seed ?? 0);
    const careful = loop(CAREFUL, seed ?? 0);
    const sloppy = once.calls[0]?.find((args) => /"\d+"/.test(args)) ?? '';
    expect(once.calls.flat().filter((args) => args === sloppy)).toHaveLength(1);
    expect(careful.calls.flat().filter((args) => args === sloppy)).toHaveLength(2);
    // Rechecks: every id that worked is looked up twice by the careful skill.
    expect(careful.calls.flat().filter((args) => args === '{"item":"K-4821"}')).toHaveLength(2);
    expect(careful.calls.flat().length).toBeGreaterThan(once.calls.flat().length + 2);
  });

  test('the answer is the same under both skills for every seed: luck belongs to the item', () => {
    for (let seed = 0; seed < 30; seed += 1) {
      const number = (text: string) => /Answer: (-?\d+)$/.exec(text)?.[1];
      expect(number(loop(CAREFUL, seed).answer), `seed ${seed}`).toBe(number(loop(ONCE, seed).answer));
    }
  });

  test('with no tool offered it says so instead of guessing', () => {
    const { calls, answer } = loop(ONCE, 1, []);
    expect(calls).toEqual([]);
    expect(answer).toContain('none was offered');
  });

  test('tool calls are billed as completion tokens; ones that do not fit are cut (finish length)', () => {
    const request = { model: 'sim-small', messages: [{ role: 'user' as const, content: QUESTION }], temperature: 0.2, n: 1, tools: [LOOKUP] };
    const full = simulate({ ...request, maxTokens: 256 }, { seed: 1 });
    const billed = full.choices[0]?.tokens ?? 0;
    expect(full.usage.outputTokens).toBe(billed);
    const cut = simulate({ ...request, maxTokens: billed - 1 }, { seed: 1 }).choices[0];
    expect(cut).toMatchObject({ finishReason: { unified: 'length' }, tokens: billed - 1 });
    expect(cut?.toolCalls).toBeUndefined();
  });
});
