/**
 * An HTTP error the sim server answers with, rendered in the calling protocol's own shape:
 * OpenAI `{error:{message,type,param,code}}`, Anthropic `{type:'error', error:{type,message}}`.
 */
import { anthropicErrorType } from '../../../core/anthropic-error-type.js';

export type WireProtocol = 'openai' | 'anthropic';

export class SimHttpError extends Error {
  override readonly name = 'SimHttpError';
  readonly status: number;
  readonly param: string | null;
  readonly code: string | null;

  constructor(status: number, message: string, options: { param?: string; code?: string } = {}) {
    super(message);
    this.status = status;
    this.param = options.param ?? null;
    this.code = options.code ?? null;
  }
}

function openaiType(status: number): string {
  if (status === 429) return 'requests';
  if (status >= 500) return 'server_error';
  return 'invalid_request_error';
}


export function errorBody(protocol: WireProtocol, error: SimHttpError): unknown {
  if (protocol === 'anthropic') return { type: 'error', error: { type: anthropicErrorType(error.status), message: error.message } };
  return { error: { message: error.message, type: openaiType(error.status), param: error.param, code: error.code } };
}

/** Field checks shared by the three protocols; each throws a 400. */
export function badRequest(message: string, param?: string, code?: string): SimHttpError {
  return new SimHttpError(400, message, { ...(param ? { param } : {}), ...(code ? { code } : {}) });
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function optionalInteger(body: Record<string, unknown>, key: string, min: number, max: number): number | undefined {
  const value = body[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw badRequest(`${key}: expected an integer in [${min}, ${max}], got ${JSON.stringify(value)}`, key);
  }
  return value;
}

export function optionalNumber(body: Record<string, unknown>, key: string, min: number, max: number): number | undefined {
  const value = body[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max) {
    throw badRequest(`${key}: expected a number in [${min}, ${max}], got ${JSON.stringify(value)}`, key);
  }
  return value;
}

export function requiredModel(body: Record<string, unknown>): string {
  const model = body['model'];
  if (typeof model !== 'string' || model === '') throw badRequest('model: field required (a non-empty string)', 'model');
  return model;
}
