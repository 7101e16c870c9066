/**
 * A PostgreSQL 15 cluster of a test's own (initdb + pg_ctl on a free port in a temp folder),
 * for faults the shared server must not see: restarts, stops, a low max_connections. As root,
 * the cluster runs as the `postgres` user (initdb refuses root). Where no server binaries are
 * installed, `privateClusterUnavailable` says why and the test skips with that line.
 */
import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const BIN = process.env.ISOBUDGET_TEST_PG_BIN ?? '/usr/lib/postgresql/15/bin';

export interface PrivateCluster {
  url: string;
  port: number;
  /** Stops the server (sessions cut at once), waits `downMs`, starts it again. */
  restart(downMs?: number): void;
  stop(): void;
  start(): void;
  /** Stops the server and removes its folder. */
  destroy(): void;
}

export function privateClusterUnavailable(): string | undefined {
  if (!existsSync(join(BIN, 'initdb')) || !existsSync(join(BIN, 'pg_ctl'))) return `no PostgreSQL server binaries in ${BIN} (set ISOBUDGET_TEST_PG_BIN)`;
  if (process.getuid?.() === 0) {
    try {
      execFileSync('id', ['-u', 'postgres'], { stdio: 'ignore' });
    } catch {
      return 'running as root and no postgres user to run initdb as';
    }
  }
  return undefined;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

export async function startPrivateCluster(settings: Record<string, string | number> = {}): Promise<PrivateCluster> {
  const root = mkdtempSync(join(tmpdir(), 'isobudget-pg-'));
  const data = join(root, 'data');
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    chownSync(root, uid, gid);
  }
  const run = (tool: string, args: string[]): void => {
    const argv = asRoot ? ['-u', 'postgres', '--', join(BIN, tool), ...args] : args;
    execFileSync(asRoot ? 'runuser' : join(BIN, tool), argv, { stdio: 'ignore', timeout: 60_000 });
  };
  run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '--no-instructions']);
  const port = await freePort();
  const options = [`-p ${port}`, `-k ${root}`, "-c listen_addresses=127.0.0.1", '-c fsync=off', '-c synchronous_commit=off', '-c full_page_writes=off',
    ...Object.entries(settings).map(([key, value]) => `-c ${key}=${value}`)].join(' ');
  const start = (): void => run('pg_ctl', ['start', '-D', data, '-w', '-t', '60', '-l', join(root, 'log'), '-o', options]);
  const stop = (): void => run('pg_ctl', ['stop', '-D', data, '-m', 'fast', '-w', '-t', '60']);
  start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    start,
    stop,
    restart(downMs = 1000) {
      stop();
      execFileSync('sleep', [String(downMs / 1000)]);
      start();
    },
    destroy() {
      try {
        run('pg_ctl', ['stop', '-D', data, '-m', 'immediate', '-w', '-t', '30']);
      } catch {
        // Already stopped.
      }
      rmSync(root, { recursive: true, force: true });
    },
  };
}
