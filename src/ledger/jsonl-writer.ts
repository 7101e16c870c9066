/**
 * Append-only JSONL ledger writer, flushed in batches.
 *
 * A (case, arm, epoch) unit is committed whole: its call records are written before its
 * result record, both in the same flush, then fdatasync'd. A crash can therefore leave at
 * most a tail of calls without their result, which resume moves aside and re-runs — so no
 * call is counted twice.
 */
import { closeSync, fdatasyncSync, openSync, writeSync } from 'node:fs';
import type { CallRecord, ResultRecord } from './records.js';

export interface LedgerFiles {
  calls: string;
  results: string;
  interrupted: string;
}

export class LedgerWriter {
  private readonly callsFd: number;
  private readonly resultsFd: number;
  private callLines: string[] = [];
  private resultLines: string[] = [];
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly files: LedgerFiles,
    private readonly redact: (line: string) => string = (line) => line,
    private readonly flushEveryMs = 200,
    private readonly flushEveryUnits = 256,
  ) {
    this.callsFd = openSync(files.calls, 'a');
    this.resultsFd = openSync(files.results, 'a');
  }

  commitUnit(calls: readonly CallRecord[], result: ResultRecord): void {
    if (this.closed) throw new Error('ledger writer is closed');
    for (const call of calls) this.callLines.push(this.serialize(call));
    this.resultLines.push(this.serialize(result));
    if (this.resultLines.length >= this.flushEveryUnits) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), this.flushEveryMs);
  }

  /** Calls of a unit that will not be committed (aborted mid-way): billed spend kept apart. */
  recordInterrupted(calls: readonly CallRecord[]): void {
    if (calls.length === 0) return;
    const fd = openSync(this.files.interrupted, 'a');
    try {
      writeSync(fd, calls.map((c) => this.serialize(c)).join(''));
      fdatasyncSync(fd);
    } finally {
      closeSync(fd);
    }
  }

  flush(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (this.resultLines.length === 0 && this.callLines.length === 0) return;
    // Calls first: a result on disk always has its calls on disk.
    if (this.callLines.length > 0) {
      writeSync(this.callsFd, this.callLines.join(''));
      fdatasyncSync(this.callsFd);
      this.callLines = [];
    }
    writeSync(this.resultsFd, this.resultLines.join(''));
    fdatasyncSync(this.resultsFd);
    this.resultLines = [];
  }

  close(): void {
    if (this.closed) return;
    this.flush();
    this.closed = true;
    closeSync(this.callsFd);
    closeSync(this.resultsFd);
  }

  private serialize(record: CallRecord | ResultRecord): string {
    return `${this.redact(JSON.stringify(record))}\n`;
  }
}
