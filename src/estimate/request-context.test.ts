import { describe, expect, test } from 'vitest';
import { runRequestContext } from './request-context.js';

describe('a run request for the estimator', () => {
  const messages = [{ role: 'system' as const, content: 'Be brief.' }, { role: 'user' as const, content: 'What is 2 + 2?' }];
  const tools = [{ name: 'calc', description: 'Adds.', parameters: {} }];

  test("a Claude model with tools: Anthropic's tool-use prompt on top of the run's own count", () => {
    expect(runRequestContext('anthropic-messages', { model: 'claude-sonnet-4-20250514', messages, tools })).toMatchObject({ overhead: 346, overheadFloor: 346 });
    expect(runRequestContext('anthropic-messages', { model: 'claude-sonnet-4-20250514', messages })).toMatchObject({ overhead: 0 });
  });

  test('other models: nothing on top; tools and no tools are different shapes', () => {
    expect(runRequestContext('openai-chat', { model: 'gpt-4o', messages, tools })).toMatchObject({ overhead: 0 });
    expect(runRequestContext('openai-chat', { model: 'm', messages, tools }).shape).not.toBe(runRequestContext('openai-chat', { model: 'm', messages }).shape);
  });
});
