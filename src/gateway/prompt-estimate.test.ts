import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { countTokens } from '../core/tokens.js';
import { billableContent } from '../estimate/billable-content.js';
import { bodyShape, sampledExtraBytes, shapeOf } from '../estimate/body-shape.js';
import { countBodyTokens, countFreshParts, forgetBodyCounts, measureParts } from './prompt-estimate.js';

const claudeCode = JSON.parse(readFileSync('/work/shared/fixtures/real-clients/claude-code-2.1.332.jsonl', 'utf8').split('\n')[0] ?? '{}') as { body: Record<string, unknown> };

/**
 * This process's CPU time (ms). The bounds below are on CPU time, not wall time: a loaded CI
 * machine deschedules the process for 100 ms and more, which says nothing about the code.
 */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** The most CPU time spent between two turns of the event loop while `work` runs (ms). */
async function longestStall(work: () => Promise<unknown> | unknown): Promise<number> {
  let longest = 0;
  let last = cpuMs();
  let running = true;
  const tick = (): void => {
    const now = cpuMs();
    longest = Math.max(longest, now - last);
    last = now;
    if (running) setImmediate(tick);
  };
  setImmediate(tick);
  await work();
  running = false;
  await new Promise<void>((resolve) => setImmediate(resolve));
  return longest;
}

describe('body token counts', () => {
  test('never below the tokens of the whole text, and close to it (one token per ~1 KB chunk)', async () => {
    forgetBodyCounts();
    const raw = JSON.stringify(claudeCode.body);
    const counted = await countBodyTokens(raw);
    expect(counted).toBeGreaterThanOrEqual(countTokens(raw));
    expect(counted).toBeLessThan(countTokens(raw) * 1.05);
    // A short text is one piece: its tokens + 1.
    expect(countBodyTokens('{"model":"m","messages":[]}')).toBe(countTokens('{"model":"m","messages":[]}') + 1);
  });

  test('a resent prefix is remembered by content: the next turn is answered synchronously, whatever was added', async () => {
    forgetBodyCounts();
    const body = { ...claudeCode.body, messages: [{ role: 'user', content: 'turn one' }] };
    const first = await countBodyTokens(JSON.stringify(body));
    const next = { ...body, messages: [{ role: 'user', content: 'turn one' }, { role: 'assistant', content: 'ok' }, { role: 'user', content: 'turn two' }] };
    const second = countBodyTokens(JSON.stringify(next));
    // A number, not a promise: only the last chunk or two were new. No wall-clock bound: CI load would make it flaky.
    expect(typeof second).toBe('number');
    expect(second as number).toBeGreaterThan(first);
    expect(second as number).toBeGreaterThanOrEqual(countTokens(JSON.stringify(next)));
  });

  test("a key's last strings: unchanged ones at the start and at the end are reused, new turns in between are the only new text", async () => {
    forgetBodyCounts();
    // Claude Code's order: messages first, then the system prompt and tools that never change.
    const turns: Array<Record<string, unknown>> = [];
    const body = (n: number) => ({ model: 'm', messages: turns.slice(0, n), system: claudeCode.body['system'], tools: claudeCode.body['tools'] });
    for (let n = 1; n <= 6; n += 1) {
      const turn = `turn ${n}: ${'a few words about the task at hand. '.repeat(20 * n)}`;
      turns.push({ role: n % 2 ? 'user' : 'assistant', content: turn });
      const { parts } = billableContent('anthropic-messages', body(n));
      const measure = measureParts(parts, 'key-1');
      // Only the new turn is new (and the role 'assistant' the first time); the system prompt, tools and earlier turns are known.
      if (n > 1) expect(measure.freshChars).toBe(turn.length + (n === 2 ? 'assistant'.length : 0));
      const counted = await countFreshParts(measure);
      const whole = parts.reduce((sum, part) => sum + countTokens(part), 0);
      expect(counted).toBeGreaterThanOrEqual(whole + parts.length);
      expect(counted).toBeLessThan(whole * 1.05 + parts.length);
    }
  });

  test('a 4 MB body: measured without reading it (a bound of 3 bytes a character), counted in slices', async () => {
    forgetBodyCounts();
    const raw = JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'plain words and more words '.repeat(150_000) }] });
    const started = cpuMs();
    const measure = measureParts([raw], 'huge-key');
    expect(cpuMs() - started).toBeLessThan(50);
    expect(measure.freshBound).toBeGreaterThanOrEqual(Buffer.byteLength(raw));
    let counted = 0;
    const stall = await longestStall(async () => {
      counted = await countBodyTokens(raw, 'huge-key');
    });
    expect(counted).toBeGreaterThanOrEqual(countTokens(raw));
    expect(stall).toBeLessThan(60);
  });

  test.each([
    ['200k letters without a space', 'x'.repeat(200_000)],
    ['1 MB of prose', 'lorem ipsum dolor sit amet, '.repeat(40_000)],
    ['300k CJK characters', '预算公平的评测比较同样的案例'.repeat(25_000)],
  ])('%s: counted in slices between turns of the event loop, never below the whole', async (_name, text) => {
    // Warm: the first long merges also compile the merge code, which is not what is measured here.
    await countBodyTokens(JSON.stringify({ content: text.slice(0, 40_000) }));
    forgetBodyCounts();
    const raw = JSON.stringify({ model: 'm', messages: [{ role: 'user', content: text }] });
    let counted = 0;
    const stall = await longestStall(async () => {
      const result = countBodyTokens(raw);
      expect(result).toBeInstanceOf(Promise);
      counted = await result;
    });
    expect(counted).toBeGreaterThanOrEqual(countTokens(raw));
    // ~16 KB of new text per turn is a few ms; the bound is generous for a loaded machine (bench: bench/gateway-real-bodies.mjs).
    expect(stall).toBeLessThan(60);
  });
});

describe("a body's shape from the measure equals bodyShape (an unchanged string's share comes from the last body)", () => {
  const shapeOfMeasure = (parts: string[], memoKey: string) => {
    const measure = measureParts(parts, memoKey);
    expect(measure.extraBytes).toBe(parts.reduce((sum, part) => sum + sampledExtraBytes(part), 0));
    expect(measure.chars).toBe(parts.reduce((sum, part) => sum + part.length, 0));
    return shapeOf({ protocol: 'p', chars: measure.chars, sampled: measure.sampled, extraBytes: measure.extraBytes, messages: 3, tools: 1, images: 0 });
  };
  test('a session whose turns change script, and a body equal at both ends but different inside', () => {
    forgetBodyCounts();
    const system = 'plain English system prompt, déjà vu. '.repeat(200);
    const scripts = ['latin words here '.repeat(30), '预算公平的评测比较同样的案例'.repeat(30), 'mixé café naïve '.repeat(30), 'x'.repeat(5000) + '预算'.repeat(2000)];
    const parts: string[] = ['user'];
    for (let i = 0; i < 12; i += 1) {
      parts.splice(parts.length, 0, scripts[i % scripts.length] as string);
      const body = [...parts, system];
      expect(shapeOfMeasure(body, 'shape-key')).toBe(bodyShape({ protocol: 'p', parts: body, messages: 3, tools: 1, images: 0 }));
    }
    // The same start and end as the last body, a wide middle where it had a latin one: not reused.
    const last = ['user', 'latin words here '.repeat(30), 'latin words here '.repeat(30), system];
    const crafted = ['user', 'latin words here '.repeat(30), '预算公平的评测比较同样的案例'.repeat(100), system];
    expect(shapeOfMeasure(last, 'k2')).toBe(bodyShape({ protocol: 'p', parts: last, messages: 3, tools: 1, images: 0 }));
    expect(shapeOfMeasure(crafted, 'k2')).toBe(bodyShape({ protocol: 'p', parts: crafted, messages: 3, tools: 1, images: 0 }));
    expect(shapeOfMeasure(crafted, 'k2')).not.toBe(shapeOfMeasure(last, 'k3'));
  });
});
