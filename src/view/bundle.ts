/**
 * `view --bundle OUT_DIR`: the same screens as static files in one folder (read-only: no
 * review actions, no live progress), which open from file:// or any static host. Every page
 * is rendered by the same ViewApp as the server's, with file-name links.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { listLoops } from './evolve-source.js';
import { bundleLinks } from './links.js';
import type { RunSource } from './run-source.js';
import type { ViewApp } from './view-app.js';

export interface BundleResult {
  dir: string;
  files: number;
  runs: number;
  cases: number;
}

export async function writeBundle(app: ViewApp, runs: RunSource, evolveDir: string, outDir: string, memoryIds: readonly string[]): Promise<BundleResult> {
  mkdirSync(outDir, { recursive: true });
  const links = bundleLinks;
  let files = 0;
  let cases = 0;
  const write = (name: string, html: string): void => {
    writeFileSync(join(outDir, name), html);
    files += 1;
  };
  write(links.runs(), app.runsScreen(new URLSearchParams(), links).html);
  const listed = runs.list();
  for (const row of listed) {
    const load = runs.load(row.id);
    if (!load?.ok) continue;
    write(links.run(row.id), (await app.runScreenAll(load.run, links)).html);
    write(links.csv(row.id), app.csv(row.id) ?? '');
    for (const gridRow of load.run.rows) {
      write(links.caseOf(row.id, gridRow.caseId, gridRow.split), app.caseScreen(row.id, gridRow.caseId, gridRow.split, links).html);
      cases += 1;
    }
  }
  write(links.review(), (await app.reviewScreen(links, undefined)).html);
  write(links.memory(), (await app.memoryScreen(undefined, links)).html);
  for (const id of memoryIds) write(links.memory(id), (await app.memoryScreen(id, links)).html);
  write(links.evolve(), (await app.evolveScreen(undefined, links)).html);
  for (const loop of listLoops(evolveDir)) write(links.evolve(loop.id), (await app.evolveScreen(loop.id, links)).html);
  write(links.spend(), app.spendScreen(links).html);
  return { dir: outDir, files, runs: listed.length, cases };
}
