/** `isobudget compare RUN_A RUN_B` — what moved between two runs on the same cases. */
import { loadRun } from '../../analysis/load-run.js';
import { applyLedgerIntegrity } from '../../verdict/integrity-rule.js';
import { compareRuns, type RunSide } from '../../compare/compare-runs.js';
import { checkDatasets } from '../../compare/dataset-check.js';
import { renderComparison } from '../../compare/render-compare.js';
import { IsobudgetError } from '../../core/errors.js';
import { findRunDir } from '../../ledger/find-run.js';
import { existsSync } from 'node:fs';
import { readJsonFile, runPaths } from '../../ledger/run-dir.js';
import type { VerdictRecord } from '../../verdict/record.js';
import { verdictForRun } from '../../verdict/verdict-for-run.js';
import { parseCommandArgs } from '../args.js';
import { DB_READ_OPTION, JSON_OPTION } from '../common-options.js';
import type { CliIO } from '../io.js';
import { requireTeamDatabase } from './team-db.js';
import { resolve } from 'node:path';
import { EXIT } from '../exit-codes.js';
import type { CommandSpec } from './spec.js';

const USAGE = `isobudget compare RUN_A RUN_B [--force] [--json] [--db URL]   (each: a run directory, a run id or its unique start, or latest; with --db: run ids in the team database)
  per arm: product pass rate (paired by case, with CI and McNemar p), pass@1, pass@N,
  tokens per case and per success, p95 latency, and the cases that flipped; both verdicts;
  the settings that changed. The runs must have the same split and dataset hashes
  (invariant 5); --force compares different datasets on the cases both runs have.`;

export const compareCommand: CommandSpec = {
  summary: 'what moved between two runs on the same cases (per arm, paired by case), and which cases flipped',
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs('compare', argv, {
      force: { type: 'boolean', help: 'compare runs on different datasets (on the cases both have)' },
      json: JSON_OPTION,
      db: { ...DB_READ_OPTION, help: 'RUN_A and RUN_B are run ids in the team database (PostgreSQL)' },
    }, USAGE);
    if (positionals.length !== 2) throw new IsobudgetError('usage', 'compare: pass two run directories, RUN_A and RUN_B', { hint: USAGE });
    const [a, b] = values.db !== undefined ? await sidesFromDatabase(values.db, positionals, io) : positionals.map((dir) => side(findRunDir(dir, { cwd: io.cwd }))) as [RunSide, RunSide];
    const datasets = checkDatasets(a.manifest, b.manifest);
    if (!datasets.same && values.force !== true) {
      const detail = datasets.differences.map((d) => `${d.name}: ${d.a ?? '(none)'} vs ${d.b ?? '(none)'}`).join('; ');
      throw new IsobudgetError('datasets_differ', `the runs did not use the same cases — ${detail}`, { hint: 'compare runs of the same split and dataset files, or pass --force to compare on the cases both have' });
    }
    const comparison = compareRuns(a, b, { forced: !datasets.same });
    io.stdout.write(values.json ? `${JSON.stringify(comparison, null, 2)}\n` : renderComparison(comparison));
    return EXIT.ok;
  },
};

/** `--db URL`: both runs from the team database (their verdicts decided now, nothing written). */
async function sidesFromDatabase(url: string, ids: readonly string[], io: CliIO): Promise<[RunSide, RunSide]> {
  const db = await requireTeamDatabase(url, io, 'compare', 4);
  try {
    const { loadRunFromDatabase } = await import('../../distributed/team-reads.js');
    const load = async (id: string): Promise<RunSide> => {
      const run = await loadRunFromDatabase(db, id, resolve(io.cwd, 'runs'));
      return { dir: run.dir, manifest: run.manifest, results: run.results, verdict: verdictForRun(run.dir, undefined, false, {}, run) };
    };
    const [a = '', b = ''] = ids;
    return [await load(a), await load(b)];
  } finally {
    await db.end().catch(() => undefined);
  }
}

function side(dir: string): RunSide {
  const run = loadRun(dir);
  const file = runPaths(dir).verdict;
  const verdict = existsSync(file) ? applyLedgerIntegrity(readJsonFile<VerdictRecord>(file, 'verdict.json'), run.integrity) : verdictForRun(dir, undefined, true, {}, run);
  return { dir, manifest: run.manifest, results: run.results, verdict };
}
