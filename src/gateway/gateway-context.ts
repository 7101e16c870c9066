/** Gateway-wide state every handler shares. */
import type { UpstreamAuth } from './forward-headers.js';
import type { InFlight } from './in-flight.js';
import type { CallBook } from './call-book.js';
import type { UpstreamAgents, UpstreamTimeouts } from './proxy/upstream-request.js';
import type { Scrubber } from './scrubber.js';
import type { Budgets, KeyLookup } from './store/gateway-store.js';
import type { UpstreamTarget } from './upstream-url.js';

export interface GatewayContext {
  /** Upstream base URL as configured. */
  upstream: string;
  /** The same, parsed once. */
  target: UpstreamTarget;
  /** The same without credentials or query: what logs and the ledger show. */
  upstreamDisplay: string;
  /** The gateway's own upstream credential (never logged, never returned). */
  upstreamKey: string | undefined;
  upstreamAuth: UpstreamAuth;
  agents: UpstreamAgents;
  keys: KeyLookup;
  budgets: Budgets;
  /** Where reservations, records and settlements go (durably, with a data dir). */
  book: CallBook;
  scrub: Scrubber;
  inFlight: InFlight;
  timeouts: UpstreamTimeouts;
  /** The upstream bills with our tokenizer (the simulator): no margin on prompt estimates. */
  exactPrompt: boolean;
  /** Undefined: no log line is even built. */
  log: ((line: string) => void) | undefined;
}
