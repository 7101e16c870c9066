/**
 * Fail fast: when the first K attempts of a run (default 10) all fail the same way — the same
 * connection error, or HTTP 401, 403 or 404 — nothing later will go better, and retrying
 * every path (minutes over thousands of paths) only hides the cause. The run stops with one
 * line naming it and the `doctor` command; a 404 from a base URL whose path has no version
 * segment hints `/v1` (the same check `clients lint` makes). One success, or a different
 * failure, disarms it for the rest of the run.
 */
import { hasVersionSegment } from '../clients/base-url.js';
import { IsobudgetError } from '../core/errors.js';
import { ProviderError } from '../core/provider-error.js';
import type { Provider } from '../providers/spec.js';

/** Attempts that must fail alike before the run stops. */
export const FAIL_FAST_ATTEMPTS = 10;

/** The failure an attempt shares with the others, or undefined when it is not one fail-fast reads. */
function fatalKey(error: unknown): string | undefined {
  if (!(error instanceof ProviderError)) return undefined;
  if (error.kind === 'connection') return `connection: ${error.message}`;
  if (error.kind === 'http' && (error.status === 401 || error.status === 403 || error.status === 404)) return `HTTP ${error.status}`;
  return undefined;
}

export class FailFast {
  private seen = 0;
  private key: string | undefined;
  private first: string | undefined;
  private disarmed = false;
  /** The error that stopped the run; undefined while it runs. */
  tripped: IsobudgetError | undefined;

  constructor(
    private readonly context: { baseUrl: string; configPath: string; attempts?: number },
    private readonly stop: (error: IsobudgetError) => void,
  ) {}

  succeeded(): void {
    this.disarmed = true;
  }

  failed(error: unknown): void {
    if (this.disarmed || this.tripped !== undefined) return;
    const key = fatalKey(error);
    if (key === undefined || (this.key !== undefined && key !== this.key)) {
      this.disarmed = true;
      return;
    }
    this.key = key;
    this.first ??= error instanceof Error ? error.message : String(error);
    this.seen += 1;
    if (this.seen < (this.context.attempts ?? FAIL_FAST_ATTEMPTS)) return;
    this.tripped = new IsobudgetError('provider_failing', `the first ${this.seen} calls all failed alike (${this.first}); stopped instead of retrying every path`, { hint: this.hint(key) });
    this.stop(this.tripped);
  }

  private hint(key: string): string {
    const doctor = `check the provider with: isobudget doctor ${this.context.configPath}`;
    if (key === 'HTTP 404' && !hasVersionSegment(this.context.baseUrl)) return `the base URL ${this.context.baseUrl} has no /v1 (or other version segment) in its path, and most OpenAI-compatible servers serve under one: try ${this.context.baseUrl.replace(/\/+$/, '')}/v1; ${doctor}`;
    if (key === 'HTTP 401' || key === 'HTTP 403') return `the key is missing, wrong or not allowed this model (check the env var provider.api_key_env names); ${doctor}`;
    if (key === 'HTTP 404') return `the endpoint or the model does not exist there; ${doctor}`;
    return `nothing answers at ${this.context.baseUrl}; ${doctor}`;
  }
}

/** The provider with every attempt's outcome reported to `failFast` (the same object otherwise). */
export function watchedProvider(provider: Provider, failFast: FailFast): Provider {
  const watched = Object.create(provider) as Provider & { generate: Provider['generate'] };
  watched.generate = async (request) => {
    try {
      const result = await provider.generate(request);
      failFast.succeeded();
      return result;
    } catch (error) {
      failFast.failed(error);
      throw error;
    }
  };
  return watched;
}
