/**
 * A server that cannot listen (port taken, no permission, no such address) is a user error,
 * not a crash: one line (no hint line) naming the address and what to do. Shared by `sim serve` and the
 * gateway, so both say it the same way.
 */
import { IsobudgetError } from './errors.js';

/** The user error for a failed `listen`, or undefined when the failure is not about the address. */
export function listenError(error: unknown, where: { host: string; port: number; flag?: string }): IsobudgetError | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const address = `${where.host.includes(':') ? `[${where.host}]` : where.host}:${where.port}`;
  const flag = where.flag ?? '--port';
  if (code === 'EADDRINUSE') {
    return new IsobudgetError('port_in_use', `cannot listen on ${address}: the port is already in use (stop what uses it, or pick another with ${flag}; ${flag} 0 picks a free one)`);
  }
  if (code === 'EACCES' || code === 'EPERM') {
    return new IsobudgetError('port_denied', `cannot listen on ${address}: permission denied (ports below 1024 need privileges; pick another with ${flag})`);
  }
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return new IsobudgetError('address_unavailable', `cannot listen on ${address}: no such local address (use 127.0.0.1)`);
  }
  return undefined;
}
