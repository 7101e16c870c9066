/**
 * The only place that exits. Commands return exit codes; errors the user can fix are
 * IsobudgetErrors printed as `file:line: key: message` with a hint.
 */
import { didYouMean } from '../config/did-you-mean.js';
import { IsobudgetError } from '../core/errors.js';
import { TOOL_VERSION } from '../version.js';
import { HelpRequested } from './args.js';
import { commands } from './commands/index.js';
import { EXIT } from './exit-codes.js';
import { terminalSafeIO, type CliIO } from './io.js';

/** errno codes that mean "the disk said no", not a bug: exit 3 with the path, no stack. */
const DISK_ERRORS = new Set(['ENOSPC', 'EDQUOT', 'EIO', 'EROFS', 'EFBIG']);
/** errno codes of a path the user gave that cannot be used (`--out` a file, a missing folder): exit 2, no stack. */
const PATH_ERRORS = new Set(['ENOENT', 'ENOTDIR', 'EISDIR', 'EACCES', 'EPERM', 'EEXIST', 'ENAMETOOLONG', 'ELOOP']);

export async function main(argv: string[], rawIO: CliIO): Promise<number> {
  // Commands only ever see terminal-safe streams: no control character from data gets through.
  const io = terminalSafeIO(rawIO);
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.stdout.write(helpText());
    return name === undefined ? EXIT.usage : EXIT.ok;
  }
  if (name === '--version' || name === '-v') {
    io.stdout.write(`${TOOL_VERSION}\n`);
    return EXIT.ok;
  }
  // Own keys only: `isobudget constructor` must not find Object.prototype.constructor.
  const command = Object.hasOwn(commands, name) ? commands[name] : undefined;
  if (!command) {
    const guess = didYouMean(name, Object.keys(commands));
    io.stderr.write(`isobudget: unknown command '${name}'${guess ? `; did you mean '${guess}'?` : ''}\n\n${helpText()}`);
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
      const text = error.format();
      io.stderr.write(`${errorPrefix(name, text)}${text}\n`);
      if (error.code === 'ledger_write') return EXIT.ledgerWrite;
      return error.code === 'interrupted' ? EXIT.interrupted : EXIT.usage;
    }
    const errno = error as NodeJS.ErrnoException | undefined;
    if (errno?.code !== undefined && DISK_ERRORS.has(errno.code)) {
      io.stderr.write(`isobudget ${name}: cannot write ${errno.path ?? 'a file'}: ${errno.code} (${errno.syscall ?? 'write'} failed); free space or fix the disk, then retry (a run continues with --resume)\n`);
      return EXIT.ledgerWrite;
    }
    if (errno?.code !== undefined && PATH_ERRORS.has(errno.code) && typeof errno.path === 'string') {
      io.stderr.write(`isobudget ${name}: ${errno.path}: ${errno.syscall ?? 'open'} failed: ${errno.code}; check the path (a folder that does not exist, a file where a folder belongs, or permissions)\n`);
      return EXIT.usage;
    }
    const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
    io.stderr.write(`isobudget ${name}: internal error: ${message}\n`);
    return EXIT.internal;
  }
}

/**
 * `isobudget CMD: `, unless the message already starts with its command (`runs rm: pass …`,
 * `gateway: 127.0.0.1:8788 is already in use`): then only `isobudget `, never "CMD: CMD:".
 */
function errorPrefix(name: string, text: string): string {
  return text.startsWith(name) && /^(?: [a-z][a-z-]*)?: /.test(text.slice(name.length)) ? 'isobudget ' : `isobudget ${name}: `;
}

function helpText(): string {
  const width = Math.max(...Object.keys(commands).map((c) => c.length));
  const lines = Object.entries(commands).map(([command, spec]) => `  ${command.padEnd(width)}  ${spec.summary}`);
  return `isobudget ${TOOL_VERSION} — did the agent get smarter, or did it just spend more?\n\nUsage: isobudget <command> [options]\n\n${lines.join('\n')}\n\nRun 'isobudget <command> --help' for a command's options.\n`;
}

