/**
 * A unit's ledger writes on a worker. Each call's intent is a row (`in_flight`) before its
 * request leaves; the unit commits its calls and its result in ONE transaction — the result
 * insert is what makes it exactly once (unique run, case, arm, epoch, split): a second attempt
 * that finishes too finds the key taken and books its calls as `interrupted` (billed, not
 * counted). Rows an attempt left `in_flight` (its worker died) become `interrupted` when the
 * unit commits or the run finishes.
 */
import type { Database } from '../db/spec.js';
import { insertRows, inTransaction } from '../db/batch-insert.js';
import { unknownOutcomeRecord } from '../ledger/call-intents.js';
import type { CallStart } from '../ledger/jsonl-writer.js';
import { LEDGER_SCHEMA_VERSION, type CallRecord, type ResultRecord } from '../ledger/records.js';
import { CALL_COLUMNS, callRow, RESULT_COLUMNS, resultRow } from './ledger-rows.js';
import { notifyRun } from './run-notifications.js';

export interface UnitAttempt {
  runId: string;
  unitKey: string;
  /** Unique per attempt (job id, retry count and a random part): prefixes its call ids. */
  attemptId: string;
  /** The unit's position in the plan (results.jsonl order). */
  seq: number;
}

const CALL_UPSERT = 'ON CONFLICT (run_id, call_id) DO UPDATE SET state = EXCLUDED.state, record = EXCLUDED.record, prompt_tokens = EXCLUDED.prompt_tokens, completion_tokens = EXCLUDED.completion_tokens, total_tokens = EXCLUDED.total_tokens, cost_usd = EXCLUDED.cost_usd, latency_ms = EXCLUDED.latency_ms, status = EXCLUDED.status, usage_missing = EXCLUDED.usage_missing';

/** An abandoned attempt never demotes a call its own commit made `committed` (the commit landed, its reply was lost). */
const ABANDON_UPSERT = CALL_UPSERT.replace('state = EXCLUDED.state', `state = CASE WHEN calls.state = 'committed' THEN calls.state ELSE EXCLUDED.state END`);

/** A record landing after its unit settled the call as `interrupted` keeps that state (and brings its usage). */
const FINISHED_UPSERT = CALL_UPSERT.replace('state = EXCLUDED.state', `state = CASE WHEN calls.state = 'interrupted' THEN calls.state ELSE EXCLUDED.state END`);

export class UnitLedger {
  private sequence = 0;
  private readonly pending: Array<Promise<void>> = [];

  constructor(private readonly db: Database, readonly attempt: UnitAttempt, private readonly redact: (text: string) => string) {}

  /** Books the intent (durably, before the request leaves) and returns the call id. */
  async startCall(start: CallStart): Promise<string> {
    this.sequence += 1;
    const callId = `${this.attempt.attemptId}-${this.sequence}`;
    const intent = unknownOutcomeRecord({ schema_version: LEDGER_SCHEMA_VERSION, kind: 'call_start', ...start, call_id: callId, ts: new Date().toISOString() });
    await insertRows(this.db, 'calls', CALL_COLUMNS, [callRow(intent, this.attempt.unitKey, this.attempt.attemptId, 'in_flight', this.redact)], CALL_UPSERT);
    return callId;
  }

  /**
   * A command agent's call about to leave through the run's gateway: its intent row, awaited
   * (the gateway forwards only after). `gatewayCallId` is the gateway's id of the call; the
   * call's record, when it finishes, lands on the same row (recordFinished).
   */
  async startGatewayCall(start: CallStart, gatewayCallId: string): Promise<void> {
    const intent = unknownOutcomeRecord({ schema_version: LEDGER_SCHEMA_VERSION, kind: 'call_start', ...start, call_id: this.gatewayCallId(gatewayCallId), ts: new Date().toISOString() });
    await insertRows(this.db, 'calls', CALL_COLUMNS, [callRow(intent, this.attempt.unitKey, this.attempt.attemptId, 'in_flight', this.redact)], CALL_UPSERT);
  }

  /** A gateway's ids are unique only within its process: the attempt's id makes them unique in the run. */
  private gatewayCallId(id: string): string {
    return `${this.attempt.attemptId}-g-${id}`;
  }

  /**
   * A call that finished outside startCall (the command executor's gateway): booked `in_flight`
   * at once, in the background, over its intent row; commit and abandon wait for these writes first.
   */
  recordFinished(record: CallRecord): void {
    this.sequence += 1;
    record.call_id = record.call_id === undefined ? `${this.attempt.attemptId}-g${this.sequence}` : this.gatewayCallId(record.call_id);
    this.pending.push(insertRows(this.db, 'calls', CALL_COLUMNS, [callRow(record, this.attempt.unitKey, this.attempt.attemptId, 'in_flight', this.redact)], FINISHED_UPSERT).then(() => undefined));
  }

  private async settled(): Promise<void> {
    await Promise.allSettled(this.pending);
  }

  /** Commits calls + result in one transaction; false when another attempt committed the unit first. */
  async commit(calls: readonly CallRecord[], result: ResultRecord): Promise<boolean> {
    await this.settled();
    const { runId, unitKey, attemptId, seq } = this.attempt;
    const named = calls.map((call) => (call.call_id === undefined ? { ...call, call_id: `${attemptId}-c${(this.sequence += 1)}` } : call));
    return inTransaction(this.db, async (client) => {
      const won = (await insertRows(client, 'results', RESULT_COLUMNS, [resultRow(result, seq, attemptId, this.redact)], 'ON CONFLICT DO NOTHING')) === 1;
      // Intents whose call has its record here are overwritten below; others of the runner never left.
      await client.query(`DELETE FROM calls WHERE attempt_id = $1 AND state = 'in_flight' AND call_id NOT LIKE $2`, [attemptId, this.gatewayCallId('%')]);
      await insertRows(client, 'calls', CALL_COLUMNS, named.map((call) => callRow(call, unitKey, attemptId, won ? 'committed' : 'interrupted', this.redact)), CALL_UPSERT);
      // A gateway call with no record yet is still upstream (its agent exited, the call did not end
      // within the record grace): it may bill and is not in the result.
      await client.query(`UPDATE calls SET state = 'interrupted' WHERE attempt_id = $1 AND state = 'in_flight'`, [attemptId]);
      if (won) {
        // Earlier attempts that died mid-unit: what they started was billed (or may have been), never counted.
        await client.query(`UPDATE calls SET state = 'interrupted' WHERE run_id = $1 AND unit_key = $2 AND state = 'in_flight'`, [runId, unitKey]);
        await client.query(`UPDATE units SET state = 'committed', committed_at = now() WHERE run_id = $1 AND unit_key = $2`, [runId, unitKey]);
        await notifyRun(client, runId);
      }
      return won;
    });
  }

  /** The unit will not commit in this attempt (aborted, failed): its calls are billed spend, kept apart. */
  async abandon(calls: readonly CallRecord[]): Promise<void> {
    await this.settled();
    const { unitKey, attemptId } = this.attempt;
    await inTransaction(this.db, async (client) => {
      await insertRows(client, 'calls', CALL_COLUMNS, calls.filter((c) => c.call_id !== undefined).map((call) => callRow(call, unitKey, attemptId, 'interrupted', this.redact)), ABANDON_UPSERT);
      await client.query(`UPDATE calls SET state = 'interrupted' WHERE attempt_id = $1 AND state = 'in_flight'`, [attemptId]);
    });
  }
}
