/** The gateway: virtual keys, budgets, a recording pass-through proxy, its ledger. */
export { startGateway, DEFAULT_MAX_BODY_BYTES, type Gateway, type GatewayOptions } from './server.js';
export { KeyStore } from './keys/key-store.js';
export { parseTags, formatTags, KEY_PREFIX, type VirtualKey } from './keys/virtual-key.js';
export { DailyLedger, ledgerFileFor } from './ledger/daily-ledger.js';
export { MemorySink } from './ledger/memory-sink.js';
export { buildGatewayIndex, ledgerFiles } from './ledger/gateway-index.js';
export type { CallSink, GatewayCallRecord } from './ledger/gateway-record.js';
export type { UpstreamAuth } from './forward-headers.js';
export { isLoopbackHost } from './bind-policy.js';
export { ACCESS_TOKEN_HEADER, TAGS_HEADER } from './client-credentials.js';
