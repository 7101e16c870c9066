import { inspect } from 'node:util';
import { expect } from 'vitest';
import { ProviderError } from '../../core/provider-error.js';
import { FAKE_KEY } from './canned-bodies.js';

/** Awaits a call that must fail, returns its ProviderError, and checks the key did not leak. */
export async function expectProviderError(promise: Promise<unknown>, secret: string = FAKE_KEY): Promise<ProviderError> {
  let caught: unknown;
  try {
    await promise;
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(ProviderError);
  expectNoSecret(caught, secret);
  return caught as ProviderError;
}

/** The key must not be in the message, the stack, the JSON form or the inspected form (causes included). */
export function expectNoSecret(value: unknown, secret: string = FAKE_KEY): void {
  const error = value instanceof Error ? value : undefined;
  const forms = [
    error?.message ?? '',
    error?.stack ?? '',
    JSON.stringify(value),
    JSON.stringify(error ? { ...error, message: error.message, cause: String(error.cause) } : value),
    inspect(value, { depth: Infinity, showHidden: true }),
  ];
  for (const form of forms) expect(form).not.toContain(secret);
}
