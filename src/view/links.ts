/**
 * Where each screen lives. The server's URLs (shareable, reloadable) and the static
 * bundle's file names come from one interface, so a page renders the same in both.
 */
import { createHash } from 'node:crypto';
import type { GridQuery } from './case-grid.js';

export interface Links {
  readonly mode: 'live' | 'bundle';
  runs(): string;
  run(runId: string, query?: Partial<GridQuery>): string;
  caseOf(runId: string, caseId: string, split: string): string;
  /** The run's per-case results as CSV (one row per case × arm × epoch). */
  csv(runId: string): string;
  /** Undefined in the bundle: comparing any two runs needs the server. */
  compare(a?: string, b?: string): string | undefined;
  review(): string;
  memory(memoryId?: string): string;
  evolve(loopId?: string): string;
  spend(): string;
}

const enc = encodeURIComponent;

export const liveLinks: Links = {
  mode: 'live',
  runs: () => '/',
  run: (runId, query) => `/runs/${enc(runId)}${gridSearch(query)}`,
  caseOf: (runId, caseId, split) => `/runs/${enc(runId)}/cases/${enc(caseId)}?split=${enc(split)}`,
  csv: (runId) => `/runs/${enc(runId)}/results.csv`,
  compare: (a, b) => `/compare${a === undefined ? '' : `?a=${enc(a)}${b === undefined ? '' : `&b=${enc(b)}`}`}`,
  review: () => '/review',
  memory: (memoryId) => (memoryId === undefined ? '/memory' : `/memory/${enc(memoryId)}`),
  evolve: (loopId) => (loopId === undefined ? '/evolve' : `/evolve/${enc(loopId)}`),
  spend: () => '/spend',
};

function gridSearch(query: Partial<GridQuery> | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  if (query.filter && query.filter !== 'all') params.set('filter', query.filter);
  if (query.search) params.set('q', query.search);
  if (query.page) params.set('page', String(query.page + 1));
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** A file name for any id: plain ids stay readable, anything else becomes a hash (no path can be smuggled in). */
export function fileSlug(id: string): string {
  const plain = /^[A-Za-z0-9][A-Za-z0-9._-]{0,80}$/.test(id) && !id.includes('..');
  return plain ? id : `h-${createHash('sha256').update(id).digest('hex').slice(0, 16)}`;
}

/** Every page of the bundle sits in one folder: links are bare file names, so it opens from file:// or any static host. */
export const bundleLinks: Links = {
  mode: 'bundle',
  runs: () => 'index.html',
  run: (runId) => `run-${fileSlug(runId)}.html`,
  caseOf: (runId, caseId, split) => `case-${fileSlug(runId)}-${createHash('sha256').update(`${split}\u0000${caseId}`).digest('hex').slice(0, 16)}.html`,
  csv: (runId) => `run-${fileSlug(runId)}.csv`,
  compare: () => undefined,
  review: () => 'review.html',
  memory: (memoryId) => (memoryId === undefined ? 'memory.html' : `memory-${fileSlug(memoryId)}.html`),
  evolve: (loopId) => (loopId === undefined ? 'evolve.html' : `evolve-${fileSlug(loopId)}.html`),
  spend: () => 'spend.html',
};
