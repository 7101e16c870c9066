import Anthropic from '@anthropic-ai/sdk';
import * as AnthropicSdk from '@anthropic-ai/sdk';
import { registerSdkErrors } from '../http-errors.js';
import type { GenerateRequest, GenerateResult, Provider } from '../spec.js';
import { runAttempt } from '../run-attempt.js';
import { nodeHttpFetch } from '../node-http-fetch.js';
import { assertSingleChoice } from '../single-choice-only.js';
import { parseAnthropicMessage } from './parse-anthropic-message.js';
import { toAnthropicRequest } from './to-anthropic-request.js';

export interface AnthropicMessagesProviderOptions {
  /** Base URL without the version path: the SDK appends `/v1/messages`. */
  baseUrl: string;
  apiKey: string;
  /** Per-attempt deadline (ms). */
  timeoutMs: number;
  /** Extra headers sent with every request (never secrets). */
  headers?: Record<string, string>;
}

/**
 * Anthropic Messages API. No native `n`: n paths are n calls and the prompt is paid n times
 * (DESIGN §4), which the runner's budget math accounts for.
 */
registerSdkErrors(AnthropicSdk);

export function createAnthropicMessagesProvider(options: AnthropicMessagesProviderOptions): Provider {
  const client = new Anthropic({
    // Passing the key as the credential keeps the SDK from reading ANTHROPIC_API_KEY,
    // ANTHROPIC_AUTH_TOKEN or a profile from disk: env vars are read in config/ only.
    apiKey: options.apiKey,
    baseURL: options.baseUrl,
    // The runner owns retries so that every attempt becomes a ledger record.
    maxRetries: 0,
    // node:http keep-alive instead of WHATWG fetch: far less CPU per call (see node-http-fetch.ts).
    fetch: nodeHttpFetch,
    timeout: options.timeoutMs,
    // Pinned so an OPENAI_LOG / ANTHROPIC_LOG=debug in the environment cannot dump response
    // bodies (which may echo the key) to the console.
    logLevel: 'warn',
    defaultHeaders: {
      ...options.headers,
      // This SDK version sends an API key as `Authorization: Bearer`; Anthropic-compatible
      // gateways and proxies expect the long-standing `x-api-key`. Setting it here and
      // omitting Authorization (null) is the SDK's documented way to choose that header.
      'x-api-key': options.apiKey,
      Authorization: null,
    },
  });

  return {
    protocol: 'anthropic-messages',
    baseUrl: options.baseUrl,
    supportsNativeN: false,
    async generate(request: GenerateRequest): Promise<GenerateResult> {
      assertSingleChoice('anthropic-messages', request.n);
      const attempt = { timeoutMs: options.timeoutMs, signal: request.signal, secret: options.apiKey };
      return runAttempt(attempt, async (signal) => {
        const reply = await client.messages.create(toAnthropicRequest(request), { signal }).withResponse();
        const status = reply.response.status;
        return { ...parseAnthropicMessage(reply.data, status), status };
      });
    },
    async countPromptTokens(request, signal): Promise<number> {
      // The same body generate sends, less what count_tokens does not take.
      const { max_tokens: _cap, ...body } = toAnthropicRequest({ ...request, n: 1 });
      const counted = await client.messages.countTokens(body, { signal, timeout: options.timeoutMs });
      return counted.input_tokens;
    },
  };
}
