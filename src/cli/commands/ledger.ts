/** `isobudget ledger index|show RUN_DIR` — rebuild the SQLite index; a quick look at a run. */
import Database from 'better-sqlite3';
import { IsobudgetError } from '../../core/errors.js';
import { findRunDir } from '../../ledger/find-run.js';
import { loadRun } from '../../analysis/load-run.js';
import { armMetrics } from '../../analysis/arm-metrics.js';
import { renderArmTable } from '../../report/arm-table.js';
import { runPaths } from '../../ledger/run-dir.js';
import { buildSqliteIndex } from '../../ledger/sqlite-index.js';
import { parseCommandArgs, unknownSubcommand } from '../args.js';
import { EXIT } from '../exit-codes.js';
import { terminalColumns } from '../io.js';
import type { CommandSpec } from './spec.js';

const USAGE = 'isobudget ledger index RUN_DIR | isobudget ledger show RUN_DIR   (RUN_DIR: a directory, a run id or its unique start, or latest)';

export const ledgerCommand: CommandSpec = {
  summary: 'ledger index RUN_DIR (rebuild the SQLite index) | ledger show RUN_DIR (a quick look)',
  async run(argv, io) {
    const { positionals } = parseCommandArgs('ledger', argv, {}, USAGE);
    const [action, dirArg] = positionals;
    if (action !== 'index' && action !== 'show') throw unknownSubcommand('ledger', action, ['index', 'show'], USAGE);
    if (!dirArg) throw new IsobudgetError('usage', `ledger ${action}: missing RUN_DIR`, { hint: USAGE });
    const dir = findRunDir(dirArg, { cwd: io.cwd });
    if (action === 'index') {
      const summary = buildSqliteIndex(runPaths(dir));
      io.stdout.write(`indexed ${summary.calls} calls and ${summary.results} results into ${summary.file}\n`);
      return EXIT.ok;
    }
    const run = loadRun(dir);
    const summary = buildSqliteIndex(runPaths(dir));
    const db = new Database(summary.file, { readonly: true });
    try {
      const byRole = db.prepare('SELECT role, COUNT(*) AS calls, SUM(total_tokens) AS tokens, SUM(usage_missing) AS missing, SUM(error IS NOT NULL) AS failed FROM calls GROUP BY role').all() as Array<{ role: string; calls: number; tokens: number | null; missing: number; failed: number }>;
      io.stdout.write(`run ${run.manifest.run_id} (${run.manifest.status}) — ${run.manifest.experiment}, split ${run.manifest.split}\n`);
      for (const row of byRole) io.stdout.write(`  ${row.role}: ${row.calls} calls, ${row.tokens ?? 0} tokens billed, ${row.failed} failed attempts, ${row.missing} without usage\n`);
      for (const warning of run.manifest.warnings) io.stdout.write(`  warning: ${warning}\n`);
      for (const event of run.manifest.events) io.stdout.write(`  event ${event.ts}: ${event.message}\n`);
      io.stdout.write(`\n${renderArmTable(armMetrics(run.results.filter((r) => r.split !== 'regression')), terminalColumns(io.stdout))}`);
    } finally {
      db.close();
    }
    return EXIT.ok;
  },
};
