/**
 * Thin wrapper over node:util parseArgs that turns its errors into usage errors and answers
 * `--help`/`-h` for every command the same way: main() prints the usage and exits 0.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { IsobudgetError } from '../core/errors.js';

export type Options = NonNullable<ParseArgsConfig['options']>;

type StrictConfig<T extends Options> = { args: string[]; options: T; allowPositionals: true; strict: true };

/** Thrown by parseCommandArgs when `--help` is given; main() prints `usage` and exits 0. */
export class HelpRequested extends Error {
  override readonly name = 'HelpRequested';
  constructor(readonly usage: string) {
    super('help requested');
  }
}

const HELP = { help: { type: 'boolean', short: 'h' } } as const;

export function parseCommandArgs<T extends Options>(command: string, argv: string[], options: T, usage: string): ReturnType<typeof parseArgs<StrictConfig<T>>> {
  let parsed: { values: Record<string, unknown>; positionals: string[] };
  try {
    parsed = parseArgs({ args: argv, options: { ...options, ...HELP }, allowPositionals: true, strict: true });
  } catch (error) {
    throw new IsobudgetError('usage', `${command}: ${(error as Error).message}`, { hint: usage });
  }
  if (parsed.values.help === true) throw new HelpRequested(usage);
  return parsed as unknown as ReturnType<typeof parseArgs<StrictConfig<T>>>;
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
