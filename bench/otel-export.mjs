#!/usr/bin/env node
/**
 * OpenTelemetry export (issue 22): `run` of examples/date-parser (880 units, embedded
 * simulator, no latency) without a collector, streaming to a local OTLP/HTTP receiver, and
 * streaming to one that never answers; then `export otel` of the finished run. Wall times
 * and span counts; writes bench/out/otel-export.json. The receiver counts requests and bytes
 * (the tests decode them).
 *
 *   node bench/otel-export.mjs [--repeat 3]
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const BIN = join(root, 'dist/cli/bin.js');
const { values } = parseArgs({ options: { repeat: { type: 'string', default: '3' } } });
const repeat = Math.max(1, Number(values.repeat));

function cli(args, env = {}) {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(process.execPath, [BIN, ...args], { cwd: root, env: { PATH: process.env.PATH, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('close', (code) => resolve({ code, stdout, stderr, ms: performance.now() - started }));
  });
}

async function receiver(mode) {
  const state = { requests: 0, bytes: 0, hung: [] };
  const server = createServer((request, response) => {
    request.on('data', (c) => (state.bytes += c.length));
    request.on('end', () => {
      state.requests += 1;
      if (mode === 'hang') state.hung.push(response);
      else response.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${server.address().port}`;
  state.close = () => new Promise((resolve) => {
    for (const r of state.hung) r.destroy();
    server.closeAllConnections();
    server.close(resolve);
  });
  return state;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const out = mkdtempSync(join(tmpdir(), 'isobudget-bench-otel-'));
const run = (extra) => cli(['run', 'examples/date-parser/experiment.yaml', '--out', out, '--no-report', '--quiet', '--sim-latency-scale', '0', ...extra]);
const figures = { plain: [], streaming: [], hanging: [], export: [] };
let last;
for (let i = 0; i < repeat; i += 1) {
  const plain = await run([]);
  figures.plain.push(plain.ms);
  const ok = await receiver('ok');
  const streamed = await run(['--otel-endpoint', ok.url]);
  figures.streaming.push(streamed.ms);
  last = { streamed: /otel: .*/.exec(streamed.stderr)?.[0], requests: ok.requests, bytes: ok.bytes };
  await ok.close();
  const hang = await receiver('hang');
  const stuck = await run(['--otel-endpoint', hang.url]);
  figures.hanging.push(stuck.ms);
  last.hanging = /otel: .*/.exec(stuck.stderr)?.[0];
  await hang.close();
  const dir = /ledger: (\S+)/.exec(plain.stdout)?.[1];
  const sink = await receiver('ok');
  const exported = await cli(['export', 'otel', dir, '--endpoint', sink.url]);
  figures.export.push(exported.ms);
  last.export = exported.stdout.trim();
  await sink.close();
}
const summary = {
  repeat,
  run_ms_median: { plain: Math.round(median(figures.plain)), streaming: Math.round(median(figures.streaming)), collector_hanging: Math.round(median(figures.hanging)) },
  export_ms_median: Math.round(median(figures.export)),
  last,
  all_ms: figures,
};
console.log(`run date-parser (median of ${repeat}): ${summary.run_ms_median.plain} ms plain, ${summary.run_ms_median.streaming} ms streaming to a local collector, ${summary.run_ms_median.collector_hanging} ms with a collector that never answers`);
console.log(`  ${last.streamed}\n  hanging: ${last.hanging}`);
console.log(`export otel of the same run: ${summary.export_ms_median} ms — ${last.export}`);
mkdirSync(join(here, 'out'), { recursive: true });
writeFileSync(join(here, 'out', 'otel-export.json'), `${JSON.stringify(summary, null, 2)}\n`);
