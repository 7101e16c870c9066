/**
 * Runs an argv in a given working directory through the scorers' `runProcess` (no shell,
 * own process group killed on timeout), which has no `cwd` option: a tiny Node trampoline
 * changes directory and runs the program in the same process group, passing exit codes and
 * signals through. A program that cannot be found exits 127 with a marker line on stderr.
 */
export const NOT_FOUND_MARKER = 'isobudget-command-not-found:';

const TRAMPOLINE = `const { spawn } = require('node:child_process');
const [dir, command, ...args] = process.argv.slice(1);
process.chdir(dir);
const child = spawn(command, args, { stdio: 'inherit' });
child.on('error', (error) => { process.stderr.write('${NOT_FOUND_MARKER} ' + (error.code || error.message) + '\\n'); process.exit(error.code === 'ENOENT' ? 127 : 126); });
for (const name of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(name, () => child.kill(name));
child.on('exit', (code, signal) => { if (signal) { process.removeAllListeners(signal); process.kill(process.pid, signal); } else process.exit(code === null ? 1 : code); });`;

export function inDirectory(dir: string, argv: readonly string[]): string[] {
  return [process.execPath, '-e', TRAMPOLINE, dir, ...argv];
}
