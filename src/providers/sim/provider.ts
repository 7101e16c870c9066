/**
 * The in-process sim provider. It really waits the simulated latency (scaled), so
 * concurrency, timeouts and latency gates behave as they would against a server.
 */
import { ProviderError } from '../../core/provider-error.js';
import type { GenerateRequest, GenerateResult, Provider } from '../spec.js';
import { simulate } from './engine.js';

export interface SimProviderOptions {
  /** The simulator's seed (usually the experiment seed). */
  seed: number;
  /** Multiplies every simulated latency; 0 answers at once (default 1). */
  latencyScale?: number;
}

export function createSimProvider(options: SimProviderOptions): Provider {
  const latencyScale = options.latencyScale ?? 1;
  return {
    protocol: 'sim',
    baseUrl: 'sim://local',
    supportsNativeN: true,
    async generate(request: GenerateRequest): Promise<GenerateResult> {
      throwIfAborted(request.signal);
      const result = simulate(
        {
          model: request.model,
          messages: request.messages,
          maxTokens: request.maxTokens,
          temperature: request.temperature,
          n: request.n,
          ...(request.seed === undefined ? {} : { seed: request.seed }),
          ...(request.tools === undefined ? {} : { tools: request.tools }),
        },
        { seed: options.seed },
      );
      await sleep(result.latencyMs * latencyScale, request.signal);
      return {
        choices: result.choices.map((c) => ({ text: c.text, finishReason: c.finishReason, ...(c.toolCalls ? { toolCalls: c.toolCalls } : {}) })),
        usage: result.usage,
        status: 200,
        responseModel: request.model,
      };
    },
  };
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new ProviderError('aborted', 'sim: request aborted', { cause: signal.reason });
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(new ProviderError('aborted', 'sim: request aborted', { cause: signal?.reason }));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
