import { ProviderError } from '../core/provider-error.js';
import type { Protocol } from './spec.js';

/**
 * Protocols without native `n` answer one path per call. Asking them for more is a runner
 * bug; failing loudly beats returning one choice where n were budgeted.
 */
export function assertSingleChoice(protocol: Protocol, n: number): void {
  if (n !== 1) {
    throw new ProviderError('unsupported', `${protocol} has no native n (asked for ${n}); make ${n} calls with n=1`, {
      isRetryable: false,
    });
  }
}
