/**
 * The gateway's append-only ledger: one JSONL file per UTC day (`calls-YYYY-MM-DD.jsonl`),
 * so a long-lived gateway's history rotates by itself and a day's usage is one file.
 * Writes are batched and fdatasync'd off the event loop (fs promises): a synchronous fsync
 * would stall every stream passing through the gateway for the length of a disk flush.
 */
import { mkdirSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import type { CallSink, GatewayCallRecord } from './gateway-record.js';

export function ledgerFileFor(dir: string, isoTimestamp: string): string {
  return join(dir, `calls-${isoTimestamp.slice(0, 10)}.jsonl`);
}

/** The file of a timestamp's day, remembered: every record would otherwise join a path. */
function dayFile(dir: string): (isoTimestamp: string) => string {
  let day = '';
  let file = '';
  return (isoTimestamp) => {
    const today = isoTimestamp.slice(0, 10);
    if (today !== day) {
      day = today;
      file = ledgerFileFor(dir, isoTimestamp);
    }
    return file;
  };
}

export class DailyLedger implements CallSink {
  private lines: Array<{ file: string; line: string }> = [];
  private handle: { file: string; fd: FileHandle } | undefined;
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();
  private closed = false;
  private readonly fileFor: (isoTimestamp: string) => string;

  constructor(private readonly dir: string, private readonly redact: (line: string) => string = (line) => line, private readonly flushEveryMs = 200) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    this.fileFor = dayFile(dir);
  }

  write(record: GatewayCallRecord): void {
    if (this.closed) return;
    this.lines.push({ file: this.fileFor(record.ts), line: `${this.redact(JSON.stringify(record))}\n` });
    this.timer ??= setTimeout(() => void this.flush(), this.flushEveryMs);
  }

  /** Writes what is buffered; flushes run one after another, in order. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.lines;
    this.lines = [];
    this.flushing = this.flushing.then(() => this.writeBatch(batch));
    return this.flushing;
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.flush();
    await this.handle?.fd.close();
    this.handle = undefined;
  }

  private async writeBatch(batch: Array<{ file: string; line: string }>): Promise<void> {
    for (let start = 0; start < batch.length; ) {
      const file = batch[start]?.file ?? '';
      let end = start;
      while (end < batch.length && batch[end]?.file === file) end += 1;
      const fd = await this.fileHandle(file);
      await fd.appendFile(batch.slice(start, end).map((entry) => entry.line).join(''));
      await fd.datasync();
      start = end;
    }
  }

  private async fileHandle(file: string): Promise<FileHandle> {
    if (this.handle?.file === file) return this.handle.fd;
    // A new day: the previous file is complete.
    await this.handle?.fd.close();
    this.handle = { file, fd: await open(file, 'a', 0o600) };
    return this.handle.fd;
  }
}
