/** The evolution loops the Evolve screen lists: `evolve/<id>/summary.json` and `lineage.json`, read-only. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loopPaths } from '../evolve/layout.js';
import type { EvolveSummary } from '../evolve/summary.js';
import type { LineageEntry } from '../evolve/types.js';

export type LoopLoad = { ok: true; id: string; summary: EvolveSummary; lineage: LineageEntry[] } | { ok: false; id: string; broken: string };

export function listLoops(evolveDir: string): LoopLoad[] {
  let names: string[];
  try {
    names = readdirSync(evolveDir, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort().reverse();
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    const loop = readLoop(evolveDir, name);
    return loop ? [loop] : [];
  });
}

export function readLoop(evolveDir: string, id: string): LoopLoad | undefined {
  if (id.includes('/') || id.includes('\\') || id === '.' || id === '..') return undefined;
  const paths = loopPaths(join(evolveDir, id));
  let summaryText: string;
  try {
    summaryText = readFileSync(paths.summary, 'utf8');
  } catch {
    return undefined;
  }
  try {
    const summary = JSON.parse(summaryText) as EvolveSummary;
    let lineage: LineageEntry[] = [];
    try {
      lineage = JSON.parse(readFileSync(paths.lineage, 'utf8')) as LineageEntry[];
    } catch {
      lineage = [];
    }
    return { ok: true, id, summary, lineage };
  } catch (error) {
    return { ok: false, id, broken: `summary.json does not parse: ${error instanceof Error ? error.message : String(error)}` };
  }
}
