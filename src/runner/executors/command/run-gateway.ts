/**
 * The gateway a `command` run puts between its agents and the upstream: one per run, on
 * 127.0.0.1, with an in-memory key store (one budgeted key per path) and an in-memory sink
 * whose records move into the run's own ledger. The upstream is the experiment's provider
 * (or `executor.gateway.upstream`); with protocol `sim`, a simulator server in-process.
 */
import { readApiKey } from '../../../config/env.js';
import type { CommandExecutorConfig, ExperimentConfig } from '../../../config/types.js';
import { KeyStore } from '../../../gateway/keys/key-store.js';
import { memoryBook } from '../../../gateway/call-book.js';
import type { Reservation } from '../../../gateway/durable/spend-journal.js';
import { intentBook } from '../../../gateway/intent-book.js';
import type { GatewayCallRecord } from '../../../gateway/ledger/gateway-record.js';
import { MemorySink } from '../../../gateway/ledger/memory-sink.js';
import { startGateway, type Gateway } from '../../../gateway/server.js';
import { embeddedStore } from '../../../gateway/store/gateway-store.js';
import { displayUrl } from '../../../gateway/upstream-url.js';
import { startSimServer, type SimServer } from '../../../providers/sim/index.js';

export interface RunGateway {
  gateway: Gateway;
  keys: KeyStore;
  sink: MemorySink;
  /** The upstream key, for scrubbing (never given to an agent). */
  upstreamKey: string | undefined;
  close(): Promise<void>;
}

/** A call about to leave: its reservation, the tags of its path's key, the upstream it goes to. */
export interface GatewayIntent extends Reservation {
  tags: Record<string, string>;
  baseUrl: string;
}

/** What a distributed worker adds to a run's gateway; an embedded run passes none. */
export interface RunGatewayHooks {
  /** Sees each finished call's record as the sink gets it. */
  onCall?: (record: GatewayCallRecord) => void;
  /** Awaited before each call leaves: the call goes only once this resolves (rejects: a 503, the call stays here). */
  onIntent?: (intent: GatewayIntent) => Promise<void>;
}

export async function startRunGateway(config: ExperimentConfig, executor: CommandExecutorConfig, env: NodeJS.ProcessEnv = process.env, hooks: RunGatewayHooks = {}): Promise<RunGateway> {
  const { provider } = config;
  const keyEnv = executor.gateway.apiKeyEnv ?? provider.apiKeyEnv;
  // readApiKey names the variable when it is unset; the protocol only has to be a keyed one here.
  const upstreamKey = keyEnv === undefined ? undefined : readApiKey({ provider: { ...provider, protocol: 'openai-chat', apiKeyEnv: keyEnv }, configPath: config.configPath }, env);
  let sim: SimServer | undefined;
  let upstream = executor.gateway.upstream;
  if (upstream === undefined) {
    if (provider.protocol === 'sim') {
      sim = await startSimServer({ seed: config.seed });
      upstream = sim.url;
    } else upstream = provider.baseUrl;
  }
  const keys = KeyStore.open(':memory:');
  const sink = new MemorySink(hooks.onCall);
  const { onIntent } = hooks;
  const baseUrl = displayUrl(upstream);
  // Only a worker's gateway waits on a hook; an embedded run's books in memory as before.
  const store = onIntent === undefined ? undefined : {
    ...embeddedStore({ keys, sink }),
    book: intentBook(memoryBook(sink, keys), (reservation) => onIntent({ ...reservation, tags: keys.get(reservation.keyId)?.tags ?? {}, baseUrl })),
  };
  try {
    const gateway = await startGateway({
      upstream,
      ...(upstreamKey === undefined ? {} : { upstreamKey }),
      upstreamAuth: executor.gateway.upstreamAuth,
      ...(store === undefined ? { keys, sink } : { store }),
      // The simulator bills with our tokenizer: no margin on prompt estimates.
      exactPrompt: sim !== undefined,
    });
    return {
      gateway, keys, sink, upstreamKey,
      close: async () => {
        await gateway.close();
        await sim?.close();
        keys.close();
      },
    };
  } catch (error) {
    await sim?.close();
    keys.close();
    throw error;
  }
}
