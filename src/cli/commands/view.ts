/**
 * `isobudget view` — the local viewer: runs, a run's report and case grid, compare, the
 * review queue (approve / reject with a click), memory, evolve loops and gateway spend, on
 * 127.0.0.1; `--bundle OUT_DIR` writes the same screens as static files.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { IsobudgetError } from '../../core/errors.js';
import { listenError } from '../../core/listen-error.js';
import { isLoopbackHost } from '../../gateway/bind-policy.js';
import { DEFAULT_STORE_PATH } from '../../memory/store/open.js';
import type { MemoryStore } from '../../memory/store/spec.js';
import { writeBundle } from '../../view/bundle.js';
import { RunSource } from '../../view/run-source.js';
import { startViewServer } from '../../view/server.js';
import { ViewApp } from '../../view/view-app.js';
import { parseCommandArgs, portOption } from '../args.js';
import { DB_OPTION, STORE_OPTION } from '../common-options.js';
import { EXIT } from '../exit-codes.js';
import type { CliIO } from '../io.js';
import type { CommandSpec } from './spec.js';
import { governanceStoreOpener, openTeamDatabase, rawFlag } from './team-db.js';
import type { Database } from '../../db/spec.js';
import { TeamSnapshots } from '../../view/team-snapshots.js';

const USAGE = `isobudget view [--port 4173] [--host 127.0.0.1] [--runs DIR] [--store PATH | --db URL] [--gateway DIR] [--evolve DIR] [--open]
isobudget view --bundle OUT_DIR [same sources]     the same screens as static files (read-only), for file:// or any static host`;

export const viewCommand: CommandSpec = {
  summary: 'the local web viewer: runs, a run and its cases, compare, review (approve / reject), memory, evolve, spend',
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs('view', argv, {
      port: { type: 'string', value: 'P', help: 'the port to listen on (0: any free one, printed)', fallback: '4173', example: '8080' },
      host: { type: 'string', value: 'HOST', help: 'the address to listen on; anything but loopback exposes your runs to the network (a warning is printed)', fallback: '127.0.0.1', example: '::1' },
      runs: { type: 'string', value: 'DIR', help: 'the runs folder', fallback: 'runs', example: 'runs-ci' },
      store: STORE_OPTION,
      db: { ...DB_OPTION, help: 'the team database (PostgreSQL): its runs beside the local ones, its memory store and review queue instead of the SQLite file' },
      gateway: { type: 'string', value: 'DIR', help: 'a gateway data dir (its --data-dir): keys and spend on the Spend screen', example: '~/.isobudget/gateway' },
      evolve: { type: 'string', value: 'DIR', help: 'the folder of evolve loops', fallback: 'evolve', example: 'loops' },
      open: { type: 'boolean', help: 'open the viewer in the default browser' },
      bundle: { type: 'string', value: 'OUT_DIR', help: 'write the viewer as static files (read-only) instead of serving it', example: 'viewer-bundle' },
    }, USAGE);
    if (positionals.length > 0) throw usage(`view: unexpected argument '${positionals[0]}'`);
    const team = await teamRuns(argv, io);
    const runs = new RunSource(resolve(io.cwd, values.runs ?? 'runs'), io.cwd, team ? [team.snapshots.dir] : []);
    if (team) {
      runs.beforeRead = () => team.snapshots.refresh();
      await team.snapshots.refresh();
    }
    const evolveDir = resolve(io.cwd, values.evolve ?? 'evolve');
    const { store, label } = await openStore(argv, io, values.store);
    const app = new ViewApp({ runs, store, storeLabel: label, gatewayDir: values.gateway === undefined ? undefined : resolve(io.cwd, values.gateway), evolveDir, cwd: io.cwd });
    try {
      if (values.bundle !== undefined) {
        const memoryIds = store ? (await store.listRecords()).map((r) => r.memory_id) : [];
        const result = await writeBundle(app, runs, evolveDir, resolve(io.cwd, values.bundle), memoryIds);
        io.stdout.write(`wrote the viewer to ${result.dir}: ${result.files} files (${result.runs} runs, ${result.cases} case pages); open ${resolve(result.dir, 'index.html')}\n`);
        return EXIT.ok;
      }
      const host = values.host ?? '127.0.0.1';
      const port = portOption('port', values.port) ?? 4173;
      if (!isLoopbackHost(host)) io.stderr.write(`warning: listening on ${host}: anyone who can reach this address can read your runs, outputs and memory (review decisions still need the page's token)\n`);
      const server = await startViewServer({ app, runs, host, port, token: store ? randomBytes(24).toString('base64url') : undefined }).catch((error: unknown) => {
        throw listenError(error, { host, port }) ?? error;
      });
      io.stdout.write(`isobudget view on ${server.url}  (runs: ${runs.label}; store: ${label}${store ? '' : ' — none'}; Ctrl-C to stop)\n`);
      if (values.open) openBrowser(server.url, io);
      await new Promise<void>((done) => {
        if (io.signal.aborted) done();
        else io.signal.addEventListener('abort', () => done(), { once: true });
      });
      await server.close();
      return EXIT.ok;
    } finally {
      store?.close();
      if (team) {
        await team.db.end().catch(() => undefined);
        rmSync(team.snapshots.dir, { recursive: true, force: true });
      }
    }
  },
};

function usage(message: string): IsobudgetError {
  return new IsobudgetError('usage', message, { hint: USAGE });
}

/** With --db (or $ISOBUDGET_DATABASE_URL): the team runs, mirrored read-only into a private temp folder. */
async function teamRuns(argv: readonly string[], io: CliIO): Promise<{ db: Database; snapshots: TeamSnapshots } | undefined> {
  const db = await openTeamDatabase(rawFlag(argv, 'db'), io, 'view', 4);
  if (!db) return undefined;
  return { db, snapshots: new TeamSnapshots(db, mkdtempSync(join(tmpdir(), 'isobudget-view-team-'))) };
}

/** The store if one exists: the viewer never creates an empty store file. */
async function openStore(argv: readonly string[], io: CliIO, path: string | undefined): Promise<{ store: MemoryStore | undefined; label: string }> {
  const useDb = rawFlag(argv, 'db') !== undefined || (path === undefined && io.env['ISOBUDGET_DATABASE_URL'] !== undefined);
  if (useDb) return { store: (await governanceStoreOpener(argv, io, 'view'))(undefined), label: 'the team database' };
  const file = resolve(io.cwd, path ?? DEFAULT_STORE_PATH);
  if (!existsSync(file)) return { store: undefined, label: file };
  return { store: (await governanceStoreOpener(argv, io, 'view'))(path), label: file };
}

function openBrowser(url: string, io: CliIO): void {
  const command = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  try {
    const child = spawn(command, [url], { stdio: 'ignore', detached: true });
    child.on('error', () => io.stderr.write(`could not open a browser (${command}); open ${url}\n`));
    child.unref();
  } catch {
    io.stderr.write(`could not open a browser; open ${url}\n`);
  }
}
