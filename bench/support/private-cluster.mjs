/**
 * The benches' copy of src/test-support/private-cluster.ts (test support is not built into
 * dist/): a PostgreSQL 15 cluster of its own on a free port in a temp folder, run as the
 * postgres user when this process is root.
 */
import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const BIN = process.env.ISOBUDGET_TEST_PG_BIN ?? '/usr/lib/postgresql/15/bin';

export function privateClusterUnavailable() {
  if (!existsSync(join(BIN, 'initdb'))) return `no PostgreSQL server binaries in ${BIN}`;
  return undefined;
}

const freePort = () => new Promise((resolve, reject) => {
  const server = createServer();
  server.once('error', reject);
  server.listen(0, '127.0.0.1', () => {
    const { port } = server.address();
    server.close(() => resolve(port));
  });
});

export async function startPrivateCluster(settings = {}) {
  const root = mkdtempSync(join(tmpdir(), 'isobudget-pg-'));
  const data = join(root, 'data');
  const asRoot = process.getuid?.() === 0;
  if (asRoot) chownSync(root, Number(execFileSync('id', ['-u', 'postgres']).toString()), Number(execFileSync('id', ['-g', 'postgres']).toString()));
  const run = (tool, args) => execFileSync(asRoot ? 'runuser' : join(BIN, tool), asRoot ? ['-u', 'postgres', '--', join(BIN, tool), ...args] : args, { stdio: 'ignore', timeout: 60_000 });
  run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '--no-instructions']);
  const port = await freePort();
  const options = [`-p ${port}`, `-k ${root}`, '-c listen_addresses=127.0.0.1', '-c fsync=off', '-c synchronous_commit=off', ...Object.entries(settings).map(([k, v]) => `-c ${k}=${v}`)].join(' ');
  const start = () => run('pg_ctl', ['start', '-D', data, '-w', '-t', '60', '-l', join(root, 'log'), '-o', options]);
  const stop = () => run('pg_ctl', ['stop', '-D', data, '-m', 'fast', '-w', '-t', '60']);
  start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    restart(downMs = 1000) {
      stop();
      execFileSync('sleep', [String(downMs / 1000)]);
      start();
    },
    destroy() {
      try {
        run('pg_ctl', ['stop', '-D', data, '-m', 'immediate', '-w', '-t', '30']);
      } catch {
        // already stopped
      }
      rmSync(root, { recursive: true, force: true });
    },
  };
}
