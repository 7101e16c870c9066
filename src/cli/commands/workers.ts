/**
 * `isobudget workers list --db URL [--json]`: the worker processes of the team database —
 * alive or dead, version, the units each holds now, last heartbeat.
 */
import { IsobudgetError } from '../../core/errors.js';
import { parseCommandArgs, unknownSubcommand } from '../args.js';
import { DB_OPTION, JSON_OPTION } from '../common-options.js';
import { EXIT } from '../exit-codes.js';
import type { CommandSpec } from './spec.js';
import { requireTeamDatabase } from './team-db.js';

const USAGE = `isobudget workers list --db URL [--json]   the workers of the team database: alive/dead, version, units held, last heartbeat
  example: isobudget workers list --db postgres://ci@db:5432/isobudget`;

export const workersCommand: CommandSpec = {
  summary: 'list the worker processes of the team database (alive/dead, version, units, last heartbeat)',
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs('workers', argv, { db: DB_OPTION, json: { ...JSON_OPTION, help: 'print JSON' } }, USAGE);
    const [action, ...rest] = positionals;
    if (action !== undefined && action !== 'list') throw unknownSubcommand('workers', action, ['list'], USAGE);
    if (rest.length > 0) throw new IsobudgetError('usage', `workers list: unexpected argument '${rest[0]}'`, { hint: USAGE });
    const db = await requireTeamDatabase(values.db, io, 'workers list');
    try {
      const { listWorkers } = await import('../../distributed/worker-registry.js');
      const workers = await listWorkers(db);
      if (values.json) io.stdout.write(`${JSON.stringify(workers, null, 2)}\n`);
      else {
        io.stdout.write('id  state  version  units  concurrency  last beat  started\n');
        for (const w of workers) io.stdout.write(`${w.id}  ${w.alive ? 'alive' : w.state === 'live' ? 'silent' : w.state}  ${w.version}  ${w.units}  ${w.concurrency}  ${w.last_beat_at} (${w.silent_seconds} s ago)  ${w.started_at}\n`);
        if (workers.length === 0) io.stdout.write('(no workers have registered)\n');
      }
      return EXIT.ok;
    } finally {
      await db.end().catch(() => undefined);
    }
  },
};
