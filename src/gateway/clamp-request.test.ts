import { describe, expect, test } from 'vitest';
import { readBudgetFields } from './budget-fields.js';
import { askForStreamUsage, clampRequest as clampWithFields } from './clamp-request.js';
import type { GenerationProtocol } from './routes.js';

function clampRequest(protocol: GenerationProtocol, body: Record<string, unknown>, allowed: number) {
  const read = readBudgetFields(protocol, body);
  if (!read.ok) throw new Error(read.message);
  return clampWithFields(protocol, body, read.fields, allowed);
}

describe('clampRequest', () => {
  test.each([
    { name: 'Claude Code asks 128000, 5000 left', protocol: 'anthropic-messages' as const, body: { max_tokens: 128000 }, allowed: 5000, field: 'max_tokens', max: 5000, clamped: true },
    { name: 'a request under the budget is untouched', protocol: 'anthropic-messages' as const, body: { max_tokens: 300 }, allowed: 5000, field: 'max_tokens', max: 300, clamped: false },
    { name: 'Codex sends no max_output_tokens: one is added', protocol: 'openai-responses' as const, body: { stream: true }, allowed: 777, field: 'max_output_tokens', max: 777, clamped: true },
    { name: 'chat without a cap gets max_tokens', protocol: 'openai-chat' as const, body: {}, allowed: 900, field: 'max_tokens', max: 900, clamped: true },
    { name: 'chat max_completion_tokens is the field clamped', protocol: 'openai-chat' as const, body: { max_completion_tokens: 4096 }, allowed: 900, field: 'max_completion_tokens', max: 900, clamped: true },
    { name: 'chat with n=4 splits what is left per choice', protocol: 'openai-chat' as const, body: { max_tokens: 4096, n: 4 }, allowed: 1000, field: 'max_tokens', max: 250, clamped: true },
  ])('$name', ({ protocol, body, allowed, field, max, clamped }) => {
    const result = clampRequest(protocol, body, allowed);
    expect(result.maxTokens).toBe(max);
    expect(result.clamped).toBe(clamped);
    expect(result.body[field]).toBe(max);
    expect(result.maxTokens * result.choices).toBeLessThanOrEqual(allowed);
  });

  test('both chat cap fields present: both are clamped', () => {
    const result = clampRequest('openai-chat', { max_tokens: 5000, max_completion_tokens: 6000 }, 100);
    expect(result.body).toMatchObject({ max_tokens: 100, max_completion_tokens: 100 });
    expect(result.requested).toBe(5000);
  });

  test('extended thinking: budget_tokens is kept below max_tokens, or thinking is switched off', () => {
    const body = { max_tokens: 32000, thinking: { type: 'enabled', budget_tokens: 16000 } };
    expect(clampRequest('anthropic-messages', body, 8000).body['thinking']).toEqual({ type: 'enabled', budget_tokens: 7999 });
    expect(clampRequest('anthropic-messages', body, 900).body['thinking']).toEqual({ type: 'disabled' });
    // Claude Code's adaptive thinking has no budget to fit.
    expect(clampRequest('anthropic-messages', { max_tokens: 128000, thinking: { type: 'adaptive' } }, 900).body['thinking']).toEqual({ type: 'adaptive' });
  });

  test('the original body is never mutated', () => {
    const body = { max_tokens: 128000 };
    clampRequest('anthropic-messages', body, 10);
    expect(body).toEqual({ max_tokens: 128000 });
  });
});

describe('askForStreamUsage', () => {
  test('chat streams ask for usage; other requests and explicit choices are left alone', () => {
    expect(askForStreamUsage('openai-chat', { stream: true })).toEqual({ stream: true, stream_options: { include_usage: true } });
    expect(askForStreamUsage('openai-chat', { stream: true, stream_options: { include_obfuscation: false } })).toEqual({ stream: true, stream_options: { include_obfuscation: false, include_usage: true } });
    const explicit = { stream: true, stream_options: { include_usage: false } };
    expect(askForStreamUsage('openai-chat', explicit)).toBe(explicit);
    const plain = { stream: false };
    expect(askForStreamUsage('openai-chat', plain)).toBe(plain);
    const responses = { stream: true };
    expect(askForStreamUsage('openai-responses', responses)).toBe(responses);
  });
});
