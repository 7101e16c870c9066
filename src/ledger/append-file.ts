/**
 * One append-only file written in whole lines. `writeSync` may write fewer bytes than asked
 * (a filling disk does exactly that before it says ENOSPC): the rest is written in a loop. If
 * a write fails, the file is cut back to where this append started, so a later append can
 * never land behind half a line — a damaged line in the middle of a ledger cannot happen.
 */
import { closeSync, fdatasyncSync, fstatSync, ftruncateSync, openSync, writeSync } from 'node:fs';
import { ledgerWriteError } from './ledger-write-error.js';

/** The fs calls an AppendFile makes; tests inject failing ones. */
export interface AppendFs {
  writeSync(fd: number, buffer: Uint8Array, offset: number, length: number): number;
  fdatasyncSync(fd: number): void;
  ftruncateSync(fd: number, length: number): void;
}

const NODE_FS: AppendFs = {
  writeSync: (fd, buffer, offset, length) => writeSync(fd, buffer, offset, length),
  fdatasyncSync,
  ftruncateSync,
};

export class AppendFile {
  private readonly fd: number;
  /** Bytes in the file that are whole lines. */
  private size: number;

  constructor(readonly file: string, private readonly fs: AppendFs = NODE_FS) {
    try {
      this.fd = openSync(file, 'a');
      this.size = fstatSync(this.fd).size;
    } catch (error) {
      throw ledgerWriteError(file, error);
    }
  }

  /** Appends `text` (whole lines) or throws a ledger_write error with the file as it was. */
  append(text: string): void {
    if (text.length === 0) return;
    const bytes = Buffer.from(text, 'utf8');
    let written = 0;
    try {
      while (written < bytes.length) {
        const n = this.fs.writeSync(this.fd, bytes, written, bytes.length - written);
        // A write that makes no progress would loop forever; treat it as the disk refusing.
        if (n <= 0) throw Object.assign(new Error('write made no progress'), { code: 'EIO' });
        written += n;
      }
    } catch (error) {
      this.cutBack();
      throw ledgerWriteError(this.file, error);
    }
    this.size += bytes.length;
  }

  sync(): void {
    try {
      this.fs.fdatasyncSync(this.fd);
    } catch (error) {
      throw ledgerWriteError(this.file, error);
    }
  }

  /** Empties the file (its lines were all accounted for elsewhere). */
  clear(): void {
    try {
      this.fs.ftruncateSync(this.fd, 0);
      this.size = 0;
    } catch (error) {
      throw ledgerWriteError(this.file, error);
    }
  }

  close(): void {
    closeSync(this.fd);
  }

  private cutBack(): void {
    try {
      this.fs.ftruncateSync(this.fd, this.size);
    } catch {
      // Truncating frees space, so it rarely fails; if it does, the partial line is the
      // file's last and `--resume` cuts it (nothing is appended after a failure).
    }
  }
}
