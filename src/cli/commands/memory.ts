/**
 * `isobudget memory <action>` — the governed memory store (DESIGN §7): ingest verdicts and
 * `.learnings/` notes, search and export by weight (negative patterns first), show history
 * and diffs, list conflicts, decay, roll back, retire, configure forgetting.
 */
import { resolve } from 'node:path';
import { IsobudgetError } from '../../core/errors.js';
import { findRunDir } from '../../ledger/find-run.js';
import { importLearnings, provenanceFromRun } from '../../memory/import-learnings.js';
import { ingestRun, ingestRunDir, loadRunForMemory, type LoadedRun } from '../../memory/ingest-run.js';
import { verdictForRun } from '../../verdict/verdict-for-run.js';
import type { CliIO } from '../io.js';
import type { Provenance } from '../../memory/record.js';
import { governanceStoreOpener, requireTeamDatabase } from './team-db.js';
import { intOption, parseCommandArgs, unknownSubcommand } from '../args.js';
import { EXIT } from '../exit-codes.js';
import { adminActions } from './memory-admin.js';
import { COMMON, MEMORY_USAGE, type MemoryAction, type MemoryDeps } from './memory-common.js';
import { readActions } from './memory-read.js';
import type { CommandSpec } from './spec.js';

const ingest: MemoryAction = async (argv, io, { deps, open }) => {
  const { values, positionals } = parseCommandArgs('memory ingest', argv, COMMON, MEMORY_USAGE);
  if (positionals.length === 0) throw new IsobudgetError('usage', 'memory ingest: pass one or more RUN_DIRs', { hint: MEMORY_USAGE });
  const store = open(values.store);
  try {
    for (const dir of positionals) {
      const local = localRunDir(dir, io.cwd, values.db !== undefined);
      const result = local !== undefined ? await ingestRunDir(local, store, deps.now()) : await ingestRun(await runFromDatabase(dir, values.db as string, io), store, deps.now());
      io.stdout.write(`${result.facts.run_id} (${result.facts.split}, ${result.facts.verdict}, candidate ${result.facts.candidate_id}):\n`);
      for (const message of result.messages) io.stdout.write(`  ${message}\n`);
    }
  } finally {
    store.close();
  }
  return EXIT.ok;
};

/** The run's local directory; with --db, undefined when there is none (the team database has it). */
function localRunDir(ref: string, cwd: string, database: boolean): string | undefined {
  try {
    return findRunDir(ref, { cwd });
  } catch (error) {
    if (database) return undefined;
    throw error;
  }
}

/** `memory ingest RUN_ID --db URL` on a machine without the run's files: the run as the team database holds it. */
async function runFromDatabase(runId: string, url: string, io: CliIO): Promise<LoadedRun> {
  const db = await requireTeamDatabase(url, io, 'memory ingest', 4);
  try {
    const { loadRunFromDatabase } = await import('../../distributed/team-reads.js');
    const run = await loadRunFromDatabase(db, runId, resolve(io.cwd, 'runs'));
    if (run.manifest.status !== 'complete') throw new IsobudgetError('run_incomplete', `run ${runId} is ${run.manifest.status}: only finished runs become memory`, { hint: `finish it first: isobudget runs wait ${runId} --db URL` });
    return { dir: run.dir, manifest: run.manifest, verdict: verdictForRun(run.dir, undefined, false, {}, run) };
  } finally {
    await db.end().catch(() => undefined);
  }
}

const importNotes: MemoryAction = async (argv, io, { deps, open }) => {
  const { values, positionals } = parseCommandArgs('memory import-learnings', argv, {
    ...COMMON,
    'from-run': { type: 'string', value: 'RUN', help: 'take the provenance (run, base URL, model, budget, n, verdict) from this run', example: 'latest' },
    run: { type: 'string', value: 'ID', help: 'provenance: the run the notes come from', example: 'bf-20261201-135117-4b36' },
    'base-url': { type: 'string', value: 'URL', help: 'provenance: the API the notes were learned against', example: 'https://api.openai.com/v1' },
    model: { type: 'string', value: 'MODEL', help: 'provenance: the model', example: 'gpt-5-mini' },
    budget: { type: 'string', value: 'B', help: 'provenance: the budget B per case (tokens)', example: '200000' },
    n: { type: 'string', value: 'N', help: 'provenance: the Best-of-N the notes were learned at', example: '1' },
    verdict: { type: 'string', value: 'V', help: 'provenance: the verdict of that run', example: 'real_evolution' },
  } as const, MEMORY_USAGE);
  const dir = positionals[0];
  if (!dir) throw new IsobudgetError('usage', 'memory import-learnings: pass the .learnings/ folder (or the directory holding it)', { hint: MEMORY_USAGE });
  const fromRun = values['from-run'] === undefined ? {} : provenanceFromRun(loadRunForMemory(findRunDir(values['from-run'], { cwd: io.cwd })));
  const flags: Partial<Provenance> = {};
  const put = <K extends keyof Provenance>(key: K, value: Provenance[K] | undefined): void => {
    if (value !== undefined) flags[key] = value;
  };
  put('source_run', values.run);
  put('base_url', values['base-url']);
  put('model', values.model);
  put('budget', intOption('budget', values.budget));
  put('n', intOption('n', values.n));
  put('verdict', values.verdict);
  const store = open(values.store);
  try {
    const plan = await importLearnings(resolve(io.cwd, dir), { ...fromRun, ...flags }, store, deps.now());
    for (const message of plan.messages) io.stdout.write(`${message}\n`);
    for (const refused of plan.refused) io.stderr.write(`refused: ${refused.message}\n`);
    if (plan.reviewItems.length > 0) io.stdout.write(`${plan.reviewItems.length} rule-level write(s) queued for review: isobudget review\n`);
    return plan.refused.length > 0 ? EXIT.usage : EXIT.ok;
  } finally {
    store.close();
  }
};

export function createMemoryCommand(deps: MemoryDeps): CommandSpec {
  const actions: Record<string, MemoryAction> = { ingest, 'import-learnings': importNotes, ...readActions, ...adminActions };
  return {
    summary: 'governed memory: ingest verdicts and .learnings/, search/export (negative patterns first), history, conflicts, decay, rollback',
    async run(argv, io) {
      const [action, ...rest] = argv;
      // An action's own --help lists its options (parseCommandArgs); the bare command lists the actions.
      if (action === undefined || action === '--help' || action === '-h' || (!Object.hasOwn(actions, action) && (rest.includes('--help') || rest.includes('-h')))) {
        io.stdout.write(`${MEMORY_USAGE}\n`);
        return action === undefined ? EXIT.usage : EXIT.ok;
      }
      const run = Object.hasOwn(actions, action) ? actions[action] : undefined;
      if (!run) throw unknownSubcommand('memory', action, Object.keys(actions), MEMORY_USAGE);
      const open = await governanceStoreOpener(rest, io, `memory ${action}`);
      return run(rest, io, { deps, open });
    },
  };
}

export const memoryCommand = createMemoryCommand({ now: () => new Date() });
