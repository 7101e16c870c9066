/**
 * The gateway's append-only ledger: one JSONL file per UTC day (`calls-YYYY-MM-DD.jsonl`),
 * so a long-lived gateway's history rotates by itself and a day's usage is one file.
 *
 * A record is written (one synchronous write, microseconds) the moment it is handed over —
 * before its call's response ends, so a call whose client saw it end is in the ledger even if
 * the gateway is killed the next instant. Files are fdatasync'd in groups off the event loop
 * (the write queue's interval), and a full disk queues records instead of losing them.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { AppendFile } from '../durable/append-file.js';
import { WriteQueue } from '../durable/write-queue.js';
import type { CallSink, GatewayCallRecord } from './gateway-record.js';

export function ledgerFileFor(dir: string, isoTimestamp: string): string {
  return join(dir, `calls-${isoTimestamp.slice(0, 10)}.jsonl`);
}

export class DailyLedger implements CallSink {
  private current: { day: string; file: AppendFile } | undefined;
  private closed = false;
  private readonly queue: WriteQueue;
  private readonly ownQueue: boolean;

  /** `queue`: the gateway's one write order (reservations and settlements share it); a private one when omitted. */
  constructor(private readonly dir: string, private readonly redact: (line: string) => string = (line) => line, queue?: WriteQueue) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    this.ownQueue = queue === undefined;
    this.queue = queue ?? new WriteQueue(dir, undefined);
  }

  write(record: GatewayCallRecord): void {
    if (this.closed) return;
    const line = `${this.redact(JSON.stringify(record))}\n`;
    const ts = record.ts;
    this.queue.append(() => this.fileFor(ts).append(line));
  }

  /** Records are written as they come; this waits for what a full disk held back, and for their fdatasync. */
  flush(): Promise<void> {
    return this.queue.flush();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.ownQueue) await this.queue.close();
    else await this.queue.flush();
    const last = this.current;
    this.current = undefined;
    if (last) {
      this.queue.untrack(last.file);
      await last.file.close();
    }
  }

  private fileFor(isoTimestamp: string): AppendFile {
    const day = isoTimestamp.slice(0, 10);
    if (this.current?.day === day) return this.current.file;
    const previous = this.current;
    // Opened before the previous file is let go: an open that fails leaves the ledger as it was.
    const file = AppendFile.open(ledgerFileFor(this.dir, isoTimestamp));
    this.current = { day, file };
    this.queue.track(file);
    if (previous) {
      // A new day: the previous file is complete.
      this.queue.untrack(previous.file);
      previous.file.close().catch(() => undefined);
    }
    return file;
  }
}
