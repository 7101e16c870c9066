/** Thin wrapper over node:util parseArgs that turns its errors into usage errors. */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { IsobudgetError } from '../core/errors.js';

export type Options = NonNullable<ParseArgsConfig['options']>;

type StrictConfig<T extends Options> = { args: string[]; options: T; allowPositionals: true; strict: true };

export function parseCommandArgs<T extends Options>(command: string, argv: string[], options: T, usage: string): ReturnType<typeof parseArgs<StrictConfig<T>>> {
  try {
    return parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new IsobudgetError('usage', `${command}: ${(error as Error).message}`, { hint: usage });
  }
}

export function intOption(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0) throw new IsobudgetError('usage', `--${name} must be a non-negative integer, got '${value}'`);
  return parsed;
}

export function numberOption(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (!Number.isFinite(parsed)) throw new IsobudgetError('usage', `--${name} must be a number, got '${value}'`);
  return parsed;
}
