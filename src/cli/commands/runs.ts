/**
 * `isobudget runs list|rm` — the runs in a runs folder (id, experiment, status, verdict,
 * cases, tokens, cost, age), and removing one (a broken run, typically) by id, id prefix
 * or `latest`.
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { IsobudgetError } from '../../core/errors.js';
import { DEFAULT_RUNS_DIR, findRunDir } from '../../ledger/find-run.js';
import { removeRunDir } from '../../ledger/remove-run.js';
import { listRunDirs } from '../../ledger/run-listing.js';
import { summarizeRun } from '../../ledger/run-summary.js';
import { renderRunsTable } from '../../report/runs-table.js';
import { parseCommandArgs, unknownSubcommand } from '../args.js';
import { DB_OPTION, GATE_OPTION, JSON_OPTION, QUIET_OPTION, RUNS_OUT_OPTION } from '../common-options.js';
import { EXIT } from '../exit-codes.js';
import type { CommandSpec } from './spec.js';
import type { CliIO } from '../io.js';
import { requireTeamDatabase } from './team-db.js';
import { TEAM_RUN_ACTIONS, TEAM_RUN_USAGE, teamRunAction } from './runs-team.js';

const USAGE = `isobudget runs list [--out DIR] [--json]     the runs in DIR (default ./runs), newest first
isobudget runs list --db URL [--json]          the runs in the team database, newest first
isobudget runs wait ID --db URL [--out DIR]    wait for a distributed run, then write DIR/ID/ and print its verdict
isobudget runs rm ID [--out DIR]               remove one run directory (ID: a run id, its unique start, latest, or a path)
${TEAM_RUN_USAGE}
Every command that takes a RUN_DIR also takes a run id, its unique start, or latest.`;

export const runsCommand: CommandSpec = {
  summary: 'list the runs (id, experiment, status, verdict, cases, tokens, cost, age) or remove one (runs rm ID)',
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs('runs', argv, {
      out: RUNS_OUT_OPTION,
      json: { ...JSON_OPTION, help: 'list: print JSON' },
      db: { ...DB_OPTION, help: 'list: the runs in the team database; wait: the database the run is in' },
      gate: { ...GATE_OPTION, help: 'wait: make the verdict the exit code' },
      quiet: { ...QUIET_OPTION, help: 'wait: no progress on stderr' },
      failed: { type: 'boolean', help: 'requeue: also the units out of attempts (each gets a new set of attempts)' },
    }, USAGE);
    const [action, ...rest] = positionals;
    const parent = resolve(io.cwd, values.out ?? DEFAULT_RUNS_DIR);
    if ((TEAM_RUN_ACTIONS as readonly string[]).includes(action ?? '')) return teamRunAction(action as (typeof TEAM_RUN_ACTIONS)[number], rest, values, io);
    if (action === 'wait' || (values.db !== undefined && (action === 'list' || action === undefined))) return teamRuns(action ?? 'list', rest, values, parent, io);
    if (action === 'list' || action === undefined) {
      if (rest.length > 0) throw new IsobudgetError('usage', `runs list: unexpected argument '${rest[0]}'`, { hint: USAGE });
      const now = new Date();
      const runs = listRunDirs(parent).map((entry) => summarizeRun(entry, now));
      runs.sort((a, b) => a.age_seconds - b.age_seconds || b.id.localeCompare(a.id));
      io.stdout.write(values.json ? `${JSON.stringify(runs, null, 2)}\n` : renderRunsTable(runs, parent));
      return EXIT.ok;
    }
    if (action === 'rm') {
      if (rest.length !== 1) throw new IsobudgetError('usage', 'runs rm: pass exactly one run ID', { hint: USAGE });
      const dir = findRunDir(rest[0] as string, { cwd: io.cwd, runsDir: parent });
      // Without a manifest a folder is a run only by where it is: inside the runs folder.
      if (!existsSync(join(dir, 'manifest.json')) && dirname(dir) !== parent) {
        throw new IsobudgetError('not_a_run', `not a run directory: no manifest.json, and not inside the runs folder ${parent}`, { location: { file: dir }, hint: 'pass --out DIR for another runs folder; runs rm removes only what `isobudget runs list` lists' });
      }
      const removed = removeRunDir(dir);
      io.stdout.write(`removed run ${removed.id}${removed.broken ? ` (broken: ${removed.broken})` : ''}: ${removed.dir}${removed.files.length ? ` — ${removed.files.join(', ')}` : ' (it was empty)'}\n`);
      return EXIT.ok;
    }
    throw unknownSubcommand('runs', action, ['list', 'rm', 'wait', ...TEAM_RUN_ACTIONS], USAGE);
  },
};

async function teamRuns(action: string, rest: string[], values: { db?: string | undefined; json?: boolean | undefined; gate?: boolean | undefined; quiet?: boolean | undefined }, parent: string, io: CliIO): Promise<number> {
  if (action === 'wait' && rest.length !== 1) throw new IsobudgetError('usage', 'runs wait: pass exactly one run ID', { hint: USAGE });
  if (action === 'list' && rest.length > 0) throw new IsobudgetError('usage', `runs list: unexpected argument '${rest[0]}'`, { hint: USAGE });
  const db = await requireTeamDatabase(values.db, io, `runs ${action}`);
  try {
    const { listRuns } = await import('../../distributed/run-store.js');
    const { waitForDistributedRun } = await import('./run-distributed.js');
    if (action === 'wait') return await waitForDistributedRun(db, io, rest[0] as string, parent, values.quiet === true || values.json === true, { gate: values.gate === true, json: values.json === true, markdown: false });
    const runs = await listRuns(db);
    const rows = runs.map((r) => ({ id: r.run_id, experiment: r.experiment, status: r.status, split: r.split, units: r.units_planned, committed: r.committed, created_at: r.created_at.toISOString(), finished_at: r.finished_at?.toISOString() ?? null }));
    if (values.json) io.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
    else {
      io.stdout.write('id  experiment  status  split  committed/units  created\n');
      for (const r of rows) io.stdout.write(`${r.id}  ${r.experiment}  ${r.status}  ${r.split}  ${r.committed}/${r.units}  ${r.created_at}\n`);
      if (rows.length === 0) io.stdout.write('(no runs in the database)\n');
    }
    return EXIT.ok;
  } finally {
    await db.end().catch(() => undefined);
  }
}
