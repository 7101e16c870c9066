/**
 * Thin wrapper over node:util parseArgs that turns its errors into usage errors and answers
 * `--help`/`-h` for every command the same way: main() prints the usage and exits 0.
 *
 * Flags are checked before parseArgs sees them, so every mistake is one plain line: an
 * unknown flag gets a "did you mean" like an unknown config key, a flag missing its value
 * says so, and a negative number is taken as the value it is (`--concurrency -3`), so the
 * flag's own validation can refuse it by range instead of parseArgs calling it ambiguous.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { didYouMean } from '../config/did-you-mean.js';
import { IsobudgetError } from '../core/errors.js';
import { formatHelp } from './help.js';

export type { BooleanOption, Options, OptionSpec, StringOption } from './option-spec.js';
import type { Options } from './option-spec.js';

type ParserOptions = NonNullable<ParseArgsConfig['options']>;

type StrictConfig<T extends ParserOptions> = { args: string[]; options: T; allowPositionals: true; strict: true };

/** Thrown by parseCommandArgs when `--help` is given; main() prints `usage` (with the option list) and exits 0. */
export class HelpRequested extends Error {
  override readonly name = 'HelpRequested';
  constructor(readonly usage: string, readonly options: Options = {}) {
    super('help requested');
  }
}

const HELP = { help: { type: 'boolean', short: 'h', help: 'print this help and exit' } } as const satisfies Options;
const NEGATIVE_NUMBER = /^-(\d|\.\d)/;

export function parseCommandArgs<T extends Options & ParserOptions>(command: string, argv: string[], options: T, usage: string): ReturnType<typeof parseArgs<StrictConfig<T>>> {
  const all: Options = { ...options, ...HELP };
  const args = checkFlags(command, argv, all);
  let parsed: { values: Record<string, unknown>; positionals: string[] };
  try {
    parsed = parseArgs({ args, options: all as ParserOptions, allowPositionals: true, strict: true });
  } catch (error) {
    // checkFlags catches what users type; this is the rest, in parseArgs's first sentence.
    const first = ((error as Error).message.split('\n')[0] ?? '').replace(/\. To specify .*$/, '');
    throw new IsobudgetError('usage', `${first} (see 'isobudget ${command} --help')`);
  }
  if (parsed.values.help === true) throw new HelpRequested(formatHelp(usage, all), options);
  return parsed as unknown as ReturnType<typeof parseArgs<StrictConfig<T>>>;
}

/** argv with negative numbers joined to their flag (`--x=-3`); throws on unknown flags and missing values. */
function checkFlags(command: string, argv: readonly string[], options: Options): string[] {
  const names = Object.keys(options);
  const shorts = new Map(Object.entries(options).flatMap(([name, spec]) => (spec.short ? [[spec.short, name] as const] : [])));
  const out: string[] = [];
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] as string;
    if (arg === '--') {
      out.push(...argv.slice(i));
      break;
    }
    if (!arg.startsWith('-') || arg === '-') {
      out.push(arg);
      continue;
    }
    const long = arg.startsWith('--');
    const body = long ? arg.slice(2) : arg.slice(1);
    const equals = body.indexOf('=');
    const flag = equals === -1 ? body : body.slice(0, equals);
    const name = long ? flag : shorts.get(flag);
    if (name === undefined || !Object.hasOwn(options, name)) {
      if (!long && NEGATIVE_NUMBER.test(arg)) throw new IsobudgetError('usage', `unexpected ${arg}: a negative number belongs to a flag, e.g. --flag=${arg} (see 'isobudget ${command} --help')`);
      const guess = long ? didYouMean(flag, names) : undefined;
      throw new IsobudgetError('usage', `unknown flag ${arg.split('=')[0]}${guess ? `; did you mean --${guess}?` : ''} (see 'isobudget ${command} --help')`);
    }
    const spec = options[name];
    const shown = long ? `--${flag}` : `-${flag}`;
    if (spec?.type === 'boolean') {
      if (equals !== -1) throw new IsobudgetError('usage', `${shown} takes no value, got '${body.slice(equals + 1)}'`);
      out.push(arg);
      continue;
    }
    if (equals !== -1) {
      out.push(arg);
      continue;
    }
    const value = argv[i + 1];
    if (value === undefined || (value.startsWith('-') && !NEGATIVE_NUMBER.test(value))) {
      throw new IsobudgetError('usage', `${shown} needs a value${value === undefined ? '' : `, got the flag ${value} (write ${shown}=${value} if that is the value)`}`);
    }
    out.push(`--${name}=${value}`);
    i += 1;
  }
  return out;
}

export function intOption(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const parsed = value.trim() === '' ? Number.NaN : Number(value);
  if (!Number.isInteger(parsed) || parsed < 0) throw new IsobudgetError('usage', `--${name} must be a non-negative integer, got '${value}'`);
  return parsed;
}

/** A scale factor such as `--sim-latency-scale`: a number ≥ 0 (a negative one used to pass as 0). */
export function scaleOption(name: string, value: string | undefined): number | undefined {
  const parsed = numberOption(name, value);
  if (parsed !== undefined && parsed < 0) throw new IsobudgetError('usage', `--${name} must be ≥ 0, got ${parsed}`);
  return parsed;
}

export function numberOption(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const parsed = value.trim() === '' ? Number.NaN : Number(value);
  if (!Number.isFinite(parsed)) throw new IsobudgetError('usage', `--${name} must be a number, got '${value}'`);
  return parsed;
}

/** A TCP port: 0 (any free one) to 65535. */
export function portOption(name: string, value: string | undefined): number | undefined {
  const port = intOption(name, value);
  if (port !== undefined && port > 65535) throw new IsobudgetError('usage', `--${name} must be a port number 0–65535, got '${value}'`);
  return port;
}

/** A usage error for a subcommand that is not one of `choices`, with a did-you-mean. */
export function unknownSubcommand(command: string, got: string | undefined, choices: readonly string[], usage: string): IsobudgetError {
  // main() already names the command (`isobudget memory: …`); a nested group names itself.
  const label = command.includes(' ') ? `${command}: ` : '';
  if (got === undefined) return new IsobudgetError('usage', `${label}missing subcommand (${choices.join(', ')})`, { hint: usage });
  const guess = didYouMean(got, choices);
  return new IsobudgetError('usage', `${label}unknown subcommand '${got}'${guess ? `; did you mean '${guess}'?` : ''} (${choices.join(', ')})`, { hint: usage });
}
