/**
 * Every Postgres migration, in the order they apply. Each lives in its own file under this
 * folder (`0001-….ts`), is never edited once shipped, and is appended here.
 */
import type { Migration } from '../spec.js';
import { RUNS_MIGRATION } from './0001-runs.js';
import { GATEWAY_MIGRATION } from './0002-gateway.js';
import { WORKERS_MIGRATION } from './0003-workers.js';
import { WORKER_DEATHS_MIGRATION } from './0004-worker-deaths.js';
import { CALL_TOTALS_MIGRATION } from './0005-call-totals.js';
import { RESULTS_TS_MIGRATION } from './0006-results-ts.js';

export const MIGRATIONS: readonly Migration[] = [RUNS_MIGRATION, GATEWAY_MIGRATION, WORKERS_MIGRATION, WORKER_DEATHS_MIGRATION, CALL_TOTALS_MIGRATION, RESULTS_TS_MIGRATION];
