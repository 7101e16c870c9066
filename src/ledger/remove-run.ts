/**
 * `runs rm`: deletes one run directory — its files one by one, then the empty directory —
 * and only when every file in it is one a run writes. A folder holding anything else (a
 * sub-folder, a user's notes, a symlink) is refused whole, so a mistyped path cannot take
 * other data with it.
 */
import { rmdirSync, unlinkSync } from 'node:fs';
import { basename, join } from 'node:path';
import { IsobudgetError } from '../core/errors.js';
import { inspectRunDir, isRunFileName } from './run-listing.js';

export interface RemovedRun {
  id: string;
  dir: string;
  /** File names removed, in order. */
  files: string[];
  /** Why it was broken, when it was. */
  broken: string | undefined;
}

export function removeRunDir(dir: string): RemovedRun {
  const entry = inspectRunDir(dir, basename(dir));
  if (!entry) {
    throw new IsobudgetError('not_a_run', 'not a run directory: it has no manifest.json and holds files a run does not write (or is not a plain directory)', {
      location: { file: dir },
      hint: 'runs rm removes only run directories listed by `isobudget runs list`',
    });
  }
  const foreign = entry.files.filter((name) => !isRunFileName(name));
  if (foreign.length > 0) {
    throw new IsobudgetError('not_a_run', `refusing to remove: the run directory also holds ${foreign.slice(0, 5).join(', ')}${foreign.length > 5 ? ` and ${foreign.length - 5} more` : ''}, which a run does not write`, {
      location: { file: dir },
      hint: 'move those files elsewhere first, then run `isobudget runs rm` again',
    });
  }
  for (const name of entry.files) unlinkSync(join(dir, name));
  rmdirSync(dir);
  return { id: entry.id, dir, files: entry.files, broken: entry.broken };
}
