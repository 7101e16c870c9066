/**
 * Options several commands share, with their help (one definition, one wording). Imports
 * nothing heavy: every command loads this (the store default is memory/store/open.ts's, checked by a test).
 */
import type { BooleanOption, StringOption } from './args.js';

export const JSON_OPTION = { type: 'boolean', help: 'print JSON instead of text' } as const satisfies BooleanOption;
export const QUIET_OPTION = { type: 'boolean', help: 'no progress on stderr, only the result' } as const satisfies BooleanOption;
export const GATE_OPTION = { type: 'boolean', help: 'make the decision the exit code (see Exit codes in the README)' } as const satisfies BooleanOption;
export const MARKDOWN_OPTION = { type: 'boolean', help: 'print the Markdown summary for a CI job page' } as const satisfies BooleanOption;
export const NO_REPORT_OPTION = { type: 'boolean', help: 'do not write report.html' } as const satisfies BooleanOption;
export const JUNIT_OPTION = { type: 'string', value: 'FILE', help: 'also write the gate as JUnit XML', example: 'junit.xml' } as const satisfies StringOption;
export const PRICING_OPTION = { type: 'string', value: 'FILE', help: 'model → USD per million tokens (YAML/JSON, like the config\'s pricing:), over the dated defaults', fallback: 'the dated default prices', example: 'prices.yaml' } as const satisfies StringOption;
export const RUNS_OUT_OPTION = { type: 'string', value: 'DIR', help: 'the runs folder', fallback: 'runs', example: 'runs-ci' } as const satisfies StringOption;
export const STORE_OPTION = { type: 'string', value: 'PATH', help: 'the memory store (SQLite file)', fallback: '.isobudget/memory.sqlite', example: 'team/memory.sqlite' } as const satisfies StringOption;
export const SEED_OPTION = { type: 'string', value: 'S', help: 'random seed (same seed, same result)', example: '7' } as const satisfies StringOption;
export const NOTE_OPTION = { type: 'string', value: 'TEXT', help: 'a note recorded with the decision', example: 'superseded by v4' } as const satisfies StringOption;
export const REVIEWER_OPTION = { type: 'string', value: 'NAME', help: 'who decides (recorded)', fallback: 'your user name', example: 'alice' } as const satisfies StringOption;
export const SKILLS_DIR_OPTION = { type: 'string', value: 'DIR', help: 'also write the skill files to this folder', example: 'skills' } as const satisfies StringOption;
/** `--db URL` where the environment variable switches it on too (worker, runs wait, memory, review, gate, run --distributed). */
export const DB_OPTION = { type: 'string', value: 'URL', help: 'the team database (PostgreSQL)', fallback: '$ISOBUDGET_DATABASE_URL', example: 'postgres://postgres@127.0.0.1:5432/isobudget' } as const satisfies StringOption;
/** `--db URL` on a read of runs (analyze, report, compare, audit, runs list): only the flag, since RUN may be a local folder. */
export const DB_READ_OPTION = { type: 'string', value: 'URL', help: 'read the run(s) from the team database (PostgreSQL) instead of local files', example: 'postgres://postgres@127.0.0.1:5432/isobudget' } as const satisfies StringOption;
