/**
 * Every command's `--help` (issue 15, item 5): each option it accepts on one line with a
 * description, its default and an example; `schema --help` is usage, not the schema; unknown
 * commands, subcommands and flags get a did-you-mean.
 */
import { describe, expect, test } from 'vitest';
import { DEFAULT_STORE_PATH } from '../memory/store/open.js';
import { HelpRequested } from './args.js';
import { STORE_OPTION } from './common-options.js';
import { commands } from './commands/index.js';
import type { CliIO } from './io.js';
import { main } from './main.js';

function capture(): { io: CliIO; out: () => string; err: () => string } {
  let out = '';
  let err = '';
  const io: CliIO = { stdout: { write: (t) => void (out += t) }, stderr: { write: (t) => void (err += t) }, env: {}, cwd: process.cwd(), signal: new AbortController().signal };
  return { io, out: () => out, err: () => err };
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Every (command, subcommand) that parses options: the registry's commands, and the subcommands each declares. */
const invocations = Object.entries(commands).flatMap(([name, spec]) => [[name], ...(spec.subcommands ?? []).map((sub) => [name, sub])]);

describe('--help of every registered command', () => {
  test('the registry is covered: every command, and the subcommands with options of their own', () => {
    expect(invocations.length).toBeGreaterThan(Object.keys(commands).length + 10);
  });

  test.each(invocations.map((words) => ({ words: words.join(' '), argv: words })))('$words --help lists every option it accepts, each with a description, a default and an example', async ({ argv }) => {
    const [name, ...sub] = argv as [string, ...string[]];
    const { io, out } = capture();
    let help: HelpRequested | undefined;
    try {
      const code = await commands[name]?.run([...sub, '--help'], io);
      // A command group without options of its own prints its usage (its subcommands are tested on their own).
      expect(code).toBe(0);
      expect(commands[name]?.subcommands?.length, `${name} printed help without its option table`).toBeGreaterThan(0);
      expect(out()).toContain(`isobudget ${name}`);
      return;
    } catch (error) {
      if (!(error instanceof HelpRequested)) throw error;
      help = error;
    }
    const text = help.usage;
    expect(text).toContain('\nOptions:\n');
    const listed = text.slice(text.indexOf('\nOptions:\n') + 10).split('\n');
    const accepted = Object.entries(help.options);
    // One line per accepted option, plus --help.
    expect(listed).toHaveLength(accepted.length + 1);
    for (const [option, spec] of accepted) {
      expect(spec.help.trim().length, `--${option}`).toBeGreaterThan(8);
      const value = spec.type === 'string' ? ` ${escapeRegExp(spec.value ?? 'VALUE')}` : '';
      const example = spec.type === 'string' ? ` '?${escapeRegExp(spec.example)}'?` : '';
      const line = new RegExp(`^ {2}(-\\w, )?--${escapeRegExp(option)}${value} +${escapeRegExp(spec.help)} \\(default: [^;]+(; repeatable)?; e\\.g\\. --${escapeRegExp(option)}${example}\\)$`);
      expect(listed.filter((l) => line.test(l)), `--${option} in:\n${text}`).toHaveLength(1);
      if (spec.type === 'string') expect(spec.example.trim(), `--${option} example`).not.toBe('');
    }
    expect(listed.at(-1)).toMatch(/^ {2}-h, --help +print this help and exit$/);
  });

  test('through main: exit 0, help on stdout, nothing on stderr, for every command', async () => {
    for (const name of Object.keys(commands)) {
      const { io, out, err } = capture();
      expect(await main([name, '--help'], io), name).toBe(0);
      expect(out(), name).toMatch(new RegExp(`isobudget ${name}`));
      expect(err(), name).toBe('');
    }
  });

  test('schema --help prints usage, not the schema', async () => {
    const { io, out } = capture();
    expect(await main(['schema', '--help'], io)).toBe(0);
    expect(out()).toMatch(/^isobudget schema/);
    expect(out()).not.toContain('"$schema"');
    const plain = capture();
    expect(await main(['schema'], plain.io)).toBe(0);
    expect(JSON.parse(plain.out())).toHaveProperty('properties.experiment');
  });

  test('the shared --store default is the store\'s own', () => {
    expect(STORE_OPTION.fallback).toBe(DEFAULT_STORE_PATH);
  });
});

describe('did you mean', () => {
  test.each([
    { argv: ['rnu'], message: "isobudget: unknown command 'rnu'; did you mean 'run'?" },
    { argv: ['valdiate'], message: "isobudget: unknown command 'valdiate'; did you mean 'validate'?" },
    { argv: ['run', 'x.yaml', '--concurency', '4'], message: "isobudget run: unknown flag --concurency; did you mean --concurrency? (see 'isobudget run --help')" },
    { argv: ['init', '--from-datset', 'd.jsonl'], message: "isobudget init: unknown flag --from-datset; did you mean --from-dataset? (see 'isobudget init --help')" },
    { argv: ['memory', 'serch', 'dates'], message: "isobudget memory: unknown subcommand 'serch'; did you mean 'search'?" },
    { argv: ['ledger', 'shwo', 'latest'], message: "isobudget ledger: unknown subcommand 'shwo'; did you mean 'show'?" },
    { argv: ['canary', 'asign'], message: "isobudget canary: unknown subcommand 'asign'; did you mean 'assign'?" },
  ])('$argv.0 $argv.1: "$message"', async ({ argv, message }) => {
    const { io, err } = capture();
    expect(await main(argv, io)).toBe(2);
    expect(err().split('\n')[0]).toContain(message);
  });

  test.each([
    { argv: ['zzzzzz'], start: "isobudget: unknown command 'zzzzzz'\n" },
    { argv: ['run', 'x.yaml', '--zzzzzzzz'], start: "isobudget run: unknown flag --zzzzzzzz (see 'isobudget run --help')" },
    { argv: ['memory', 'qqqqqq'], start: "isobudget memory: unknown subcommand 'qqqqqq' (" },
  ])('nothing close: no guess ($argv.0 $argv.1)', async ({ argv, start }) => {
    const { io, err } = capture();
    expect(await main(argv, io)).toBe(2);
    expect(err().startsWith(start)).toBe(true);
    expect(err()).not.toContain('did you mean');
  });
});
