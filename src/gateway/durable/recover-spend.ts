/**
 * Start-up after any stop, clean or `kill -9`: the spend journal says which calls reserved
 * budget and which settled. A call that reserved and never settled may have been billed — the
 * request had left — so its reservation is booked as spent and the ledger gets a record with
 * `outcome: unknown_after_crash` — unless its record made it to the ledger before the stop
 * (records are written when calls end, settlements in groups a moment later): then it is
 * booked at what its record says it cost.
 * Settlements the key store had not yet written are added. All of it lands in one key-store
 * transaction that also starts the journal's next generation, so a crash during recovery
 * leaves the previous state to recover again — nothing twice, nothing lost.
 */
import { closeSync, existsSync, openSync, readdirSync, readFileSync, readSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { finishReason } from '../../core/finish-reason.js';
import { UNKNOWN_USAGE } from '../../core/usage.js';
import type { KeyStore } from '../keys/key-store.js';
import { ledgerFiles } from '../ledger/gateway-index.js';
import { buildGatewayRecord, type GatewayCallRecord } from '../ledger/gateway-record.js';
import { ledgerFileFor } from '../ledger/daily-ledger.js';
import { AppendFile } from './append-file.js';
import { journalPath, type JournalLine, type ReserveLine } from './spend-journal.js';

export interface RecoveryOptions {
  /** The data dir (journal files). */
  dir: string;
  ledgerDir: string;
  keys: KeyStore;
  /** What ledger lines pass through before they are written (the upstream-key scrubber). */
  redact: (line: string) => string;
  /** The upstream as shown in the ledger. */
  baseUrl: string;
}

export interface Recovery {
  /** The journal generation the gateway appends to now. */
  generation: number;
  /** Calls that reserved and never settled: booked at their reservation. */
  unsettled: number;
  /** Tokens booked for them (tokens). */
  bookedTokens: number;
  /** Settlements the key store had not written yet, now added. */
  settlementsAdded: number;
}

/** Ledger files are read backwards in pieces of this size (bytes). */
const CHUNK_BYTES = 256 * 1024;
const ERROR = 'the gateway stopped (killed or crashed) before this call ended; the upstream may have billed it, so its reservation stays booked as spent';

export async function recoverSpend(options: RecoveryOptions): Promise<Recovery> {
  const { dir, keys } = options;
  const mark = keys.spendMark();
  // Other generations are either folded into the store already or a rotation that never committed.
  for (const name of readdirSync(dir)) {
    const generation = /^spend-(\d+)\.journal$/.exec(name)?.[1];
    if (generation !== undefined && Number(generation) !== mark.generation) rmSync(join(dir, name), { force: true });
  }
  const journal = readJournal(journalPath(dir, mark.generation), mark.offset);
  const unsettled = [...journal.reserves.values()].filter((line) => !journal.settled.has(line.call));
  const written = await recordsOf(options.ledgerDir, new Set(unsettled.map((line) => line.call)));
  const records: GatewayCallRecord[] = [];
  let bookedTokens = 0;
  for (const line of unsettled) {
    const record = written.get(line.call);
    const booked = record?.booked_tokens ?? line.tokens;
    bookedTokens += booked;
    keys.addSpent(line.key, booked);
    if (record?.over_reservation !== undefined) keys.closeKey(line.key, 'over_reservation', record.over_reservation, false);
    if (record === undefined) records.push(unknownRecord(line, keys, journal.baseUrl ?? options.baseUrl));
  }
  for (const [key, booked] of journal.bookedAfterMark) keys.addSpent(key, booked);
  for (const [key, over] of journal.overAfterMark) keys.closeKey(key, 'over_reservation', over, false);
  if (records.length > 0) {
    const ledger = AppendFile.open(ledgerFileFor(options.ledgerDir, new Date().toISOString()));
    ledger.append(records.map((record) => `${options.redact(JSON.stringify(record))}\n`).join(''));
    await ledger.close();
  }
  const next = mark.generation + 1;
  await AppendFile.open(journalPath(dir, next)).close();
  keys.trackSpendMark(() => ({ generation: next, offset: 0 }));
  if (!keys.flush(true)) throw new Error(`cannot write the key store in ${dir}`);
  rmSync(journalPath(dir, mark.generation), { force: true });
  return { generation: next, unsettled: unsettled.length, bookedTokens, settlementsAdded: journal.settlementsAfterMark };
}

interface JournalRead {
  /** The upstream of the gateway that wrote the journal. */
  baseUrl: string | undefined;
  reserves: Map<string, ReserveLine>;
  settled: Set<string>;
  /** Per key: tokens of settlements at or past the mark (not yet in the store). */
  bookedAfterMark: Map<string, number>;
  overAfterMark: Map<string, number>;
  settlementsAfterMark: number;
}

function readJournal(path: string, markOffset: number): JournalRead {
  const read: JournalRead = { baseUrl: undefined, reserves: new Map(), settled: new Set(), bookedAfterMark: new Map(), overAfterMark: new Map(), settlementsAfterMark: 0 };
  if (!existsSync(path)) return read;
  const bytes = readFileSync(path);
  for (let start = 0; start < bytes.length; ) {
    const end = bytes.indexOf(0x0a, start);
    // A line without its newline was never finished: its call never left.
    if (end === -1) break;
    const line = parseLine(bytes.toString('utf8', start, end));
    if (line?.op === 'open') read.baseUrl = line.base_url;
    else if (line?.op === 'reserve') read.reserves.set(line.call, line);
    else if (line?.op === 'settle') {
      read.settled.add(line.call);
      if (start >= markOffset) {
        read.settlementsAfterMark += 1;
        read.bookedAfterMark.set(line.key, (read.bookedAfterMark.get(line.key) ?? 0) + line.booked);
        if (line.over !== undefined) read.overAfterMark.set(line.key, (read.overAfterMark.get(line.key) ?? 0) + line.over);
      }
    }
    start = end + 1;
  }
  return read;
}

function parseLine(text: string): JournalLine | undefined {
  try {
    const value = JSON.parse(text) as { op?: unknown };
    return value.op === 'reserve' || value.op === 'settle' || value.op === 'open' ? (value as JournalLine) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Records of the wanted calls, found by call id — never by time: a wall clock that stepped back
 * writes a record "older" than its reservation, and a window would miss it (and book the call
 * twice). A call id is `<process prefix>-<counter>`; only one process writes a data dir at a
 * time, so in each ledger file the records of the process that reserved the wanted calls are
 * the file's last. Each file (newest first) is read backwards until a record of another
 * process: the rest of that file is older than every wanted call.
 */
async function recordsOf(ledgerDir: string, wanted: Set<string>): Promise<Map<string, GatewayCallRecord>> {
  const found = new Map<string, GatewayCallRecord>();
  const files = ledgerFiles(ledgerDir);
  const newest = files.at(-1);
  if (wanted.size === 0 || newest === undefined) return found;
  // Opening cuts a torn last line: a record half-written at the stop does not count.
  await AppendFile.open(newest).close();
  const writers = new Set([...wanted].map(writerOf));
  for (const file of files.reverse()) {
    for (const text of linesBackward(file)) {
      let record: GatewayCallRecord;
      try {
        record = JSON.parse(text) as GatewayCallRecord;
      } catch {
        continue;
      }
      if (record.call_id === undefined || !writers.has(writerOf(record.call_id))) break;
      if (wanted.has(record.call_id)) found.set(record.call_id, record);
      if (found.size === wanted.size) return found;
    }
  }
  return found;
}

/** The process part of a call id (`<prefix>-<counter>`); ids without one share the empty prefix. */
function writerOf(callId: string): string {
  const dash = callId.lastIndexOf('-');
  return dash === -1 ? '' : callId.slice(0, dash);
}

/** The lines of a file, last first, read in chunks from the end. */
function* linesBackward(file: string): Generator<string> {
  const fd = openSync(file, 'r');
  try {
    // `carry`: the start of the file's next line — its end is in the chunk read before.
    let carry = Buffer.alloc(0);
    for (let end = statSync(file).size; end > 0; ) {
      const start = Math.max(0, end - CHUNK_BYTES);
      const chunk = Buffer.alloc(end - start);
      readSync(fd, chunk, 0, chunk.length, start);
      const text = Buffer.concat([chunk, carry]);
      // Before the first newline is the end of a line that began earlier in the file.
      const first = start === 0 ? -1 : text.indexOf(0x0a);
      if (start > 0 && first === -1) {
        carry = text;
      } else {
        carry = text.subarray(0, first + 1);
        const lines = text.subarray(first + 1).toString('utf8').split('\n');
        for (let i = lines.length - 1; i >= 0; i -= 1) if ((lines[i] as string).length > 0) yield lines[i] as string;
      }
      end = start;
    }
  } finally {
    closeSync(fd);
  }
}

function unknownRecord(line: ReserveLine, keys: KeyStore, baseUrl: string): GatewayCallRecord {
  const key = keys.get(line.key);
  return buildGatewayRecord(
    { callId: line.call, keyId: line.key, tags: key?.tags ?? {}, sessionId: line.session, endpoint: line.endpoint, protocol: line.protocol, baseUrl, model: line.model, stream: line.stream, attempt: 1 },
    {
      usage: UNKNOWN_USAGE, finish: finishReason('error', 'unknown_after_crash'), maxTokens: 0, requestedMaxTokens: undefined, ttfbMs: undefined, gatewayMs: undefined,
      status: undefined, error: ERROR, note: `reserved at ${line.ts}`, reservedTokens: line.tokens, bookedTokens: line.tokens, outcome: 'unknown_after_crash',
    },
    0,
    new Date(),
  );
}
