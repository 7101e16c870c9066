/**
 * Records kept in memory by key id: the sink of a gateway that lives inside a run, whose
 * `command` executor moves each path's records into the run's own ledger.
 */
import type { CallSink, GatewayCallRecord } from './gateway-record.js';

export class MemorySink implements CallSink {
  private readonly byKey = new Map<string, GatewayCallRecord[]>();

  /** `onWrite`: sees each record as it arrives (a distributed worker books it durably). */
  constructor(private readonly onWrite?: (record: GatewayCallRecord) => void) {}

  write(record: GatewayCallRecord): void {
    this.onWrite?.(record);
    const list = this.byKey.get(record.key_id) ?? [];
    list.push(record);
    this.byKey.set(record.key_id, list);
  }

  /** The records of one key, removed from the sink. */
  take(keyId: string): GatewayCallRecord[] {
    const list = this.byKey.get(keyId) ?? [];
    this.byKey.delete(keyId);
    return list;
  }

  async close(): Promise<void> {
    this.byKey.clear();
  }
}
