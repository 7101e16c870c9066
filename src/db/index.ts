export { checkDatabaseUrl, describeDatabase, openPool, probeDatabase, type PoolOptions } from './connect.js';
export { applyMigrations, requireCurrentSchema, schemaStatus, type SchemaStatus } from './migrate.js';
export { MIGRATIONS } from './migrations/index.js';
export { openDatabase } from './open.js';
export type { Database, Migration } from './spec.js';
