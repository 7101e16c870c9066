/**
 * An append-only file of lines written with one synchronous write each: once `append`
 * returns, the line is in the operating system's hands and survives a `kill -9` of the
 * gateway (a write to the page cache takes microseconds; the fdatasync that makes it survive
 * a power cut is done for many lines at once, off the event loop, by `sync`).
 *
 * A write that fails half-way (a full disk) is cut back, so the file never holds half a
 * line that a later line would be glued to; a torn last line left by a crash is cut at open.
 */
import { closeSync, fdatasync, fstatSync, ftruncateSync, openSync, readSync, writeSync } from 'node:fs';

/** How far back `open` looks for the last complete line (bytes per step). */
const TAIL_STEP = 64 * 1024;

export class AppendFile {
  private fd: number | undefined;
  private bytes: number;
  private dirty = false;
  private syncing: Promise<void> | undefined;

  private constructor(readonly path: string, fd: number, bytes: number) {
    this.fd = fd;
    this.bytes = bytes;
  }

  /** Opens (creating, owner-only) for appending; a torn last line is cut off. */
  static open(path: string): AppendFile {
    const fd = openSync(path, 'a+', 0o600);
    try {
      const size = fstatSync(fd).size;
      const complete = completeLength(fd, size);
      if (complete < size) ftruncateSync(fd, complete);
      return new AppendFile(path, fd, complete);
    } catch (error) {
      closeSync(fd);
      throw error;
    }
  }

  /** Bytes in the file: the end of the last complete line. */
  get size(): number {
    return this.bytes;
  }

  /** Appends whole lines; throws (and leaves the file as it was) when the disk refuses. */
  append(text: string): void {
    const fd = this.descriptor();
    const data = Buffer.from(text);
    let written = 0;
    try {
      while (written < data.length) written += writeSync(fd, data, written, data.length - written);
    } catch (error) {
      if (written > 0) {
        try {
          ftruncateSync(fd, this.bytes);
        } catch {
          // The cut failed too: the next open cuts the torn line instead.
        }
      }
      throw error;
    }
    this.bytes += data.length;
    this.dirty = true;
  }

  /** fdatasync when something was written since the last one; never two at once. */
  sync(): Promise<void> {
    if (this.syncing) return this.syncing;
    if (!this.dirty || this.fd === undefined) return Promise.resolve();
    this.dirty = false;
    const fd = this.fd;
    this.syncing = new Promise<void>((resolve, reject) => fdatasync(fd, (error) => (error ? reject(error) : resolve()))).finally(() => {
      this.syncing = undefined;
    });
    return this.syncing;
  }

  /** Syncs, then closes. */
  async close(): Promise<void> {
    if (this.fd === undefined) return;
    try {
      while (this.syncing !== undefined || this.dirty) await this.sync();
    } finally {
      if (this.fd !== undefined) closeSync(this.fd);
      this.fd = undefined;
    }
  }

  private descriptor(): number {
    if (this.fd === undefined) throw new Error(`${this.path} is closed`);
    return this.fd;
  }
}

/** Length of the file up to and including its last newline. */
function completeLength(fd: number, size: number): number {
  const buffer = Buffer.alloc(Math.min(TAIL_STEP, size));
  for (let end = size; end > 0; ) {
    const start = Math.max(0, end - TAIL_STEP);
    const read = readSync(fd, buffer, 0, end - start, start);
    const at = buffer.subarray(0, read).lastIndexOf(0x0a);
    if (at !== -1) return start + at + 1;
    end = start;
  }
  return 0;
}
