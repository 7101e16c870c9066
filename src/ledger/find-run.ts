/**
 * The one place a command turns its RUN_DIR argument into a run directory. Every command
 * that takes a run directory (analyze, report, ledger, attribute, compare, run --resume,
 * memory ingest, memory import-learnings --from-run, runs rm) resolves it here, so
 * `latest`, an id and a unique id prefix work the same everywhere:
 *
 * - an existing directory is taken as given (the old behaviour: `runs/bf-…`, `.`, `/abs/dir`);
 * - `latest` is the newest run (by its manifest's `created_at`; runs without a manifest are skipped);
 * - anything else is a run id or the unique start of one (`bf-20261201-13`).
 *
 * A bare name is looked up in `./runs` (the default `--out` of `run`), or in the current
 * directory when there is no `./runs`; `DIR/NAME` looks up NAME in DIR (`examples/runs/latest`).
 */
import { existsSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve, sep } from 'node:path';
import { IsobudgetError } from '../core/errors.js';
import { listRunDirs, type RunDirEntry } from './run-listing.js';

/** The default parent of run directories, as `isobudget run --out` has it. */
export const DEFAULT_RUNS_DIR = 'runs';

/** Matches listed in an ambiguity error before "…and N more". */
const SHOWN_MATCHES = 10;

export interface FindRunOptions {
  cwd: string;
  /** Parent of run directories for bare names (default: `./runs`, else the current directory). */
  runsDir?: string;
}

/** Absolute path of the run directory `arg` names; throws a usage error (exit 2) naming the fix. */
export function findRunDir(arg: string, options: FindRunOptions): string {
  if (arg.trim() === '') throw new IsobudgetError('usage', 'an empty run directory was given', { hint: 'pass a run directory, a run id (or its unique start), or `latest`' });
  const direct = resolve(options.cwd, arg);
  if (isDirectory(direct)) return direct;
  const name = basename(arg);
  const hasParent = arg.includes('/') || arg.includes(sep) || isAbsolute(arg);
  const parent = hasParent ? resolve(options.cwd, dirname(arg)) : defaultParent(options);
  if (!isDirectory(parent)) {
    throw new IsobudgetError('not_found', `no run directory '${arg}'`, {
      location: { file: direct },
      hint: `there is no runs folder at ${parent}: pass the path of a run directory, or run \`isobudget runs list --out DIR\``,
    });
  }
  const runs = listRunDirs(parent);
  if (name === 'latest') return latest(runs, parent);
  return byIdPrefix(name, runs, parent);
}

function defaultParent(options: FindRunOptions): string {
  if (options.runsDir !== undefined) return resolve(options.cwd, options.runsDir);
  const runs = join(options.cwd, DEFAULT_RUNS_DIR);
  return isDirectory(runs) ? runs : options.cwd;
}

function latest(runs: RunDirEntry[], parent: string): string {
  const complete = runs.filter((r) => r.createdAt !== undefined);
  // Newest first: created_at, then the id (ids start with a sortable timestamp).
  complete.sort((a, b) => (b.createdAt ?? '').localeCompare(a.createdAt ?? '') || b.id.localeCompare(a.id));
  const newest = complete[0];
  if (!newest) throw new IsobudgetError('not_found', `no runs in ${parent}, so there is no \`latest\``, { hint: 'start one with `isobudget run EXPERIMENT.yaml`, or list them with `isobudget runs list --out DIR`' });
  return newest.dir;
}

function byIdPrefix(prefix: string, runs: RunDirEntry[], parent: string): string {
  const exact = runs.find((r) => r.id === prefix);
  if (exact) return exact.dir;
  const matches = runs.filter((r) => r.id.startsWith(prefix));
  if (matches.length === 1) return (matches[0] as RunDirEntry).dir;
  if (matches.length === 0) {
    throw new IsobudgetError('not_found', `no run in ${parent} has an id starting with '${prefix}'`, { hint: 'list the runs with `isobudget runs list`, or pass the path of a run directory' });
  }
  const shown = matches.slice(0, SHOWN_MATCHES).map((r) => r.id).join(', ');
  const more = matches.length > SHOWN_MATCHES ? ` and ${matches.length - SHOWN_MATCHES} more` : '';
  throw new IsobudgetError('ambiguous_run', `'${prefix}' matches ${matches.length} runs in ${parent}: ${shown}${more}`, { hint: 'give more characters of the run id' });
}

function isDirectory(path: string): boolean {
  return existsSync(path) && statSync(path).isDirectory();
}
