/** Where a gateway keeps its keys and ledger: `--data-dir`, else `$ISOBUDGET_GATEWAY_DIR`, else `~/.isobudget/gateway`. */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

export interface GatewayPaths {
  dir: string;
  keys: string;
  ledger: string;
}

export function gatewayPaths(dataDir: string | undefined, env: NodeJS.ProcessEnv, cwd: string): GatewayPaths {
  const dir = resolve(cwd, dataDir ?? env['ISOBUDGET_GATEWAY_DIR'] ?? join(env['HOME'] ?? cwd, '.isobudget', 'gateway'));
  return { dir, keys: join(dir, 'keys.sqlite'), ledger: join(dir, 'ledger') };
}

/** Owner-only: the key store holds hashes and budgets, the ledger holds every call's metadata. */
export function ensureGatewayDir(paths: GatewayPaths): void {
  mkdirSync(paths.dir, { recursive: true, mode: 0o700 });
  mkdirSync(paths.ledger, { recursive: true, mode: 0o700 });
}
