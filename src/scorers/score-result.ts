/** Constructors for the two shapes every scorer returns: a verdict, or its own failure. */
import type { Score } from './spec.js';

/** A binary verdict: value 1 when passed, 0 otherwise. */
export function passFail(passed: boolean, explanation?: string): Score {
  return explanation === undefined ? { passed, value: passed ? 1 : 0 } : { passed, value: passed ? 1 : 0, explanation };
}

/** The scorer could not score; recorded as data and counted as not passed. */
export function scoreError(error: string, explanation?: string): Score {
  return explanation === undefined ? { passed: false, value: 0, error } : { passed: false, value: 0, error, explanation };
}

/** Message of anything thrown, without assuming it is an Error. */
export function errorMessage(thrown: unknown): string {
  return thrown instanceof Error ? thrown.message : String(thrown);
}

/** Short, single-line rendering of a value for explanations. */
export function preview(value: unknown, maxChars = 80): string {
  const text = typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
  return text.length > maxChars ? `${text.slice(0, maxChars - 1)}…` : text;
}
