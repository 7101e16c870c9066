/**
 * Append-only JSONL ledger writer, flushed in batches.
 *
 * A (case, arm, epoch) unit is committed whole: its call records are written before its
 * result record, both in the same flush, then fdatasync'd. A crash can therefore leave at
 * most a tail of calls without their result, which resume moves aside and re-runs — so no
 * call is counted twice. Each call's intent is written before its request leaves (see
 * call-intents.ts), so a call whose record a crash lost is still counted as spent.
 *
 * A failed write (disk full, I/O error) leaves every file ending in whole lines (AppendFile
 * cuts its partial write) and makes the writer refuse everything after it: the run stops
 * and `--resume` re-runs what did not commit.
 */
import type { IsobudgetError } from '../core/errors.js';
import { AppendFile, type AppendFs } from './append-file.js';
import { unknownOutcomeRecord, type CallIntent } from './call-intents.js';
import type { LedgerFiles } from './ledger-files.js';
import { isLedgerWriteError, ledgerWriteError } from './ledger-write-error.js';
import { countSpentUnused, emptyCallCounts, type CallCounts } from './manifest.js';
import type { CallRecord, ResultRecord } from './records.js';
import { LEDGER_SCHEMA_VERSION } from './records.js';

export interface LedgerWriterOptions {
  /** Last line of defence for secrets (API keys): applied to every line. */
  redact?: (line: string) => string;
  flushEveryMs?: number;
  flushEveryUnits?: number;
  /** Called once, when a write fails: the run should stop. */
  onFailure?: (error: IsobudgetError) => void;
  /** Unique per session of the run (`s0`, then `s1` after the first resume): prefixes call ids. */
  session?: string;
  /** Counts of earlier sessions (from recovery on resume). */
  counts?: CallCounts;
  /** Tests inject failing writes. */
  fs?: AppendFs;
}

/** What a call intent says beyond what the writer fills in. */
export type CallStart = Omit<CallIntent, 'schema_version' | 'kind' | 'call_id' | 'ts'>;

export class LedgerWriter {
  private readonly calls: AppendFile;
  private readonly results: AppendFile;
  private readonly intents: AppendFile;
  private interrupted: AppendFile | undefined;
  private callLines: string[] = [];
  private resultLines: string[] = [];
  private pendingCalls = 0;
  /** Intents whose call record has not reached the writer yet. */
  private readonly open = new Map<string, CallIntent>();
  private sequence = 0;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  private readonly redact: (line: string) => string;
  /** The first write failure; everything after it is refused. */
  failure: IsobudgetError | undefined;
  readonly counts: CallCounts;

  constructor(private readonly files: LedgerFiles, private readonly options: LedgerWriterOptions = {}) {
    this.redact = options.redact ?? ((line) => line);
    this.counts = { ...(options.counts ?? emptyCallCounts()) };
    this.calls = new AppendFile(files.calls, options.fs);
    this.results = new AppendFile(files.results, options.fs);
    this.intents = new AppendFile(files.intents, options.fs);
  }

  /** Records that a call is about to be sent; returns its call id. Throws if the disk refuses. */
  startCall(start: CallStart): string {
    this.assertWritable();
    this.sequence += 1;
    const intent: CallIntent = { schema_version: LEDGER_SCHEMA_VERSION, kind: 'call_start', call_id: `${this.options.session ?? 's0'}-${this.sequence}`, ...start, ts: new Date().toISOString() };
    // No fsync: the line is in the kernel once write returns, which survives the process
    // being killed; the batch fsync below makes it survive a power cut too.
    this.guard(() => this.intents.append(this.serialize(intent)));
    this.open.set(intent.call_id, intent);
    return intent.call_id;
  }

  commitUnit(calls: readonly CallRecord[], result: ResultRecord): void {
    this.assertWritable();
    for (const call of calls) {
      this.callLines.push(this.serialize(call));
      if (call.call_id !== undefined) this.open.delete(call.call_id);
    }
    this.pendingCalls += calls.length;
    this.resultLines.push(this.serialize(result));
    if (this.resultLines.length >= (this.options.flushEveryUnits ?? 256)) this.flush();
    else this.timer ??= setTimeout(() => this.flushQuietly(), this.options.flushEveryMs ?? 200);
  }

  /** Calls of a unit that will not be committed (aborted mid-way): billed spend kept apart. */
  recordInterrupted(calls: readonly CallRecord[]): void {
    if (calls.length === 0) return;
    for (const call of calls) if (call.call_id !== undefined) this.open.delete(call.call_id);
    this.appendInterrupted(calls);
  }

  flush(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    this.assertWritable();
    if (this.resultLines.length === 0 && this.callLines.length === 0) return;
    this.guard(() => {
      // Calls first: a result on disk always has its calls on disk.
      if (this.callLines.length > 0) {
        this.calls.append(this.callLines.join(''));
        this.calls.sync();
        this.callLines = [];
      }
      this.results.append(this.resultLines.join(''));
      this.results.sync();
      this.intents.sync();
      this.resultLines = [];
      this.counts.committed += this.pendingCalls;
      this.pendingCalls = 0;
    });
  }

  /**
   * Flushes what is buffered, books calls still open (aborted in flight) as spent with
   * unknown outcome, and empties the intents file once every intent is accounted for. After a
   * failure nothing more is written: the intents stay on disk for `--resume`.
   */
  close(): void {
    if (this.closed) return;
    try {
      if (this.failure === undefined) this.flush();
      if (this.failure === undefined) {
        if (this.open.size > 0) this.appendInterrupted([...this.open.values()].map(unknownOutcomeRecord));
        this.open.clear();
        this.guard(() => this.intents.clear());
      }
    } finally {
      this.closed = true;
      this.calls.close();
      this.results.close();
      this.intents.close();
      this.interrupted?.close();
    }
  }

  /** Stops the writer from the outside (another write of the run failed, e.g. the manifest). */
  fail(error: IsobudgetError): void {
    if (this.failure !== undefined) return;
    this.failure = error;
    this.callLines = [];
    this.resultLines = [];
    this.options.onFailure?.(error);
  }

  private appendInterrupted(calls: readonly CallRecord[]): void {
    this.assertWritable();
    this.guard(() => {
      this.interrupted ??= new AppendFile(this.files.interrupted, this.options.fs);
      this.interrupted.append(calls.map((c) => this.serialize(c)).join(''));
      this.interrupted.sync();
    });
    countSpentUnused(this.counts, calls);
  }

  private flushQuietly(): void {
    this.timer = undefined;
    try {
      this.flush();
    } catch {
      // Already recorded as the failure and reported through onFailure.
    }
  }

  private guard(write: () => void): void {
    try {
      write();
    } catch (error) {
      const failure = isLedgerWriteError(error) ? error : ledgerWriteError(this.files.results, error);
      this.fail(failure);
      throw failure;
    }
  }

  private assertWritable(): void {
    if (this.failure !== undefined) throw this.failure;
    if (this.closed) throw new Error('ledger writer is closed');
  }

  private serialize(record: CallRecord | ResultRecord | CallIntent): string {
    return `${this.redact(JSON.stringify(record))}\n`;
  }
}
