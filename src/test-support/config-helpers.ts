/** Temp-dir helpers shared by the config and dataset tests (not part of the public API). */
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { IsobudgetError, IsobudgetErrors } from '../core/errors.js';

/** A fresh directory under the OS temp dir with `files` (relative path → text) written into it. */
export function tempTree(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'isobudget-test-'));
  for (const [name, text] of Object.entries(files)) {
    const path = join(dir, name);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  }
  return dir;
}

/** Runs `action`, expecting an IsobudgetError(s); returns the individual errors. */
export async function collectErrors(action: () => unknown): Promise<IsobudgetError[]> {
  try {
    await action();
  } catch (error) {
    if (error instanceof IsobudgetErrors) return error.errors;
    if (error instanceof IsobudgetError) return [error];
    throw error;
  }
  throw new Error('expected an IsobudgetError, but the call succeeded');
}
