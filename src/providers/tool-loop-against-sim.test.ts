/**
 * A tool loop through each real provider against `sim serve` over HTTP: tool definitions
 * out, tool calls back, assistant tool-call turns and tool results out again — and at every
 * turn the sim bills exactly `countPromptTokens + countToolDefinitionTokens` of the
 * conversation we hold, which is what makes agent budget math exact on the simulator.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { ChatMessage } from '../core/messages.js';
import { countPromptTokens, countToolDefinitionTokens } from '../core/tokens.js';
import { startSimServer, type SimServer } from './sim/server.js';
import type { Provider, ToolDefinition } from './spec.js';
import { PROTOCOL_FIXTURES } from './test-support/protocol-fixtures.js';

const STOCK: Record<string, number> = { 'K-4821': 137, 'M-1093': 52, 'T-7730': 300 };
const LOOKUP: ToolDefinition = {
  name: 'lookup',
  description: 'Current stock of one inventory item.',
  parameters: { type: 'object', properties: { item: { type: 'string' } }, required: ['item'] },
};
const ONCE = 'Use the lookup tool for every item. End with "Answer: <total>".';
const CAREFUL = `${ONCE} Double-check every lookup by repeating it. If a lookup fails, retry it once.`;
const QUESTION = 'How many units of K-4821, M-1093 and T-7730 are in stock in total?';

let server: SimServer;
beforeAll(async () => {
  server = await startSimServer({ seed: 3, latencyScale: 0 });
});
afterAll(async () => {
  await server.close();
});

/** The fake tool: ids must look like K-1234 (the sim sometimes sends bare digits). */
function lookup(args: string): { content: string; isError: boolean } {
  const item = (JSON.parse(args) as { item?: unknown }).item;
  const stock = typeof item === 'string' ? STOCK[item] : undefined;
  return stock === undefined ? { content: `Error: unknown item id ${JSON.stringify(item)}: ids look like K-1234`, isError: true } : { content: JSON.stringify({ item, stock }), isError: false };
}

async function loop(provider: Provider, skill: string, seed: number): Promise<{ answer: string; calls: string[]; turns: number }> {
  const messages: ChatMessage[] = [{ role: 'system', content: skill }, { role: 'user', content: QUESTION }];
  const calls: string[] = [];
  for (let turn = 1; turn <= 8; turn += 1) {
    const result = await provider.generate({ model: 'sim-small', messages: [...messages], tools: [LOOKUP], maxTokens: 256, temperature: 0.2, n: 1, seed });
    // Exact billing of the whole conversation, tool traffic and definitions included.
    expect(result.usage.inputTokens).toBe(countPromptTokens(messages) + countToolDefinitionTokens([LOOKUP]));
    const choice = result.choices[0];
    if (choice?.toolCalls === undefined) return { answer: choice?.text ?? '', calls, turns: turn };
    expect(choice.finishReason.unified).toBe('tool_calls');
    messages.push({ role: 'assistant', content: choice.text, toolCalls: choice.toolCalls });
    for (const call of choice.toolCalls) {
      expect(call.name).toBe('lookup');
      calls.push(call.arguments);
      const { content, isError } = lookup(call.arguments);
      messages.push({ role: 'tool', content, toolCallId: call.id, ...(isError ? { isError } : {}) });
    }
  }
  throw new Error('no answer in 8 turns');
}

describe.each(PROTOCOL_FIXTURES)('$protocol tool loop against the simulator', (fixture) => {
  test('looks every item up, reads the results back and answers the total', async () => {
    const provider = fixture.create(server.url);
    const { answer, calls, turns } = await loop(provider, ONCE, 1);
    expect(answer).toMatch(/Answer: -?\d+$/);
    // A sloppy first call (bare digits) may come before the corrected one.
    const items = calls.map((c) => (JSON.parse(c) as { item: string }).item).filter((item) => /^[A-Z]-/.test(item));
    expect(new Set(items)).toEqual(new Set(['K-4821', 'M-1093', 'T-7730']));
    expect(turns).toBeGreaterThanOrEqual(2);
  });

  test('a careful skill repeats its lookups and reaches the same answer', async () => {
    const provider = fixture.create(server.url);
    const once = await loop(provider, ONCE, 2);
    const careful = await loop(provider, CAREFUL, 2);
    expect(careful.answer.replace(/ \(every lookup double-checked\)/, '')).toBe(once.answer);
    expect(careful.calls.length).toBeGreaterThanOrEqual(once.calls.length + 3);
    expect(careful.turns).toBeGreaterThan(once.turns);
  });
});

test('a sloppy id comes back as an error the model corrects, under every protocol alike', async () => {
  // Seeds differ per draw: find one where some first lookup sends bare digits.
  const provider = PROTOCOL_FIXTURES[0]!.create(server.url);
  let corrected = false;
  for (let seed = 0; seed < 20 && !corrected; seed += 1) {
    const { calls, answer } = await loop(provider, ONCE, seed);
    if (calls.some((c) => /"\d+"/.test(c))) {
      corrected = true;
      expect(answer).toContain(`Answer: `);
    }
  }
  expect(corrected).toBe(true);
});
