/**
 * `evolve --limit N` (issue 25, item 3): a cheap trial of the loop — every val screening run
 * takes the first N val cases and is marked partial; diagnosis on train is unchanged.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { runCli } from './support/cli.js';
import { caseIds, copyEvolveExample, loopLedgers } from './support/evolve.js';

function manifests(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return manifests(path);
    return name === 'manifest.json' ? [path] : [];
  });
}

test('evolve --limit 6: the val screens run the first 6 val cases, marked partial', async () => {
  const dir = copyEvolveExample();
  const run = await runCli(['evolve', 'experiment.yaml', '--limit', '6', '--rounds', '1', '--id', 'trial', '--store', 'memory.sqlite', '--sim-latency-scale', '0', '--quiet'], { cwd: dir });
  expect([0, 10], run.stderr).toContain(run.code);
  const loop = join(dir, 'evolve', 'trial');
  const screens = manifests(loop)
    .map((file) => JSON.parse(readFileSync(file, 'utf8')) as { split: string; partial?: { cases: number; of: number } })
    .filter((m) => m.split === 'val');
  expect(screens.length).toBeGreaterThan(0);
  const valSize = caseIds(join(dir, 'data', 'val.jsonl')).size;
  for (const manifest of screens) expect(manifest.partial).toEqual({ selection: '--limit 6', cases: 6, of: valSize });
  const first6 = [...caseIds(join(dir, 'data', 'val.jsonl'))].slice(0, 6);
  const valCases = new Set(loopLedgers(loop).results.filter((r) => r.split === 'val').map((r) => r.case_id));
  expect([...valCases].sort()).toEqual([...first6].sort());
});
