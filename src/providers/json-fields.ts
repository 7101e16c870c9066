/**
 * Defensive readers for response bodies. Upstreams behind a base URL are often not the vendor
 * itself (proxies, gateways, local servers), so a body is read as `unknown` and every field is
 * checked instead of trusting the SDK's declared types.
 */
export type JsonRecord = Record<string, unknown>;

export function isRecord(value: unknown): value is JsonRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A finite number, or undefined (null, absent, a string, NaN all count as unknown). */
export function readNumber(record: unknown, key: string): number | undefined {
  if (!isRecord(record)) return undefined;
  const value = record[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

export function readString(record: unknown, key: string): string | undefined {
  if (!isRecord(record)) return undefined;
  const value = record[key];
  return typeof value === 'string' ? value : undefined;
}

export function readRecord(record: unknown, key: string): JsonRecord | undefined {
  if (!isRecord(record)) return undefined;
  const value = record[key];
  return isRecord(value) ? value : undefined;
}

export function readArray(record: unknown, key: string): unknown[] | undefined {
  if (!isRecord(record)) return undefined;
  const value = record[key];
  return Array.isArray(value) ? value : undefined;
}

/** A short account of a body of the wrong shape, for an error message (never the body itself). */
export function describeBody(body: unknown): string {
  if (typeof body === 'string') return `a ${body.length}-character text body`;
  if (isRecord(body)) return `keys: ${Object.keys(body).slice(0, 8).join(', ') || 'none'}`;
  return body === null || body === undefined ? 'empty body' : typeof body;
}
