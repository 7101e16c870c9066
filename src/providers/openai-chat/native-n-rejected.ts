/**
 * Some OpenAI-compatible upstreams reject `n > 1`. The runner then falls back to n parallel
 * calls (each paying the prompt) and records that it did; it recognizes the case through
 * `isNativeNRejected`, so the message prefix below is part of the contract.
 */
import * as OpenAISdk from 'openai';
import { ProviderError } from '../../core/provider-error.js';

export const NATIVE_N_REJECTED_PREFIX = 'native n rejected by upstream';

export function isNativeNRejected(error: unknown): boolean {
  return error instanceof ProviderError && error.kind === 'unsupported' && error.message.startsWith(NATIVE_N_REJECTED_PREFIX);
}

/**
 * A 400 (or 422, which validating proxies use) whose param, code or message names `n`.
 * Only meaningful when the request asked for n > 1: the caller checks that.
 */
export function rejectsNativeN(error: unknown): error is OpenAISdk.APIError {
  if (!(error instanceof OpenAISdk.APIError)) return false;
  if (error.status !== 400 && error.status !== 422) return false;
  if (error.param === 'n') return true;
  if (typeof error.code === 'string' && error.code.split(/[^A-Za-z0-9]+/).some((part) => part.toLowerCase() === 'n')) {
    return true;
  }
  // "n" as a word of its own: "'n' is not supported", "Only n=1 is allowed", "N must be 1";
  // not the "\n" escape of a JSON body echoed into the message.
  return /(?<![\\\w])n\b/i.test(error.message);
}

export function nativeNRejectedError(status: number, upstreamMessage: string): ProviderError {
  return new ProviderError('unsupported', `${NATIVE_N_REJECTED_PREFIX}: ${upstreamMessage}`, { status, isRetryable: false });
}
