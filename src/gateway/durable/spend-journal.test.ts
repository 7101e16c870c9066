import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { finishReason } from '../../core/finish-reason.js';
import { makeUsage } from '../../core/usage.js';
import { KeyStore } from '../keys/key-store.js';
import { DailyLedger } from '../ledger/daily-ledger.js';
import { buildGatewayRecord, type GatewayCallRecord } from '../ledger/gateway-record.js';
import { recoverSpend } from './recover-spend.js';
import { journalPath, SpendJournal, type Reservation } from './spend-journal.js';
import { WriteQueue } from './write-queue.js';

// Timers are faked so that nothing flushes unless a test says so: a process that was killed.
beforeEach(() => void vi.useFakeTimers({ toFake: ['setTimeout', 'setInterval', 'clearTimeout', 'clearInterval'] }));
afterEach(() => void vi.useRealTimers());

interface Life {
  keys: KeyStore;
  queue: WriteQueue;
  journal: SpendJournal;
  ledger: DailyLedger;
}

/** One gateway process on `dir`: recovery, then a journal. */
async function start(dir: string, rotateBytes?: number): Promise<Life & { recovered: Awaited<ReturnType<typeof recoverSpend>> }> {
  const keys = KeyStore.open(join(dir, 'keys.sqlite'));
  const recovered = await recoverSpend({ dir, ledgerDir: join(dir, 'ledger'), keys, redact: (line) => line, baseUrl: 'http://upstream.test' });
  const queue = new WriteQueue(dir, undefined);
  const ledger = new DailyLedger(join(dir, 'ledger'), (line) => line, queue);
  const journal = new SpendJournal(dir, recovered.generation, keys, queue, 'http://upstream.test', rotateBytes);
  return { keys, queue, journal, ledger, recovered };
}

function reservation(callId: string, keyId: string, tokens: number): Reservation {
  return { callId, keyId, tokens, model: 'm', endpoint: '/v1/messages', protocol: 'anthropic-messages', stream: false, sessionId: 's', ts: new Date().toISOString() };
}

function record(callId: string, keyId: string, billed: number, reserved: number, at = new Date()): GatewayCallRecord {
  return buildGatewayRecord(
    { callId, keyId, tags: {}, sessionId: 's', endpoint: '/v1/messages', protocol: 'anthropic-messages', baseUrl: 'http://upstream.test', model: 'm', stream: false, attempt: 1 },
    { usage: makeUsage({ inputTokens: billed - 1, outputTokens: 1 }), finish: finishReason('stop'), maxTokens: 10, requestedMaxTokens: 10, ttfbMs: 1, gatewayMs: 0.1, status: 200, error: undefined, note: undefined, reservedTokens: reserved, bookedTokens: billed },
    3,
    at,
  );
}

/** A whole call: record, then settlement — what the gateway writes when a call ends. */
function settle(life: Life, callId: string, keyId: string, billed: number, reserved: number): void {
  life.ledger.write(record(callId, keyId, billed, reserved));
  life.journal.settle(callId, keyId, billed, undefined);
}

function fresh(): { dir: string; keyId: string } {
  const dir = mkdtempSync(join(tmpdir(), 'isobudget-journal-'));
  mkdirSync(join(dir, 'ledger'));
  const keys = KeyStore.open(join(dir, 'keys.sqlite'));
  const keyId = keys.create({ budget: 100_000, tags: { run: 'r' } }).key.id;
  keys.close();
  return { dir, keyId };
}

function ledgerRecords(dir: string): GatewayCallRecord[] {
  return readdirSync(join(dir, 'ledger')).flatMap((file) => readFileSync(join(dir, 'ledger', file), 'utf8').trim().split('\n').filter(Boolean).map((line) => JSON.parse(line) as GatewayCallRecord));
}

describe('spend journal and recovery', () => {
  test('a kill with calls in flight: settled calls count their bill, open reservations count whole, once', async () => {
    const { dir, keyId } = fresh();
    const first = await start(dir);
    expect(first.journal.reserve(reservation('a', keyId, 500))).toBe(true);
    expect(first.journal.reserve(reservation('b', keyId, 700))).toBe(true);
    expect(first.journal.reserve(reservation('c', keyId, 300))).toBe(true);
    settle(first, 'a', keyId, 120, 500);
    settle(first, 'd', keyId, 30, 300);
    first.journal.writeSettlements(); // the settlement timer ran once…
    first.keys.flush(); // …and then the store's: a's and d's spend are in the store, with the journal mark
    settle(first, 'e', keyId, 40, 300);
    first.journal.writeSettlements(); // e's settlement is written, but not yet in the store
    settle(first, 'c', keyId, 90, 300);
    // Killed: b never ended; c's record is in the ledger but its settlement was still gathering.
    const second = await start(dir);
    expect(second.recovered).toMatchObject({ unsettled: 2, bookedTokens: 700 + 90, settlementsAdded: 1 });
    expect(second.keys.get(keyId)?.spent).toBe(120 + 30 + 40 + 90 + 700);
    const unknown = ledgerRecords(dir).filter((r) => r.outcome === 'unknown_after_crash');
    expect(unknown).toEqual([expect.objectContaining({ call_id: 'b', key_id: keyId, booked_tokens: 700, reserved_tokens: 700, usage_missing: true, tags: { run: 'r' }, base_url: 'http://upstream.test' })]);
    // Killed again at once: nothing is counted twice, and b is not recorded twice.
    const third = await start(dir);
    expect(third.recovered).toMatchObject({ unsettled: 0, settlementsAdded: 0 });
    expect(third.keys.get(keyId)?.spent).toBe(980);
    expect(ledgerRecords(dir).filter((r) => r.outcome === 'unknown_after_crash')).toHaveLength(1);
    expect(readdirSync(dir).filter((name) => name.endsWith('.journal'))).toEqual([`spend-${third.recovered.generation}.journal`]);
  });

  test('killed between a call\'s record and its settlement: its billed tokens count, and no second record is written', async () => {
    const { dir, keyId } = fresh();
    const first = await start(dir);
    first.journal.reserve(reservation('x', keyId, 800));
    first.ledger.write(record('x', keyId, 150, 800));
    const second = await start(dir);
    expect(second.recovered).toMatchObject({ unsettled: 1, bookedTokens: 150 });
    expect(second.keys.get(keyId)?.spent).toBe(150);
    expect(ledgerRecords(dir).map((r) => r.call_id)).toEqual(['x']);
  });

  test('the wall clock stepped back between a reservation and its record, then a kill: the record is found by call id, the call booked once', async () => {
    const { dir, keyId } = fresh();
    const day = 86_400_000;
    // An earlier process wrote records on both days.
    const earlier = await start(dir);
    earlier.ledger.write(record('p0-1', keyId, 10, 100, new Date(Date.now() - 3 * day)));
    earlier.ledger.write(record('p0-2', keyId, 10, 100));
    earlier.journal.writeSettlements();
    earlier.keys.flush(true);
    const first = await start(dir);
    first.journal.reserve(reservation('p1-0', keyId, 500));
    first.journal.reserve(reservation('p1-1', keyId, 400));
    // The clock steps back two days (an NTP correction, a VM restored): p1-0's record lands in an older day's file.
    first.ledger.write(record('p1-0', keyId, 120, 500, new Date(Date.now() - 2 * day)));
    first.ledger.write(record('p1-1', keyId, 36, 400, new Date(Date.now() - 10 * 60_000)));
    // Killed before either settlement was written.
    const second = await start(dir);
    expect(second.recovered).toMatchObject({ unsettled: 2, bookedTokens: 156 });
    expect(second.keys.get(keyId)?.spent).toBe(156);
    const booked = ledgerRecords(dir).filter((r) => r.call_id?.startsWith('p1-')).reduce((sum, r) => sum + (r.booked_tokens ?? 0), 0);
    expect(booked).toBe(156);
    expect(ledgerRecords(dir).filter((r) => r.outcome === 'unknown_after_crash')).toEqual([]);
  });

  test('killed with hundreds of records whose settlements were still gathering: each is booked at its record, none recorded twice', async () => {
    const { dir, keyId } = fresh();
    const first = await start(dir);
    let billed = 0;
    for (let i = 0; i < 700; i += 1) {
      first.journal.reserve(reservation(`r${i}`, keyId, 1_000));
      settle(first, `r${i}`, keyId, 100 + i, 1_000);
      billed += 100 + i;
    }
    first.journal.reserve(reservation('never-ended', keyId, 1_000));
    const second = await start(dir);
    expect(second.recovered).toMatchObject({ unsettled: 701, bookedTokens: billed + 1_000 });
    expect(second.keys.get(keyId)?.spent).toBe(billed + 1_000);
    const records = ledgerRecords(dir);
    expect(records).toHaveLength(701);
    expect(new Set(records.map((r) => r.call_id)).size).toBe(701);
  });

  test('a journal past its size starts a new generation carrying the open reservations; recovery reads it', async () => {
    const { dir, keyId } = fresh();
    const first = await start(dir, 600);
    first.journal.reserve(reservation('open', keyId, 400));
    for (let i = 0; i < 8; i += 1) {
      first.journal.reserve(reservation(`c${i}`, keyId, 100));
      settle(first, `c${i}`, keyId, 10, 100);
    }
    const before = first.journal.mark().generation;
    first.journal.rotateIfLarge();
    expect(first.journal.mark().generation).toBe(before + 1);
    expect(first.keys.spendMark().generation).toBe(before + 1);
    expect(first.keys.get(keyId)?.spent).toBe(80);
    await vi.waitFor(() => expect(existsSync(journalPath(dir, before))).toBe(false));
    first.journal.reserve(reservation('c8', keyId, 100));
    settle(first, 'c8', keyId, 10, 100);
    const second = await start(dir);
    expect(second.keys.get(keyId)?.spent).toBe(80 + 10 + 400);
    expect(second.recovered).toMatchObject({ unsettled: 2, bookedTokens: 410 });
  });
});
