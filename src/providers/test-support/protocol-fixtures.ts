/**
 * Per-protocol wiring for table-driven tests: how to build the provider against a loopback
 * URL, which path it calls, and a good body to answer with.
 */
import { createAnthropicMessagesProvider } from '../anthropic-messages/index.js';
import { createOpenAIChatProvider } from '../openai-chat/index.js';
import { createOpenAIResponsesProvider } from '../openai-responses/index.js';
import type { GenerateRequest, Provider } from '../spec.js';
import { FAKE_KEY, anthropicMessageBody, chatCompletionBody, responsesBody } from './canned-bodies.js';

export type RealProtocol = 'openai-chat' | 'openai-responses' | 'anthropic-messages';

export interface ProtocolFixture {
  protocol: RealProtocol;
  /** Path the SDK posts to, given the base URL the fixture builds. */
  path: string;
  create(url: string, options?: { timeoutMs?: number; apiKey?: string; headers?: Record<string, string> }): Provider;
  goodBody(): Record<string, unknown>;
}

export const PROTOCOL_FIXTURES: ProtocolFixture[] = [
  {
    protocol: 'openai-chat',
    path: '/v1/chat/completions',
    create: (url, options = {}) =>
      createOpenAIChatProvider({
        baseUrl: `${url}/v1`,
        apiKey: options.apiKey ?? FAKE_KEY,
        timeoutMs: options.timeoutMs ?? 5_000,
        ...(options.headers ? { headers: options.headers } : {}),
      }),
    goodBody: () => chatCompletionBody(),
  },
  {
    protocol: 'openai-responses',
    path: '/v1/responses',
    create: (url, options = {}) =>
      createOpenAIResponsesProvider({
        baseUrl: `${url}/v1`,
        apiKey: options.apiKey ?? FAKE_KEY,
        timeoutMs: options.timeoutMs ?? 5_000,
        ...(options.headers ? { headers: options.headers } : {}),
      }),
    goodBody: () => responsesBody(),
  },
  {
    protocol: 'anthropic-messages',
    path: '/v1/messages',
    // The Anthropic SDK appends /v1/messages itself.
    create: (url, options = {}) =>
      createAnthropicMessagesProvider({
        baseUrl: url,
        apiKey: options.apiKey ?? FAKE_KEY,
        timeoutMs: options.timeoutMs ?? 5_000,
        ...(options.headers ? { headers: options.headers } : {}),
      }),
    goodBody: () => anthropicMessageBody(),
  },
];

export function basicRequest(overrides: Partial<GenerateRequest> = {}): GenerateRequest {
  return {
    model: 'stub-model',
    messages: [
      { role: 'system', content: 'Answer briefly.' },
      { role: 'user', content: 'Say hello.' },
    ],
    maxTokens: 64,
    temperature: 0.2,
    n: 1,
    ...overrides,
  };
}
