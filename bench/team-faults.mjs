#!/usr/bin/env node
/**
 * Team mode under faults (issue 23): what an operator loses.
 *
 *   kill      — `kill -9` of a worker holding units (a slow agent, 3 s a path), `--trials`
 *               times: seconds from the kill until every unit it held is back in the queue
 *               (its lease lapsed, the supervisor re-queued it), and until all are running
 *               again on the other worker. --dead-after is the worker's (default here 5 s;
 *               the product default is 30 s). Before heartbeats this was the unit lease
 *               (900 s by default).
 *   restart   — a private PostgreSQL 15 cluster restarted mid-run (down --down-ms): the run's
 *               wall time minus the same run's without a restart; submitter and workers must
 *               survive (exit 0) and commit every unit.
 *   reads     — `analyze --db RUN` and `audit --db` wall time with --calls call
 *               rows in the database (synthetic copies of a real run's calls, each copy a unit
 *               of its own), read first from call_totals' unit rows, then again once the run's
 *               rows are folded per hour (compactCallTotals, as a run's finish does), and
 *               once more after VACUUM. (The copies came after the run's finish, so analyze's
 *               verdict is `invalid` by ledger_integrity — as it should be; the work is the same.)
 *
 *               With /usr/bin/time present, also each CLI's peak RSS (MB). --keep leaves the
 *               reads schema in place (its URL printed) for EXPLAIN; drop it yourself after.
 *
 *   connections — the issue's fleet: --workers (20) workers × --concurrency (8) units each
 *               (a pool of 2 × 8 + 4 = 20 connections apiece, 400 in all) against a private
 *               cluster with max_connections 100 (--max-connections), one run of --cases × 4
 *               units on the fast simulator: which workers got SQLSTATE 53300 (their message
 *               quoted), which gave up (exit 2) and which went on, whether every unit
 *               committed, the run's wall time, the peak of server sessions, and units left
 *               queued or active (stalled) once every worker has exited. Not in the default
 *               --only: ~1 min of 20 node processes on the machine.
 *
 *   node bench/team-faults.mjs [--only kill,restart,reads,connections] [--trials 3] [--dead-after 5] [--calls 1000000] [--down-ms 1500] [--keep]
 *                              [--workers 20] [--concurrency 8] [--max-connections 100] [--cases 40]
 *
 * Gateway replicas' req/s on one key (1 vs 3 replicas) is measured by
 * bench/gateway-replicas-key.mjs (also in `npm run bench`); bench/gateway-replicas.mjs
 * measures the per-call and leased modes' latency.
 * Writes bench/out/<name>.json (default team-faults).
 */
import { copyFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { privateClusterUnavailable, startPrivateCluster } from './support/private-cluster.mjs';
import { arithmeticExperiment, BIN, cli, freshSchema, mustRun, ROOT } from './support/team-db.mjs';
import { spawn } from 'node:child_process';
import { connectionsFleet } from './support/connections-fleet.mjs';

const { values } = parseArgs({
  options: {
    only: { type: 'string', default: 'kill,restart,reads' },
    trials: { type: 'string', default: '3' },
    'dead-after': { type: 'string', default: '5' },
    calls: { type: 'string', default: '1000000' },
    'down-ms': { type: 'string', default: '1500' },
    name: { type: 'string', default: 'team-faults' },
    quiet: { type: 'boolean', default: false },
    cases: { type: 'string' },
    concurrency: { type: 'string' },
    workers: { type: 'string', default: '20' },
    'max-connections': { type: 'string', default: '100' },
    dist: { type: 'string' },
    keep: { type: 'boolean', default: false },
  },
});
const parts = new Set(values.only.split(','));
const out = { deadAfterSeconds: Number(values['dead-after']) };
const say = (line) => process.stdout.write(`${line}\n`);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const scalar = async (client, sql, params = []) => Number(Object.values((await client.query(sql, params)).rows[0] ?? { n: 0 })[0] ?? 0);

async function until(check, everyMs = 100, tries = 3000) {
  for (let i = 0; i < tries; i += 1) {
    if (await check()) return true;
    await sleep(everyMs);
  }
  return false;
}

const SIM_LINES = ['provider: { preset: sim }', 'models: { candidate: sim-small }', 'budget: { total_tokens_per_case: 2000, per_case_max_tokens: 256, best_of_n: [1, 2] }', 'selector: majority'];

// ------------------------------------------------------------------ kill -9
if (parts.has('kill')) {
  const db = await freshSchema('bench_faults_kill');
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  await mustRun(['db', 'migrate', '--db', db.url]);
  const dir = arithmeticExperiment(3, [...SIM_LINES, `executor: { type: command, argv: ["${process.execPath}", "{{config_dir}}/agent.mjs", "{{input}}", "3000"], timeout_ms: 30000 }`]);
  copyFileSync(join(ROOT, 'test', 'support', 'sleepy-agent.mjs'), join(dir, 'agent.mjs'));
  const deadAfter = values['dead-after'];
  out.kill = [];
  for (let trial = 0; trial < Number(values.trials); trial += 1) {
    const runId = `kill${trial}`;
    await mustRun(['run', 'experiment.yaml', '--db', db.url, '--distributed', '--detach', '--run-id', runId], { cwd: dir });
    let victim;
    const doomed = cli(['worker', '--db', db.url, '--concurrency', '12', '--dead-after', deadAfter], { cwd: dir, onSpawn: (child) => (victim = child) });
    await until(async () => (await scalar(client, `SELECT count(*)::int FROM units WHERE run_id = $1 AND state = 'active'`, [runId])) >= 6, 50);
    const victimId = (await client.query('SELECT id FROM workers WHERE pid = $1 AND state = $2', [victim.pid, 'live'])).rows[0]?.id;
    const held = await scalar(client, `SELECT count(*)::int FROM units WHERE run_id = $1 AND worker_id = $2 AND state = 'active'`, [runId, victimId]);
    await sleep(Math.random() * 1000);
    victim.kill('SIGKILL');
    const killedAt = Date.now();
    await doomed;
    const rescue = cli(['worker', '--db', db.url, '--until-idle', '--concurrency', '12', '--dead-after', deadAfter], { cwd: dir });
    await until(async () => (await scalar(client, `SELECT count(*)::int FROM units WHERE run_id = $1 AND worker_id = $2 AND state = 'active'`, [runId, victimId])) === 0);
    const requeuedS = (Date.now() - killedAt) / 1000;
    await until(async () => (await scalar(client, `SELECT count(*)::int FROM units WHERE run_id = $1 AND state = 'queued'`, [runId])) === 0);
    const restartedS = (Date.now() - killedAt) / 1000;
    const waited = await cli(['runs', 'wait', runId, '--db', db.url, '--json', '--quiet'], { cwd: dir });
    const rescued = await rescue;
    const committed = await scalar(client, 'SELECT count(*)::int FROM results WHERE run_id = $1', [runId]);
    const ok = waited.code === 0 && rescued.code === 0 && committed === 12;
    out.kill.push({ held, requeued_s: requeuedS, running_again_s: restartedS, ok });
    say(`kill -9 #${trial + 1}: ${held} unit(s) held; back in the queue after ${requeuedS.toFixed(1)} s, all running again after ${restartedS.toFixed(1)} s (--dead-after ${deadAfter}); run ${ok ? 'complete' : 'NOT complete'}`);
  }
  await client.end();
  await db.drop();
}

// ------------------------------------------------------------------ database restart
if (parts.has('restart')) {
  const why = privateClusterUnavailable();
  if (why) say(`restart: skipped (${why})`);
  else {
    const cluster = await startPrivateCluster();
    try {
      await mustRun(['db', 'migrate', '--db', cluster.url]);
      const dir = arithmeticExperiment(20, SIM_LINES);
      const once = async (runId, fault) => {
        const started = Date.now();
        const submitter = cli(['run', 'experiment.yaml', '--db', cluster.url, '--distributed', '--run-id', runId, '--json', '--quiet'], { cwd: dir });
        // Workers once the units are queued (--until-idle exits at once on an empty queue).
        const watch = new pg.Client({ connectionString: cluster.url });
        await watch.connect();
        await until(async () => (await scalar(watch, 'SELECT count(*)::int FROM units WHERE run_id = $1', [runId])) === 80, 50);
        await watch.end();
        const workers = [1, 2].map(() => cli(['worker', '--db', cluster.url, '--until-idle', '--concurrency', '4', '--sim-latency-scale', '20'], { cwd: dir }));
        if (fault) {
          const client = new pg.Client({ connectionString: cluster.url });
          client.on('error', () => {});
          await client.connect();
          await until(async () => (await scalar(client, 'SELECT count(*)::int FROM results WHERE run_id = $1', [runId])) >= 20);
          await client.end();
          cluster.restart(Number(values['down-ms']));
        }
        const done = await submitter;
        const exits = await Promise.all(workers);
        return { seconds: (Date.now() - started) / 1000, ok: done.code === 0 && exits.every((w) => w.code === 0) };
      };
      const base = await once('base', false);
      const faulted = await once('restarted', true);
      out.restart = { down_ms: Number(values['down-ms']), baseline_s: base.seconds, restarted_s: faulted.seconds, lost_s: faulted.seconds - base.seconds, ok: base.ok && faulted.ok };
      say(`restart: run ${base.seconds.toFixed(1)} s without, ${faulted.seconds.toFixed(1)} s with a restart (down ${values['down-ms']} ms): ${(faulted.seconds - base.seconds).toFixed(1)} s lost; submitter and workers ${faulted.ok ? 'survived' : 'did NOT survive'}`);
    } finally {
      cluster.destroy();
    }
  }
}

// ------------------------------------------------------------------ reads at scale
if (parts.has('reads')) {
  const db = await freshSchema('bench_faults_reads');
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  await mustRun(['db', 'migrate', '--db', db.url]);
  const dir = arithmeticExperiment(10, SIM_LINES);
  await mustRun(['run', 'experiment.yaml', '--db', db.url, '--distributed', '--detach', '--run-id', 'reads'], { cwd: dir });
  await mustRun(['worker', '--db', db.url, '--until-idle', '--sim-latency-scale', '0'], { cwd: dir });
  await mustRun(['runs', 'wait', 'reads', '--db', db.url, '--json', '--quiet'], { cwd: dir });
  const real = await scalar(client, `SELECT count(*)::int FROM calls WHERE run_id = 'reads'`);
  const target = Number(values.calls);
  const copies = Math.max(0, Math.ceil((target - real) / real));
  const insertStarted = Date.now();
  // One statement, the calls' secondary indexes rebuilt after (what is timed is the reads, not
  // this load); call_totals' triggers see every copied row as the ledger's own writes would.
  const indexes = (await client.query(`SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema() AND tablename = 'calls' AND indexname NOT IN ('calls_pkey', 'calls_run_id_call_id_key')`)).rows;
  await client.query('ALTER TABLE calls DROP CONSTRAINT calls_run_id_call_id_key');
  for (const { indexname } of indexes) await client.query(`DROP INDEX ${indexname}`);
  await client.query(
    `INSERT INTO calls (run_id, call_id, unit_key, attempt_id, state, case_id, arm, epoch, role, model, prompt_tokens, completion_tokens, total_tokens, cost_usd, latency_ms, status, usage_missing, ts, record)
     SELECT run_id, call_id || '-x' || g, unit_key || '-x' || g, attempt_id || '-x' || g, state, case_id, arm, epoch, role, model, prompt_tokens, completion_tokens, total_tokens, cost_usd, latency_ms, status, usage_missing, ts, record
       FROM calls c, generate_series(1, $1::int) g WHERE c.run_id = 'reads'`,
    [copies],
  );
  await client.query("SET maintenance_work_mem = '512MB'");
  await client.query('ALTER TABLE calls ADD CONSTRAINT calls_run_id_call_id_key UNIQUE (run_id, call_id)');
  for (const { indexdef } of indexes) await client.query(indexdef);
  await client.query('ANALYZE calls');
  const calls = await scalar(client, 'SELECT count(*)::int FROM calls');
  say(`reads: ${calls} call rows (${((Date.now() - insertStarted) / 1000).toFixed(0)} s to insert)`);
  const timeBin = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;
  // Wall time of the CLI (node start included) and, with /usr/bin/time, its peak RSS.
  const timed = (args) =>
    new Promise((resolvePromise, reject) => {
      const started = Date.now();
      const argv = [BIN, ...args];
      const child = timeBin === undefined
        ? spawn(process.execPath, argv, { cwd: dir, env: { PATH: process.env.PATH }, stdio: ['ignore', 'ignore', 'pipe'] })
        : spawn(timeBin, ['-f', 'peak-rss-kb %M', process.execPath, ...argv], { cwd: dir, env: { PATH: process.env.PATH }, stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (c) => (stderr += c));
      child.on('error', reject);
      child.on('close', (code) => {
        const kb = /peak-rss-kb (\d+)/.exec(stderr)?.[1];
        resolvePromise({ seconds: (Date.now() - started) / 1000, code, rssMb: kb === undefined ? undefined : Number(kb) / 1024 });
      });
    });
  const mb = (r) => (r.rssMb === undefined ? '' : `, peak RSS ${r.rssMb.toFixed(0)} MB`);
  const reads = async () => ({ analyze: await timed(['analyze', 'reads', '--db', db.url, '--json']), audit: await timed(['audit', '--db', db.url, '--json']) });
  const figures = (r) => `analyze --db ${r.analyze.seconds.toFixed(2)} s (exit ${r.analyze.code}${mb(r.analyze)}), audit --db ${r.audit.seconds.toFixed(2)} s (exit ${r.audit.code}${mb(r.audit)})`;
  const totalsRows = () => scalar(client, 'SELECT count(*)::int FROM call_totals');
  // The copies came after the run's finish: one call_totals row per copied unit (each a unit of
  // its own: the worst case, a running run of one call a unit). Then folded as a finish does.
  const unfolded = { ...(await reads()), totals_rows: await totalsRows() };
  say(`reads at ${calls} calls, ${unfolded.totals_rows} call_totals rows (unit rows): ${figures(unfolded)}`);
  const foldStarted = Date.now();
  const { openPool } = await import('../dist/db/index.js');
  const { compactCallTotals } = await import('../dist/distributed/call-totals.js');
  const pool = openPool(db.url, { applicationName: 'bench', max: 1 });
  await compactCallTotals(pool, 'reads');
  await pool.end();
  const foldS = (Date.now() - foldStarted) / 1000;
  const folded = { ...(await reads()), totals_rows: await totalsRows(), fold_s: foldS };
  say(`reads at ${calls} calls, ${folded.totals_rows} call_totals rows (folded as at a run's finish, ${foldS.toFixed(1)} s; the unit rows dead, not yet vacuumed): ${figures(folded)}`);
  await client.query('VACUUM ANALYZE call_totals');
  const vacuumed = await reads();
  say(`reads at ${calls} calls, folded and vacuumed: ${figures(vacuumed)}`);
  const rowBytes = await scalar(client, `SELECT pg_total_relation_size('calls')::float8 / GREATEST(1, (SELECT count(*) FROM calls))`);
  out.reads = { calls, unfolded, folded, vacuumed, calls_bytes_per_row: rowBytes };
  say(`reads: calls ${rowBytes.toFixed(0)} bytes a row (table + indexes)`);
  if (values.keep) say(`reads: schema kept: ${db.url}`);
  await client.end();
  if (!values.keep) await db.drop();
}

// ------------------------------------------------------------------ a fleet past max_connections
if (parts.has('connections')) {
  const why = privateClusterUnavailable();
  if (why) say(`connections: skipped (${why})`);
  else {
    const maxConnections = Number(values['max-connections']);
    const cluster = await startPrivateCluster({ max_connections: maxConnections });
    try {
      out.connections = await connectionsFleet({
        url: cluster.url, maxConnections, workers: Number(values.workers), concurrency: Number(values.concurrency ?? 8), cases: Number(values.cases ?? 40), simLines: SIM_LINES, say,
      });
    } finally {
      cluster.destroy();
    }
  }
}

mkdirSync(join(ROOT, 'bench', 'out'), { recursive: true });
writeFileSync(join(ROOT, 'bench', 'out', `${values.name}.json`), `${JSON.stringify(out, null, 2)}\n`);
const failed = (out.kill ?? []).some((k) => !k.ok) || (out.restart && !out.restart.ok) || (out.connections && !out.connections.ok);
process.exit(failed ? 1 : 0);
