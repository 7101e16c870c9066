import OpenAI from 'openai';
import type { GenerateRequest, GenerateResult, Provider } from '../spec.js';
import { runAttempt } from '../run-attempt.js';
import { nodeHttpFetch } from '../node-http-fetch.js';
import { scrubSecret } from '../scrub-secret.js';
import { nativeNRejectedError, rejectsNativeN } from './native-n-rejected.js';
import { parseChatCompletion } from './parse-chat-completion.js';
import { toOpenAIRequest } from './to-openai-request.js';

export interface OpenAIChatProviderOptions {
  /** Base URL including the API version path, e.g. `https://api.openai.com/v1`. */
  baseUrl: string;
  apiKey: string;
  /** Per-attempt deadline (ms). */
  timeoutMs: number;
  /** Extra headers sent with every request (never secrets). */
  headers?: Record<string, string>;
}

/** OpenAI chat completions (and every upstream that speaks it), one HTTP attempt per call. */
export function createOpenAIChatProvider(options: OpenAIChatProviderOptions): Provider {
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
    // Explicit nulls keep the SDK from reading OPENAI_ORG_ID / OPENAI_PROJECT_ID and sending
    // them to whatever upstream the base URL names: env vars are read in config/ only.
    organization: null,
    project: null,
  });

  return {
    protocol: 'openai-chat',
    baseUrl: options.baseUrl,
    supportsNativeN: true,
    async generate(request: GenerateRequest): Promise<GenerateResult> {
      const attempt = { timeoutMs: options.timeoutMs, signal: request.signal, secret: options.apiKey };
      return runAttempt(attempt, async (signal) => {
        const reply = await client.chat.completions
          .create(toOpenAIRequest(request), { signal })
          .withResponse()
          .catch((error: unknown) => {
            // Recognized here, while the SDK error still has `param` and `code`.
            if (request.n > 1 && rejectsNativeN(error)) {
              throw nativeNRejectedError(error.status ?? 400, scrubSecret(error.message, options.apiKey));
            }
            throw error;
          });
        const status = reply.response.status;
        return { ...parseChatCompletion(reply.data, status), status };
      });
    },
  };
}
