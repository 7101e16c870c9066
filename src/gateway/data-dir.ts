/** Where a gateway keeps its keys and ledger: `--data-dir`, else `$ISOBUDGET_GATEWAY_DIR`, else `~/.isobudget/gateway`. */
import { mkdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { IsobudgetError } from '../core/errors.js';

export interface GatewayPaths {
  dir: string;
  keys: string;
  ledger: string;
}

export function gatewayPaths(dataDir: string | undefined, env: NodeJS.ProcessEnv, cwd: string): GatewayPaths {
  const dir = resolve(cwd, dataDir ?? env['ISOBUDGET_GATEWAY_DIR'] ?? join(env['HOME'] ?? cwd, '.isobudget', 'gateway'));
  return { dir, keys: join(dir, 'keys.sqlite'), ledger: join(dir, 'ledger') };
}

/** Owner-only: the key store holds hashes and budgets, the ledger holds every call's metadata. */
export function ensureGatewayDir(paths: GatewayPaths): void {
  for (const dir of [paths.dir, paths.ledger]) {
    try {
      const found = statSync(dir, { throwIfNoEntry: false });
      if (found !== undefined && !found.isDirectory()) throw notADirectory(dir);
      mkdirSync(dir, { recursive: true, mode: 0o700 });
    } catch (error) {
      if (error instanceof IsobudgetError) throw error;
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EEXIST' || code === 'ENOTDIR') throw notADirectory(dir);
      if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') throw new IsobudgetError('usage', `gateway data dir ${dir} cannot be created (${code})`, { hint: 'pass --data-dir a folder you can write to' });
      throw error;
    }
  }
}

function notADirectory(dir: string): IsobudgetError {
  return new IsobudgetError('usage', `gateway data dir ${dir} is not a directory`, { hint: 'pass --data-dir a folder (it is created if missing), not a file' });
}
