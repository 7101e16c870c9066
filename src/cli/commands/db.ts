/**
 * `isobudget db migrate|status --db URL` — the team database's schema (DESIGN §10).
 * Safe to run from several machines at once: migrations apply under an advisory lock.
 */
import { IsobudgetError } from '../../core/errors.js';
import { databaseUrl } from '../../config/database-url.js';
import { parseCommandArgs, unknownSubcommand } from '../args.js';
import { EXIT } from '../exit-codes.js';
import type { CommandSpec } from './spec.js';

const USAGE = `isobudget db migrate [--db URL]   apply pending schema migrations (idempotent; safe concurrently)
isobudget db status  [--db URL]   list applied and pending migrations
  --db URL   postgres://USER@HOST:5432/DATABASE (default: $ISOBUDGET_DATABASE_URL)
  example: isobudget db migrate --db postgres://postgres@127.0.0.1:5432/isobudget`;

export const dbCommand: CommandSpec = {
  summary: 'team database (PostgreSQL): db migrate applies the schema, db status shows it',
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs('db', argv, { db: { type: 'string', value: 'URL', help: 'the PostgreSQL database', fallback: '$ISOBUDGET_DATABASE_URL', example: 'postgres://postgres@127.0.0.1:5432/isobudget' } }, USAGE);
    const [action, ...extra] = positionals;
    if (action !== 'migrate' && action !== 'status') throw unknownSubcommand('db', action, ['migrate', 'status'], USAGE);
    if (extra.length > 0) throw new IsobudgetError('usage', `db ${action}: unexpected argument '${extra[0]}'`, { hint: USAGE });
    const target = databaseUrl(values.db, io.env);
    if (!target) throw new IsobudgetError('usage', `db ${action}: no database: pass --db URL or set ISOBUDGET_DATABASE_URL`, { hint: USAGE });
    const { applyMigrations, checkDatabaseUrl, describeDatabase, MIGRATIONS, openPool, probeDatabase, schemaStatus } = await import('../../db/index.js');
    checkDatabaseUrl(target.url, target.source);
    const pool = openPool(target.url, { applicationName: `isobudget db ${action}`, max: 2 });
    try {
      await probeDatabase(pool, target.url);
      const where = describeDatabase(target.url);
      if (action === 'migrate') {
        const applied = await applyMigrations(pool, MIGRATIONS);
        io.stdout.write(applied.length === 0 ? `${where}: schema is current (${MIGRATIONS.length} migrations)\n` : `${where}: applied ${applied.join(', ')}\n`);
        return EXIT.ok;
      }
      const status = await schemaStatus(pool, MIGRATIONS);
      for (const id of status.applied) io.stdout.write(`applied  ${id}${status.unknown.includes(id) ? '  (unknown to this build: newer isobudget)' : ''}\n`);
      for (const m of status.pending) io.stdout.write(`pending  ${m.id}  ${m.description}\n`);
      io.stdout.write(status.pending.length === 0 && status.unknown.length === 0 ? `${where}: schema is current\n` : `${where}: run \`isobudget db migrate\`\n`);
      return EXIT.ok;
    } finally {
      await pool.end().catch(() => {});
    }
  },
};
