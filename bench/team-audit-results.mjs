/**
 * `audit --db` over many results (issue 23, "Reads in SQL"): the results of a small sim run
 * copied --results times in one statement, their times spread over --days days before the run
 * (so the audit's default 90-day window holds every one, a few thousand UTC hours of them), then
 * the CLI timed, node start included, with its peak RSS (/usr/bin/time). The audit sums the
 * results per UTC hour and kind in the database (src/distributed/team-reads.ts): memory bounded
 * by hours × kinds, not by results.
 *
 *   node bench/team-audit-results.mjs [--results 1000000] [--days 60] [--trials 3] [--dist DIR] [--keep]
 *
 * --dist: another build's dist/ (e.g. a checkout before the change) runs the audit too, on the
 * same rows, interleaved. Writes bench/out/team-audit-results.json. The schema is dropped unless --keep.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { arithmeticExperiment, BIN, freshSchema, mustRun, ROOT } from './support/team-db.mjs';

const { values } = parseArgs({
  options: {
    results: { type: 'string', default: '1000000' },
    days: { type: 'string', default: '60' },
    trials: { type: 'string', default: '3' },
    dist: { type: 'string' },
    keep: { type: 'boolean', default: false },
  },
});
const say = (line) => process.stdout.write(`${line}\n`);
const SIM_LINES = ['provider: { preset: sim }', 'models: { candidate: sim-small }', 'budget: { total_tokens_per_case: 2000, per_case_max_tokens: 256, best_of_n: [1, 2] }', 'selector: majority'];

const db = await freshSchema('bench_audit_results');
const client = new pg.Client({ connectionString: db.url });
await client.connect();
const scalar = async (sql, params = []) => Number(Object.values((await client.query(sql, params)).rows[0] ?? { n: 0 })[0] ?? 0);
try {
  await mustRun(['db', 'migrate', '--db', db.url]);
  const dir = arithmeticExperiment(10, SIM_LINES);
  await mustRun(['run', 'experiment.yaml', '--db', db.url, '--distributed', '--detach', '--run-id', 'aud'], { cwd: dir });
  await mustRun(['worker', '--db', db.url, '--until-idle', '--sim-latency-scale', '0'], { cwd: dir });
  await mustRun(['runs', 'wait', 'aud', '--db', db.url, '--json', '--quiet'], { cwd: dir });
  const real = await scalar(`SELECT count(*)::int FROM results WHERE run_id = 'aud'`);
  const copies = Math.max(0, Math.ceil((Number(values.results) - real) / real));
  const spread = Number(values.days) * 86_400;
  const started = Date.now();
  await client.query(
    `INSERT INTO results (run_id, case_id, arm, epoch, split, seq, attempt_id, variant, n, passed, total_tokens, cost_usd, latency_ms, ts, record)
     SELECT run_id, case_id || '-x' || g, arm, epoch, split, seq, attempt_id, variant, n, passed, total_tokens, cost_usd, latency_ms,
            ts - ((g::bigint * 7919 + seq) % $2::bigint) * interval '1 second', record
       FROM results r, generate_series(1, $1::int) g WHERE r.run_id = 'aud'`,
    [copies, spread],
  );
  await client.query('ANALYZE results');
  const results = await scalar('SELECT count(*)::int FROM results');
  const hours = await scalar(`SELECT count(DISTINCT date_trunc('hour', ts, 'UTC'))::int FROM results`);
  say(`${results} results over ${hours} UTC hours (${((Date.now() - started) / 1000).toFixed(0)} s to insert)`);
  // One window for every run (tomorrow, UTC): the JSON of two builds can be compared whole.
  const until = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
  const timeBin = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;
  const timed = (bin) =>
    new Promise((resolvePromise, reject) => {
      const t0 = Date.now();
      const argv = [bin, 'audit', '--db', db.url, '--json', '--until', until];
      const child = timeBin === undefined
        ? spawn(process.execPath, argv, { cwd: dir, env: { PATH: process.env.PATH }, stdio: ['ignore', 'pipe', 'pipe'] })
        : spawn(timeBin, ['-f', 'peak-rss-kb %M', process.execPath, ...argv], { cwd: dir, env: { PATH: process.env.PATH }, stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (c) => (stdout += c));
      child.stderr.on('data', (c) => (stderr += c));
      child.on('error', reject);
      child.on('close', (code) => {
        const kb = /peak-rss-kb (\d+)/.exec(stderr)?.[1];
        let tasks;
        try { tasks = JSON.parse(stdout).sources.tasks; } catch { tasks = undefined; }
        resolvePromise({ seconds: (Date.now() - t0) / 1000, code, tasks, stdout, rssMb: kb === undefined ? undefined : Number(kb) / 1024 });
      });
    });
  const builds = [['this build', BIN], ...(values.dist ? [[values.dist, join(values.dist, 'cli', 'bin.js')]] : [])];
  const out = { results, hours, runs: {} };
  for (let trial = 0; trial < Number(values.trials); trial += 1) {
    for (const [name, bin] of builds) {
      // A build from before 0006 refuses a schema a newer one migrated: its record is hidden
      // for that run (the index stays; the older build's query has no use for it).
      const hidden = bin === BIN ? [] : (await client.query(`DELETE FROM isobudget_migrations WHERE id >= '0006' RETURNING *`)).rows;
      const r = await timed(bin).finally(async () => {
        for (const row of hidden) await client.query(`INSERT INTO isobudget_migrations (${Object.keys(row).join(', ')}) VALUES (${Object.keys(row).map((_, i) => `$${i + 1}`).join(', ')})`, Object.values(row));
      });
      const { stdout, ...figures } = r;
      (out.runs[name] ??= []).push(figures);
      (out.json ??= {})[name] ??= stdout;
      say(`audit --db (${name}): ${r.seconds.toFixed(2)} s, exit ${r.code}, ${r.tasks} tasks${r.rssMb === undefined ? '' : `, peak RSS ${r.rssMb.toFixed(0)} MB`}`);
    }
  }
  // The same audit from both builds: USD sums compared to 12 significant digits (summed in
  // another order), everything else exactly.
  if (builds.length > 1) {
    const canon = (text) => JSON.stringify(JSON.parse(text), (k, v) => (typeof v === 'number' && /usd/i.test(k) ? Number(v.toPrecision(12)) : v));
    const [a, b] = builds.map(([name]) => out.json[name]);
    out.same_json = canon(a) === canon(b);
    out.same_json_exact = a === b;
    say(`same JSON as ${builds[1][0]}: ${out.same_json} (byte for byte: ${out.same_json_exact})`);
  }
  delete out.json;
  mkdirSync(join(ROOT, 'bench', 'out'), { recursive: true });
  writeFileSync(join(ROOT, 'bench', 'out', 'team-audit-results.json'), `${JSON.stringify(out, null, 2)}\n`);
} finally {
  await client.end();
  if (values.keep) say(`schema kept: ${db.url}`);
  else await db.drop();
}
