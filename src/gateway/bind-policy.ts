/**
 * Where the gateway may listen. Loopback by default; any other address exposes an upstream
 * key to the network, so it takes an explicit flag AND an access token every request must
 * carry — refusing to start is the only safe answer when either is missing.
 */
import { IsobudgetError } from '../core/errors.js';

export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '');
  return h === 'localhost' || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h);
}

export interface BindRequest {
  host: string;
  allowRemote: boolean;
  accessToken: string | undefined;
}

export function checkBind(request: BindRequest): void {
  if (isLoopbackHost(request.host)) return;
  if (!request.allowRemote) {
    throw new IsobudgetError('gateway_remote_bind', `refusing to listen on ${request.host}: not a loopback address`, {
      hint: 'the gateway holds the upstream key; bind 127.0.0.1, or pass --allow-remote together with --access-token-env NAME',
    });
  }
  if (request.accessToken === undefined || request.accessToken.length < 16) {
    throw new IsobudgetError('gateway_remote_bind', `refusing to listen on ${request.host} without an access token of at least 16 characters`, {
      hint: 'export a long random token in an env var and pass --access-token-env NAME; clients send it as x-isobudget-access-token',
    });
  }
}
