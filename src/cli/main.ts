/**
 * The only place that exits. Commands return exit codes; errors the user can fix are
 * IsobudgetErrors printed as `file:line: key: message` with a hint.
 */
import { IsobudgetError } from '../core/errors.js';
import { TOOL_VERSION } from '../version.js';
import { HelpRequested } from './args.js';
import { commands } from './commands/index.js';
import { EXIT } from './exit-codes.js';
import type { CliIO } from './io.js';

export async function main(argv: string[], io: CliIO): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.stdout.write(helpText());
    return name === undefined ? EXIT.usage : EXIT.ok;
  }
  if (name === '--version' || name === '-v') {
    io.stdout.write(`${TOOL_VERSION}\n`);
    return EXIT.ok;
  }
  const command = commands[name];
  if (!command) {
    io.stderr.write(`isobudget: unknown command '${name}'\n\n${helpText()}`);
    return EXIT.usage;
  }
  try {
    return await command.run(rest, io);
  } catch (error) {
    if (error instanceof HelpRequested) {
      io.stdout.write(`${error.usage}\n`);
      return EXIT.ok;
    }
    if (error instanceof IsobudgetError) {
      io.stderr.write(`isobudget ${name}: ${error.format()}\n`);
      return error.code === 'interrupted' ? EXIT.interrupted : EXIT.usage;
    }
    const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
    io.stderr.write(`isobudget ${name}: internal error: ${message}\n`);
    return EXIT.internal;
  }
}

function helpText(): string {
  const width = Math.max(...Object.keys(commands).map((c) => c.length));
  const lines = Object.entries(commands).map(([command, spec]) => `  ${command.padEnd(width)}  ${spec.summary}`);
  return `isobudget ${TOOL_VERSION} — did the agent get smarter, or did it just spend more?\n\nUsage: isobudget <command> [options]\n\n${lines.join('\n')}\n\nRun 'isobudget <command> --help' for a command's options.\n`;
}

