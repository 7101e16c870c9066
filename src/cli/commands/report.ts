/** `isobudget report RUN_DIR` — (re)writes the run's self-contained HTML report; optionally Markdown and JUnit. */
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { IsobudgetError } from '../../core/errors.js';
import { findRunDir } from '../../ledger/find-run.js';
import { loadReportInput } from '../../report/html/load-report-input.js';
import { writeReportFile } from '../../report/html/write-run-report.js';
import { renderJunit } from '../../report/junit.js';
import { renderMarkdownSummary } from '../../report/markdown-summary.js';
import { parseCommandArgs } from '../args.js';
import { DB_READ_OPTION, JUNIT_OPTION, MARKDOWN_OPTION } from '../common-options.js';
import { requireTeamDatabase } from './team-db.js';
import { verdictForRun } from '../../verdict/verdict-for-run.js';
import { EXIT } from '../exit-codes.js';
import type { CommandSpec } from './spec.js';

const USAGE = `isobudget report RUN_DIR|ID|latest [--out FILE] [--markdown] [--junit FILE]
  writes RUN_DIR/report.html (or --out FILE): one self-contained file, no network, printable.
  Uses RUN_DIR/verdict.json (decided now if missing); --markdown prints the CI summary;
  --junit FILE writes the gate as JUnit XML.
isobudget report RUN_ID --db URL [--out FILE] [--markdown] [--junit FILE]   a run in the team database (default --out RUN_ID-report.html)`;

export const reportCommand: CommandSpec = {
  summary: 'write the HTML report of a run (verdict, pass rate vs tokens, arms, categories, regressions, cases)',
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs('report', argv, {
      out: { type: 'string', value: 'FILE', help: 'write the report here', fallback: 'RUN_DIR/report.html', example: 'report.html' },
      markdown: MARKDOWN_OPTION,
      junit: JUNIT_OPTION,
      db: DB_READ_OPTION,
    }, USAGE);
    const dir = positionals[0];
    if (!dir || positionals.length > 1) throw new IsobudgetError('usage', 'report: pass one RUN_DIR', { hint: USAGE });
    let input: ReturnType<typeof loadReportInput>;
    let file: string;
    if (values.db !== undefined) {
      const db = await requireTeamDatabase(values.db, io, 'report', 4);
      try {
        const { loadRunFromDatabase } = await import('../../distributed/team-reads.js');
        const run = await loadRunFromDatabase(db, dir, resolve(io.cwd, 'runs'));
        input = loadReportInput(run.dir, verdictForRun(run.dir, undefined, false, {}, run), new Date(), run);
        file = resolve(io.cwd, values.out ?? `${dir}-report.html`);
      } finally {
        await db.end().catch(() => undefined);
      }
    } else {
      const runDir = findRunDir(dir, { cwd: io.cwd });
      input = loadReportInput(runDir);
      file = values.out === undefined ? join(runDir, 'report.html') : resolve(io.cwd, values.out);
    }
    const written = await writeReportFile(file, input);
    for (const warning of written.warnings) io.stderr.write(`warning: chart: ${warning}\n`);
    if (values.junit !== undefined) writeFileSync(resolve(io.cwd, values.junit), renderJunit(input.verdict));
    if (values.markdown) io.stdout.write(renderMarkdownSummary(input.verdict, { configPath: input.manifest?.config_path }));
    else io.stdout.write(`report: ${written.file} (${(written.bytes / 1024).toFixed(0)} KiB) — ${input.verdict.verdict}\n`);
    return EXIT.ok;
  },
};

