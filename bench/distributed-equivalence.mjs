#!/usr/bin/env node
/**
 * The date-parser example, whole: embedded run vs `--distributed` with 3 worker processes.
 * Checks every unit's result record is identical (timing fields `ts`, `latency_ms` and the
 * run id aside) and the verdicts agree.
 *
 *   node bench/distributed-equivalence.mjs [--workers 3]
 *
 * Writes bench/out/distributed-equivalence.json; exit 1 when a unit or the verdict differs.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { freshSchema, mustRun, ROOT } from './support/team-db.mjs';

const { values } = parseArgs({ options: { workers: { type: 'string', default: '3' } } });
const dir = mkdtempSync(join(tmpdir(), 'isobudget-equiv-'));
cpSync(join(ROOT, 'examples', 'date-parser'), join(dir, 'date-parser'), { recursive: true });
const canon = (v) => (Array.isArray(v) ? v.map(canon) : v && typeof v === 'object' ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, canon(v[k])])) : v);
const results = (id) => new Map(readFileSync(join(dir, 'runs', id, 'results.jsonl'), 'utf8').trim().split('\n').map((line) => {
  const { ts, latency_ms, run_id, ...rest } = JSON.parse(line);
  return [`${rest.split}|${rest.case_id}|${rest.arm}|${rest.epoch}`, JSON.stringify(canon(rest))];
}));
const db = await freshSchema('bench_eq');
let out;
try {
  const embedded = JSON.parse((await mustRun(['run', 'date-parser/experiment.yaml', '--run-id', 'emb', '--json', '--no-report'], { cwd: dir })).stdout);
  await mustRun(['db', 'migrate', '--db', db.url], { cwd: dir });
  await mustRun(['run', 'date-parser/experiment.yaml', '--db', db.url, '--distributed', '--detach', '--run-id', 'dist'], { cwd: dir });
  const fleet = Array.from({ length: Number(values.workers) }, () => mustRun(['worker', '--db', db.url, '--until-idle'], { cwd: dir }));
  const distributed = JSON.parse((await mustRun(['runs', 'wait', 'dist', '--db', db.url, '--json'], { cwd: dir })).stdout);
  await Promise.all(fleet);
  const a = results('emb');
  const b = results('dist');
  const differing = [...a].filter(([key, record]) => b.get(key) !== record).map(([key]) => key);
  out = { units: a.size, distributed_units: b.size, differing: differing.length, examples: differing.slice(0, 5), verdict: { embedded: embedded.verdict, distributed: distributed.verdict } };
} finally {
  await db.drop();
}
process.stdout.write(`date-parser: ${out.units - out.differing}/${out.units} units identical (distributed wrote ${out.distributed_units}); verdict ${out.verdict.embedded} vs ${out.verdict.distributed}\n`);
mkdirSync(join(ROOT, 'bench', 'out'), { recursive: true });
writeFileSync(join(ROOT, 'bench', 'out', 'distributed-equivalence.json'), `${JSON.stringify(out, null, 2)}\n`);
process.exit(out.differing === 0 && out.units === out.distributed_units && out.verdict.embedded === out.verdict.distributed ? 0 : 1);
