import OpenAI from 'openai';
import type { GenerateRequest, GenerateResult, Provider } from '../spec.js';
import { runAttempt } from '../run-attempt.js';
import { nodeHttpFetch } from '../node-http-fetch.js';
import { assertSingleChoice } from '../single-choice-only.js';
import { parseResponse } from './parse-response.js';
import { toResponsesRequest } from './to-responses-request.js';

export interface OpenAIResponsesProviderOptions {
  /** Base URL including the API version path, e.g. `https://api.openai.com/v1`. */
  baseUrl: string;
  apiKey: string;
  /** Per-attempt deadline (ms). */
  timeoutMs: number;
  /** Extra headers sent with every request (never secrets). */
  headers?: Record<string, string>;
}

/**
 * OpenAI Responses API (what current Codex speaks). No native `n`: n paths are n calls and
 * the runner asks for them one at a time, each paying the prompt.
 */
export function createOpenAIResponsesProvider(options: OpenAIResponsesProviderOptions): Provider {
  const client = new OpenAI({
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
    defaultHeaders: options.headers ?? {},
    // Keep the SDK from reading OPENAI_ORG_ID / OPENAI_PROJECT_ID: env is read in config/ only.
    organization: null,
    project: null,
  });

  return {
    protocol: 'openai-responses',
    baseUrl: options.baseUrl,
    supportsNativeN: false,
    async generate(request: GenerateRequest): Promise<GenerateResult> {
      assertSingleChoice('openai-responses', request.n);
      const attempt = { timeoutMs: options.timeoutMs, signal: request.signal, secret: options.apiKey };
      return runAttempt(attempt, async (signal) => {
        const reply = await client.responses.create(toResponsesRequest(request), { signal }).withResponse();
        const status = reply.response.status;
        return { ...parseResponse(reply.data, status), status };
      });
    },
  };
}
