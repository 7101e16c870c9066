import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { readBudgetFields } from './budget-fields.js';
import { clampRequest } from './clamp-request.js';
import type { GenerationProtocol } from './routes.js';
import { unestimableField } from './unestimable-fields.js';
import { rawKeyCount, walkBody } from './body-walk.js';

describe('readBudgetFields', () => {
  test.each([
    { protocol: 'openai-chat', body: { max_tokens: 10, max_completion_tokens: 100_000 }, present: ['max_tokens', 'max_completion_tokens'], requested: 10, choices: 1 },
    { protocol: 'openai-chat', body: { max_tokens: null, n: 3 }, present: ['max_tokens'], requested: undefined, choices: 3 },
    { protocol: 'openai-chat', body: { n: 2, best_of: 5 }, present: [], requested: undefined, choices: 5 },
    { protocol: 'anthropic-messages', body: { max_tokens: 128_000, max_output_tokens: 9 }, present: ['max_tokens', 'max_output_tokens'], requested: 9, choices: 1 },
    { protocol: 'openai-responses', body: {}, present: [], requested: undefined, choices: 1 },
  ] as const)('$protocol $body', ({ protocol, body, present, requested, choices }) => {
    expect(readBudgetFields(protocol, body)).toEqual({ ok: true, fields: { present, requested, choices } });
  });

  test.each([
    [{ max_tokens: '10' }, 'max_tokens'], [{ max_completion_tokens: -1 }, 'max_completion_tokens'], [{ max_tokens: 0 }, 'max_tokens'],
    [{ max_tokens: 1.5 }, 'max_tokens'], [{ n: '8' }, 'n'], [{ n: 0 }, 'n'], [{ best_of: true }, 'best_of'], [{ max_output_tokens: [5] }, 'max_output_tokens'],
  ])('%j is refused, naming %s', (body, param) => {
    const read = readBudgetFields('openai-chat', body);
    expect(read).toMatchObject({ ok: false, param });
    expect(!read.ok && read.message).toContain(`'${param}' must be a positive integer`);
  });
});

describe('clampRequest writes the one reserved cap into every cap field', () => {
  const clamp = (protocol: GenerationProtocol, body: Record<string, unknown>, allowed: number) => {
    const read = readBudgetFields(protocol, body);
    if (!read.ok) throw new Error(read.message);
    return clampRequest(protocol, body, read.fields, allowed);
  };
  test('the smaller cap of two is reserved and sent in both: whichever the upstream honours, it is that', () => {
    const result = clamp('openai-chat', { max_tokens: 10, max_completion_tokens: 100_000 }, 5_000);
    expect(result).toMatchObject({ maxTokens: 10, clamped: false, body: { max_tokens: 10, max_completion_tokens: 10 } });
  });
  test('a null cap is replaced; foreign cap fields are clamped too', () => {
    expect(clamp('openai-chat', { max_tokens: null }, 700).body).toEqual({ max_tokens: 700 });
    expect(clamp('openai-responses', { max_tokens: 100_000 }, 300).body).toEqual({ max_tokens: 300 });
    expect(clamp('anthropic-messages', { max_tokens: 64, max_completion_tokens: 100_000 }, 900).body).toEqual({ max_tokens: 64, max_completion_tokens: 64 });
  });
  test('best_of multiplies the reservation like n', () => {
    const result = clamp('openai-chat', { max_tokens: 400, best_of: 8 }, 1_000);
    expect(result.maxTokens * result.choices).toBeLessThanOrEqual(1_000);
    expect(result.choices).toBe(8);
  });
  test('a body that already says the reserved cap is passed on as it came', () => {
    const body = { max_tokens: 300 };
    expect(clamp('anthropic-messages', body, 5_000).body).toBe(body);
  });
});

describe('real client bodies pass', () => {
  const dir = '/work/shared/fixtures/real-clients';
  test.each(['claude-code-2.1.332.jsonl', 'codex-0.171.0-responses.jsonl'])('%s: no unbounded feature, sound cap fields', (file) => {
    for (const line of readFileSync(`${dir}/${file}`, 'utf8').trim().split('\n')) {
      const { path, body } = JSON.parse(line) as { path: string; body: Record<string, unknown> | null };
      if (body === null || typeof body !== 'object') continue;
      const protocol: GenerationProtocol = path.startsWith('/v1/messages') ? 'anthropic-messages' : 'openai-responses';
      expect(readBudgetFields(protocol, body).ok).toBe(true);
      const walk = walkBody(body);
      expect(unestimableField(protocol, body, walk)).toBeUndefined();
      // Each key once: the duplicate-key check passes real clients' bytes.
      expect(rawKeyCount(JSON.stringify(body))).toBe(walk.keys);
    }
  });
});
