/**
 * 0004: poison units. A unit counts the deaths of the workers that held it (`worker_deaths`:
 * its lease lapsed because its worker went silent — kill -9, out of memory, a segfault); a
 * run says how many it takes (`max_worker_deaths`, `run --distributed --max-worker-deaths N`)
 * before such a unit goes to the dead letters (`failed`) instead of taking down the next
 * worker. `runs requeue ID --failed` starts its count over.
 */
import type { Migration } from '../spec.js';

export const WORKER_DEATHS_MIGRATION: Migration = {
  id: '0004-worker-deaths',
  description: 'per unit, the deaths of workers that held it; per run, how many make a unit failed',
  sql: `
ALTER TABLE units ADD COLUMN worker_deaths INTEGER NOT NULL DEFAULT 0;
ALTER TABLE runs ADD COLUMN max_worker_deaths INTEGER NOT NULL DEFAULT 3 CHECK (max_worker_deaths >= 1);
`,
};
