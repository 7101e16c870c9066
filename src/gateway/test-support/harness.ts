/** A sim server with a gateway in front of it, for gateway tests (real HTTP, one process). */
import { startSimServer, type SimServer, type SimServerOptions } from '../../providers/sim/index.js';
import { KeyStore } from '../keys/key-store.js';
import type { CallSink, GatewayCallRecord } from '../ledger/gateway-record.js';
import { startGateway, type Gateway, type GatewayOptions } from '../server.js';

export class RecordingSink implements CallSink {
  readonly records: GatewayCallRecord[] = [];
  write(record: GatewayCallRecord): void {
    this.records.push(record);
  }
  async close(): Promise<void> {}
}

export interface Harness {
  sim: SimServer;
  gateway: Gateway;
  keys: KeyStore;
  sink: RecordingSink;
  logs: string[];
  /** Mints a key and returns its secret. */
  mint(budget?: number, tags?: Record<string, string>): string;
  close(): Promise<void>;
}

export interface HarnessOptions {
  sim?: SimServerOptions;
  gateway?: Partial<Omit<GatewayOptions, 'keys' | 'sink' | 'upstream'>>;
  /** Where records go instead of the in-memory `sink` (which then stays empty). */
  sink?: CallSink;
  /** Upstream path suffix: '' (Anthropic style) or '/v1' (OpenAI style). */
  upstreamSuffix?: string;
}

export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const sim = await startSimServer({ seed: 3, ...options.sim });
  const keys = KeyStore.open(':memory:');
  const sink = new RecordingSink();
  const logs: string[] = [];
  const gateway = await startGateway({ upstream: `${sim.url}${options.upstreamSuffix ?? ''}`, keys, sink: options.sink ?? sink, log: (line) => logs.push(line), ...options.gateway });
  return {
    sim, gateway, keys, sink, logs,
    mint: (budget, tags = {}) => keys.create({ budget, tags }).secret,
    close: async () => {
      await gateway.close();
      await sim.close();
      keys.close();
    },
  };
}
