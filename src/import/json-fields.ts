/** Small readers of untyped JSON (another tool's file): a wrong shape is an error naming the key, never a guess. */
import { IsobudgetError } from '../core/errors.js';

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `value` as an object, else an error at `key` of `file`. */
export function objectAt(value: unknown, file: string, key: string, hint: string): JsonObject {
  if (!isObject(value)) throw new IsobudgetError('import_shape', `expected an object, got ${describe(value)}`, { location: { file, key }, hint });
  return value;
}

export function arrayAt(value: unknown, file: string, key: string, hint: string): unknown[] {
  if (!Array.isArray(value)) throw new IsobudgetError('import_shape', `expected an array, got ${describe(value)}`, { location: { file, key }, hint });
  return value;
}

/** A finite non-negative number, else undefined (absent, null, or not a count). */
export function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}

export function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing (the key is missing)';
  if (value === null) return 'null';
  return Array.isArray(value) ? 'an array' : typeof value;
}
