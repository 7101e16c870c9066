/**
 * A write to the run directory failed (disk full, quota, I/O error, read-only file system).
 * The run stops with every finished unit committed and nothing torn; the message is one line
 * naming the file and how to continue, and the CLI exits 3.
 */
import { dirname } from 'node:path';
import { IsobudgetError } from '../core/errors.js';

const REASONS: Record<string, string> = {
  ENOSPC: 'no space left on device',
  EDQUOT: 'disk quota exceeded',
  EIO: 'I/O error',
  EROFS: 'read-only file system',
  EFBIG: 'file too large',
};

export function ledgerWriteError(file: string, cause: unknown): IsobudgetError {
  const code = (cause as NodeJS.ErrnoException | undefined)?.code;
  const reason = code === undefined ? (cause instanceof Error ? cause.message : String(cause)) : `${code}: ${REASONS[code] ?? (cause as Error).message}`;
  return new IsobudgetError('ledger_write', `write failed (${reason}); the run stopped, finished cases are committed — fix the disk, then: isobudget run --resume ${dirname(file)}`, { location: { file }, cause });
}

export function isLedgerWriteError(error: unknown): error is IsobudgetError {
  return error instanceof IsobudgetError && error.code === 'ledger_write';
}
