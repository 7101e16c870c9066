/**
 * The spend journal (`spend-<generation>.journal` in the data dir): one line when a call
 * reserves budget — written before the request goes upstream — and one when it settles.
 * After a `kill -9` at any moment, every call that may have been billed has its reservation
 * here; `recoverSpend` books the ones that never settled as spent, and they are never
 * granted again.
 *
 * Settlements are written in groups (every `SETTLE_EVERY_MS`, one write for all): a call's
 * ledger record, written before its client sees the end, already says what it cost, and
 * recovery reads the records of reservations whose settlement had not been written yet. So a
 * call costs two writes on its path — its reservation and its record — and no fsync.
 *
 * The key store's spend is written in batches that say how far into the journal they reach
 * (KeyStore.trackSpendMark). The journal starts a new generation when it grows past
 * `ROTATE_BYTES`, carrying the open reservations over; the store commits the new generation,
 * then the old file goes.
 */
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { KeyStore, SpendMark } from '../keys/key-store.js';
import { AppendFile } from './append-file.js';
import type { DiskTrouble, WriteQueue } from './write-queue.js';

/** What a reservation line says about its call: enough for a ledger record if it never settles. */
export interface Reservation {
  callId: string;
  /** The store's name for the reservation, when it keeps one (Postgres; not journaled). */
  ticket?: string | undefined;
  keyId: string;
  /** Tokens reserved: prompt estimate + output cap × choices (0 for a key without budget). */
  tokens: number;
  model: string;
  endpoint: string;
  protocol: string;
  stream: boolean;
  sessionId: string | undefined;
  /** ISO time of the reservation. */
  ts: string;
  /** The output cap sent upstream (tokens): for an intent hook (intent-book.ts), not journaled. */
  maxTokens?: number | undefined;
}

export interface ReserveLine {
  op: 'reserve';
  call: string;
  key: string;
  tokens: number;
  ts: string;
  model: string;
  endpoint: string;
  protocol: string;
  stream: boolean;
  session?: string;
}

export interface SettleLine {
  op: 'settle';
  call: string;
  key: string;
  /** Tokens booked against the key: the bill, or the reservation when the bill is unknown. */
  booked: number;
  /** Tokens billed beyond the reservation (the key was closed). */
  over?: number;
}

/** The first line of each generation: whose journal it is. */
export interface OpenLine {
  op: 'open';
  /** The upstream as the ledger shows it. */
  base_url: string;
  pid: number;
  ts: string;
}

export type JournalLine = OpenLine | ReserveLine | SettleLine;

/** How long settlements gather before one write (ms). */
const SETTLE_EVERY_MS = 100;
/** Past this size the journal starts a new generation (bytes). */
const ROTATE_BYTES = 16 * 1024 * 1024;
const ROTATE_CHECK_MS = 5_000;

export function journalPath(dir: string, generation: number): string {
  return join(dir, `spend-${generation}.journal`);
}

export function reserveLine(reservation: Reservation): string {
  const line: ReserveLine = {
    op: 'reserve', call: reservation.callId, key: reservation.keyId, tokens: reservation.tokens, ts: reservation.ts,
    model: reservation.model, endpoint: reservation.endpoint, protocol: reservation.protocol, stream: reservation.stream,
    ...(reservation.sessionId === undefined ? {} : { session: reservation.sessionId }),
  };
  return `${JSON.stringify(line)}\n`;
}

export class SpendJournal {
  private file: AppendFile;
  private generation: number;
  private readonly open = new Map<string, string>();
  private readonly rotateTimer: NodeJS.Timeout;
  private settlements: Array<{ line: string; keyId: string; booked: number }> = [];
  private settleTimer: NodeJS.Timeout | undefined;

  /** Appends to generation `generation` (recoverSpend has just started it). */
  constructor(private readonly dir: string, generation: number, private readonly keys: KeyStore, private readonly queue: WriteQueue, private readonly baseUrl: string, private readonly rotateBytes = ROTATE_BYTES) {
    this.generation = generation;
    this.file = AppendFile.open(journalPath(dir, generation));
    if (this.file.size === 0) this.file.append(this.openLine());
    queue.track(this.file);
    keys.trackSpendMark(() => this.mark());
    this.rotateTimer = setInterval(() => this.rotateIfLarge(), ROTATE_CHECK_MS);
    this.rotateTimer.unref();
  }

  /** Journals a reservation now; false when the disk refuses (the call must not go out). */
  reserve(reservation: Reservation): boolean {
    const line = reserveLine(reservation);
    if (!this.queue.writeNow(() => this.file.append(line))) return false;
    this.open.set(reservation.callId, line);
    return true;
  }

  /**
   * Journals a settlement with the next group (its ledger record is already written, in the
   * same write order), and books it in the key store once written.
   */
  settle(callId: string, keyId: string, booked: number, over: number | undefined): void {
    this.open.delete(callId);
    const line: SettleLine = { op: 'settle', call: callId, key: keyId, booked, ...(over === undefined ? {} : { over }) };
    this.settlements.push({ line: `${JSON.stringify(line)}\n`, keyId, booked });
    this.settleTimer ??= setTimeout(() => this.writeSettlements(), SETTLE_EVERY_MS);
    this.settleTimer.unref();
  }

  /** Writes the settlements gathered so far, in one write. */
  writeSettlements(): void {
    if (this.settleTimer) clearTimeout(this.settleTimer);
    this.settleTimer = undefined;
    if (this.settlements.length === 0) return;
    const group = this.settlements;
    this.settlements = [];
    const text = group.map((entry) => entry.line).join('');
    this.queue.append(() => this.file.append(text), () => {
      for (const entry of group) this.keys.addSpent(entry.keyId, entry.booked);
    });
  }

  trouble(): DiskTrouble | undefined {
    return this.queue.trouble();
  }

  mark(): SpendMark {
    return { generation: this.generation, offset: this.file.size };
  }

  async close(): Promise<void> {
    clearInterval(this.rotateTimer);
    this.writeSettlements();
    await this.queue.flush();
    this.keys.flush(true);
    this.queue.untrack(this.file);
    await this.file.close();
  }

  private openLine(): string {
    const line: OpenLine = { op: 'open', base_url: this.baseUrl, pid: process.pid, ts: new Date().toISOString() };
    return `${JSON.stringify(line)}\n`;
  }

  /** A new generation holding only the open reservations, once the store has committed to it. */
  rotateIfLarge(): void {
    this.writeSettlements();
    if (this.file.size < this.rotateBytes || this.queue.backlog > 0 || this.queue.trouble() !== undefined) return;
    const next = this.generation + 1;
    const path = journalPath(this.dir, next);
    let file: AppendFile;
    try {
      rmSync(path, { force: true });
      file = AppendFile.open(path);
      file.append(this.openLine() + [...this.open.values()].join(''));
    } catch {
      rmSync(path, { force: true });
      return;
    }
    const old = { file: this.file, generation: this.generation };
    this.file = file;
    this.generation = next;
    if (!this.keys.flush(true)) {
      // The store is still on the old generation: so is the journal.
      this.file = old.file;
      this.generation = old.generation;
      void file.close().then(() => rmSync(path, { force: true }));
      return;
    }
    this.queue.track(file);
    this.queue.untrack(old.file);
    const oldPath = journalPath(this.dir, old.generation);
    void old.file.close().catch(() => undefined).then(() => {
      if (existsSync(oldPath)) rmSync(oldPath, { force: true });
    });
  }
}
