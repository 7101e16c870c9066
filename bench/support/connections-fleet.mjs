/**
 * bench/team-faults.mjs --only connections: a fleet of workers whose pools add up to more
 * than the server's max_connections, on one run. What it reports is what an operator sees:
 * each worker's exit and its "too many connections" lines, every unit committed or not, the
 * wall time, the server's peak of client sessions, and units stalled (queued or active) once
 * every worker is gone.
 */
import pg from 'pg';
import { arithmeticExperiment, cli, mustRun } from './team-db.mjs';

const TOO_MANY = /too many connections/;

export async function connectionsFleet({ url, maxConnections, workers, concurrency, cases, simLines, say }) {
  await mustRun(['db', 'migrate', '--db', url]);
  const dir = arithmeticExperiment(cases, simLines);
  await mustRun(['run', 'experiment.yaml', '--db', url, '--distributed', '--detach', '--run-id', 'fleet'], { cwd: dir });
  // One session held from before the fleet starts: the bench's own reads never wait for a slot.
  const watch = new pg.Client({ connectionString: url });
  await watch.connect();
  const units = Number((await watch.query(`SELECT count(*)::int AS n FROM units WHERE run_id = 'fleet'`)).rows[0].n);
  let peak = 0;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      const n = Number((await watch.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE backend_type = 'client backend'`)).rows[0].n);
      peak = Math.max(peak, n);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  const started = Date.now();
  const exits = await Promise.all(Array.from({ length: workers }, async (_, i) => {
    const result = await cli(['worker', '--db', url, '--until-idle', '--concurrency', String(concurrency)], { cwd: dir });
    return { worker: i + 1, seconds: (Date.now() - started) / 1000, ...result };
  }));
  const wallS = (Date.now() - started) / 1000;
  sampling = false;
  await sampler;
  const states = Object.fromEntries((await watch.query(`SELECT state, count(*)::int AS n FROM units WHERE run_id = 'fleet' GROUP BY state`)).rows.map((r) => [r.state, r.n]));
  const results = Number((await watch.query(`SELECT count(*)::int AS n FROM results WHERE run_id = 'fleet'`)).rows[0].n);
  const lastCommitS = Number((await watch.query(`SELECT EXTRACT(EPOCH FROM max(committed_at))::float8 AS t FROM units WHERE run_id = 'fleet'`)).rows[0].t) - started / 1000;
  const handbacks = Number((await watch.query(`SELECT COALESCE(sum(handbacks), 0)::int AS n FROM units WHERE run_id = 'fleet'`)).rows[0].n);
  await watch.end();
  const waited = await cli(['runs', 'wait', 'fleet', '--db', url, '--json', '--quiet'], { cwd: dir });

  const perWorker = exits.map((e) => {
    const lines = e.stderr.split('\n').filter((line) => TOO_MANY.test(line));
    const summary = /worker: (\d+) unit\(s\) committed/.exec(e.stderr);
    return {
      worker: e.worker, exit: e.code, exited_s: e.seconds, committed: summary ? Number(summary[1]) : 0,
      too_many_lines: lines.length,
      // The worker's own words, minus the timestamp.
      first_message: lines[0]?.replace(/^\d{4}-\S+Z /, '') ?? null,
      hint: e.code === 2 ? (e.stderr.split('\n').find((line) => line.trimStart().startsWith('hint:'))?.trim() ?? null) : null,
      stack: /\n\s+at |internal error/.test(e.stderr),
    };
  });
  const refused = perWorker.filter((w) => w.exit === 2);
  const backedOff = perWorker.filter((w) => w.exit === 0 && w.too_many_lines > 0);
  const stalled = (states.queued ?? 0) + (states.active ?? 0);
  const ok = results === units && stalled === 0 && waited.code === 0 && perWorker.every((w) => (w.exit === 0 || w.exit === 2) && !w.stack)
    && refused.every((w) => TOO_MANY.test(w.first_message ?? ''));
  const report = {
    workers, concurrency, pool_per_worker: concurrency * 2 + 4, max_connections: maxConnections, units, results, states, stalled, handbacks,
    wall_s: wallS, last_commit_s: lastCommitS, peak_client_sessions: peak, wait_exit: waited.code,
    refused: refused.map((w) => w.worker), backed_off_and_went_on: backedOff.map((w) => w.worker), per_worker: perWorker, ok,
  };
  say(`connections: ${workers} workers × ${concurrency} (pools of ${report.pool_per_worker}, ${workers * report.pool_per_worker} in all) against max_connections ${maxConnections}; peak ${peak} client sessions`);
  say(`  ${refused.length} worker(s) gave up with exit 2 (${refused.map((w) => `#${w.worker}`).join(', ') || 'none'}), ${backedOff.length} saw 53300 and went on (${backedOff.map((w) => `#${w.worker}`).join(', ') || 'none'}), ${workers - refused.length - backedOff.length} never saw it`);
  const quoteRefused = refused[0];
  if (quoteRefused) say(`  exit-2 message: "${quoteRefused.first_message}" / ${quoteRefused.hint}`);
  const quoteWent = backedOff[0];
  if (quoteWent) say(`  back-off line: "${quoteWent.first_message}"`);
  say(`  ${results}/${units} units committed (${handbacks} hand-backs), stalled ${stalled}; last commit ${lastCommitS.toFixed(1)} s, all workers exited ${wallS.toFixed(1)} s after the fleet started; runs wait exit ${waited.code}; ${ok ? 'OK' : 'NOT OK'}`);
  return report;
}
