/** What the `memory` actions share: usage text, common options, the action signature. */
import { DEFAULT_STORE_PATH } from '../../memory/store/open.js';
import type { MemoryStore } from '../../memory/store/spec.js';
import type { Options } from '../args.js';
import { DB_OPTION, STORE_OPTION } from '../common-options.js';
import type { CliIO } from '../io.js';

export const MEMORY_USAGE = `isobudget memory ingest RUN_DIR|ID|latest...        verdicts → skill_candidate / negative_pattern; others → evidence on the candidate's records, or a new learning
isobudget memory import-learnings DIR [--from-run RUN_DIR|ID|latest] [--run ID --base-url URL --model M --budget B --n N --verdict V]
isobudget memory search [WORDS...] [--type T] [--all] [--limit N] [--json]
isobudget memory export [WORDS...] [--skills DIR] [--json]   active records by weight, negative patterns first
isobudget memory show MEMORY_ID [--diff] [--json]
isobudget memory conflicts [--json]
isobudget memory decay [--apply]
isobudget memory rollback MEMORY_ID [--to VERSION] [--note TEXT] [--reviewer NAME] [--skills DIR]
isobudget memory retire MEMORY_ID [--note TEXT] [--reviewer NAME]
isobudget memory config [--half-life-days N] [--retire-below X] [--freeze-below X] [--penalty X] [--learning-weight X]
every action takes --store PATH (default ${DEFAULT_STORE_PATH}) or --db URL (the team database; default with $ISOBUDGET_DATABASE_URL)`;

export interface MemoryDeps {
  now: () => Date;
}

export type MemoryAction = (argv: string[], io: CliIO, context: { deps: MemoryDeps; open: (path: string | undefined) => MemoryStore }) => Promise<number>;

/** Options every action accepts. */
/** `--db URL`: the team database's store instead of the SQLite file (see governanceStoreOpener). */
export const COMMON = { store: STORE_OPTION, db: { ...DB_OPTION, help: 'the memory store in the team database (PostgreSQL) instead of the SQLite file' } } as const satisfies Options;

