/**
 * `kill -9` while calls are in flight: an upstream on 127.0.0.1 counts every request it sees;
 * after the resumed run completes, the manifest's call counts cover every one of them (the
 * calls of the crashed attempt are booked as spent-but-unused, those in flight with unknown
 * outcome), and the ledger files agree with the manifest.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { readJsonl } from '../src/ledger/jsonl-reader.js';
import type { CallCounts, Manifest } from '../src/ledger/manifest.js';
import type { CallRecord, ResultRecord } from '../src/ledger/records.js';
import { startSimServer, type SimServer } from '../src/providers/sim/index.js';
import { runCli } from './support/cli.js';
import { writeExperiment } from './support/experiment.js';

let upstream: SimServer;
beforeAll(async () => {
  // Slow enough that a kill always finds calls in flight.
  upstream = await startSimServer({ seed: 3, latencyScale: 0.6 });
});
afterAll(async () => {
  await upstream.close();
});

test('kill -9 mid-flight, then --resume: the manifest counts every request the upstream saw', async () => {
  const experiment = writeExperiment({ provider: `{ protocol: openai-chat, base_url: "${upstream.url}/v1" }`, cases: 24, extra: 'n_mode: parallel' });
  const runDir = join(experiment.runsDir, 'crashed');
  const results = join(runDir, 'results.jsonl');
  const killed = await runCli(['run', experiment.configPath, '--out', experiment.runsDir, '--run-id', 'crashed', '--quiet', '--concurrency', '8'], {
    onSpawn: (child) => {
      const timer = setInterval(() => {
        const committed = existsSync(results) ? readFileSync(results, 'utf8').split('\n').length - 1 : 0;
        if (committed >= 12) {
          clearInterval(timer);
          child.kill('SIGKILL');
        }
      }, 5);
    },
  });
  expect(killed.signal).toBe('SIGKILL');
  // Requests already sent are still arriving; the count settles once they are all in.
  await new Promise((resolve) => setTimeout(resolve, 300));
  const seenBeforeResume = upstream.stats.requests;
  const committedBefore = readJsonl<CallRecord>(join(runDir, 'calls.jsonl')).records.length;
  // Calls the crashed process made beyond those of committed units: what the ledger used to lose.
  expect(seenBeforeResume).toBeGreaterThan(committedBefore);

  const resumed = await runCli(['run', '--resume', runDir, '--quiet', '--concurrency', '8']);
  expect(resumed.code, resumed.stderr).toBe(0);
  const seen = upstream.stats.requests;

  const manifest = JSON.parse(readFileSync(join(runDir, 'manifest.json'), 'utf8')) as Manifest;
  const counts = manifest.calls as CallCounts;
  expect(manifest.status).toBe('complete');
  expect(readJsonl<ResultRecord>(results).records).toHaveLength(24 * 4);
  // The manifest agrees with the files…
  const calls = readJsonl<CallRecord>(join(runDir, 'calls.jsonl')).records;
  const aside = readJsonl<CallRecord>(join(runDir, 'interrupted-calls.jsonl')).records;
  expect(counts.committed).toBe(calls.length);
  expect(counts.spent_unused).toBe(aside.length);
  expect(counts.outcome_unknown).toBe(aside.filter((c) => c.note === 'outcome_unknown').length);
  expect(counts.outcome_unknown).toBeGreaterThan(0);
  expect(counts.outcome_unknown_max_tokens).toBeGreaterThan(0);
  // …and covers every request the upstream saw: at most the few intents written by calls the
  // kill stopped before their request left (≤ one per call slot) are extra.
  expect(counts.committed + counts.spent_unused).toBeGreaterThanOrEqual(seen);
  expect(counts.committed + counts.spent_unused).toBeLessThanOrEqual(seen + 8);
  // No call id twice across the two files; the intents file is empty once all are accounted for.
  const ids = [...calls, ...aside].map((c) => c.call_id);
  expect(new Set(ids).size).toBe(ids.length);
  expect(readFileSync(join(runDir, 'call-intents.jsonl'), 'utf8')).toBe('');
});
