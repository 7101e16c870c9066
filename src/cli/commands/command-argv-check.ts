/**
 * `validate`: the `command` executor's program must exist — on PATH for a bare name, as a
 * file for a path — or every path of the run fails as "command not found" and is reported as
 * a provider error with a $0 cost. Relative paths are resolved where the agent runs: its
 * fresh working directory, a copy of `fixture_dir`.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import type { ExperimentConfig } from '../../config/types.js';
import { IsobudgetError } from '../../core/errors.js';

function isExecutableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export function commandArgvProblem(config: ExperimentConfig, env: NodeJS.ProcessEnv): IsobudgetError | undefined {
  const executor = config.executor;
  if (executor.type !== 'command') return undefined;
  const program = executor.argv[0];
  // A templated program ({{workdir}}/run.sh) is only known per path.
  if (program === undefined || program.includes('{{')) return undefined;
  const location = { file: config.configPath, key: 'executor.argv[0]' };
  if (program.includes('/')) {
    const where = isAbsolute(program) ? program : executor.fixtureDir === undefined ? undefined : join(executor.fixtureDir, program);
    if (where !== undefined && isExecutableFile(where)) return undefined;
    return new IsobudgetError('command_not_found', `${program}: ${where === undefined ? 'a relative path is resolved in each path\'s fresh working directory, and there is no fixture_dir to hold it' : `no executable file at ${where}`}`, {
      location,
      hint: 'give an absolute path, or put the program in fixture_dir (it is copied into every path\'s working directory), and make it executable (chmod +x)',
    });
  }
  const dirs = (env.PATH ?? '').split(delimiter).filter((dir) => dir !== '');
  if (dirs.some((dir) => isExecutableFile(join(dir, program)))) return undefined;
  return new IsobudgetError('command_not_found', `command not found: ${program} (not on PATH)`, {
    location,
    hint: `install it, or give its absolute path (\`command -v ${program}\` shows where it is when it is installed)`,
  });
}
