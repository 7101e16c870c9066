/** `keepResults: false` (what the CLI runs with): the ledger has every result, memory none. */
import { expect, test } from 'vitest';
import { readJsonl } from '../src/ledger/jsonl-reader.js';
import type { ResultRecord } from '../src/ledger/records.js';
import { runPaths } from '../src/ledger/run-dir.js';
import { runExperiment } from '../src/runner/run-experiment.js';
import { writeExperiment } from './support/experiment.js';

test('results stream to results.jsonl only; the count of committed units is still returned', async () => {
  const experiment = writeExperiment({ provider: '{ protocol: sim }', cases: 6 });
  const kept = await runExperiment({ configPath: experiment.configPath, outDir: experiment.runsDir, env: {}, runId: 'kept' });
  const streamed = await runExperiment({ configPath: experiment.configPath, outDir: experiment.runsDir, env: {}, runId: 'streamed', keepResults: false });
  expect(streamed.results).toEqual([]);
  expect(streamed.unitsCommitted).toBe(streamed.manifest.units_planned);
  expect(kept.unitsCommitted).toBe(kept.results.length);
  const onDisk = readJsonl<ResultRecord>(runPaths(streamed.runDir).results).records;
  expect(onDisk).toHaveLength(streamed.manifest.units_planned);
  // Same seed, same simulator: the streamed run's ledger holds what the kept run returned.
  const key = (r: ResultRecord): string => `${r.case_id}|${r.arm}|${r.epoch}|${r.passed}|${r.total_tokens}`;
  expect(onDisk.map(key).sort()).toEqual(kept.results.map(key).sort());
});
