/** `isobudget run experiment.yaml` — the four arms under one budget, the table, the verdict. */
import { resolve } from 'node:path';
import { IsobudgetError, IsobudgetErrors } from '../../core/errors.js';
import { loadConfig } from '../../config/load.js';
import { comparisonErrors } from '../../config/comparison-errors.js';
import type { SplitName } from '../../config/types.js';
import { findRunDir } from '../../ledger/find-run.js';
import type { Manifest } from '../../ledger/manifest.js';
import { readJsonFile, runPaths } from '../../ledger/run-dir.js';
import { runExperiment } from '../../runner/run-experiment.js';
import { configNumberFlag } from '../../config/flag-value.js';
import { numberOption, parseCommandArgs, scaleOption } from '../args.js';
import { wrapToWidth } from '../../report/text-wrap.js';
import { DB_OPTION, GATE_OPTION, JSON_OPTION, JUNIT_OPTION, MARKDOWN_OPTION, NO_REPORT_OPTION, PRICING_OPTION, QUIET_OPTION, RUNS_OUT_OPTION } from '../common-options.js';
import { EXIT } from '../exit-codes.js';
import { terminalColumns, type CliIO } from '../io.js';
import { runDistributed } from './run-distributed.js';
import { requireTeamDatabase } from './team-db.js';
import { applyRunHeapPolicy } from '../heap-policy.js';
import { finishRun, printVerdict, type FinishOptions } from './finish-run.js';
import { loadRun, type LoadedRun } from '../../analysis/load-run.js';
import { verdictForRun } from '../../verdict/verdict-for-run.js';
import { applyLedgerIntegrity } from '../../verdict/integrity-rule.js';
import type { VerdictRecord } from '../../verdict/record.js';
import { existsSync } from 'node:fs';
import { startRunOtel } from './run-otel.js';
import { otelEndpoint } from '../../config/otel-endpoint.js';
import type { CommandSpec } from './spec.js';
import { CASE_FLAGS, caseSelection, confirmOnTerminal, maxTotalTokensFlag, needsConfirmation, SIZE_FLAGS, sizeLine } from './run-size-flags.js';
import { MODELS_FLAG, modelsFlag } from './models-flag.js';
import { sizeExperiment } from '../../runner/size-experiment.js';

const USAGE = `isobudget run EXPERIMENT.yaml [--split val|test|train] [--out runs] [--run-id ID] [--sequential]
       [--concurrency N] [--allow-overlap] [--sim-latency-scale X] [--gate] [--json] [--markdown] [--quiet]
       [--junit FILE] [--no-report] [--pricing FILE] [--otel-endpoint URL] [--strict] [--dry-run] [--yes] [--max-total-tokens N]
       [--limit N | --cases ID,ID… | --sample N --seed S] [--models candidate=M,baseline=M]
isobudget run --resume RUN_DIR|ID|latest [--max-total-tokens N]
isobudget run EXPERIMENT.yaml --db URL --distributed [--detach] [--lease SECONDS] [--max-worker-deaths N] [--run-id ID]
  --distributed: one job per unit in the team database, executed by \`isobudget worker --db URL\` processes on any machine;
  waits with the usual progress, then writes runs/<id>/ and the verdict (--detach: print the id and return; later \`isobudget runs wait ID --db URL\`).
  Re-submitting a run id (--run-id ID or --resume ID with --distributed) queues only the units not yet committed.`;

export const runCommand: CommandSpec = {
  summary: 'run baseline and candidate, n=1 and n=N, under one token budget; print the table and the verdict',
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs('run', argv, {
      split: { type: 'string', value: 'SPLIT', help: 'the split to run: val, test or train', fallback: 'val, else test', example: 'test' },
      out: RUNS_OUT_OPTION,
      'run-id': { type: 'string', value: 'ID', help: 'the run\'s id (its directory name)', fallback: 'bf-DATE-TIME-RANDOM', example: 'nightly-42' },
      resume: { type: 'string', value: 'RUN', help: 'continue an interrupted run (a run directory, an id, its unique start, or latest) with its original options', example: 'latest' },
      concurrency: { type: 'string', value: 'N', help: 'model calls in flight (over the config\'s concurrency)', fallback: 'the config\'s, else 8', example: '4' },
      'allow-overlap': { type: 'boolean', help: 'run although train/val/test share cases (the leaks are listed and recorded)' },
      'sim-latency-scale': { type: 'string', value: 'X', help: 'multiply the simulator\'s latencies (0 answers at once); kept by --resume', fallback: '1', example: '0' },
      gate: GATE_OPTION,
      json: { ...JSON_OPTION, help: 'print the verdict as JSON (no progress)' },
      markdown: MARKDOWN_OPTION,
      junit: JUNIT_OPTION,
      'no-report': NO_REPORT_OPTION,
      quiet: QUIET_OPTION,
      sequential: { type: 'boolean', help: 'screen sequentially: stop scheduling cases once an anytime-valid test decides', fallback: 'on if the config has a sequential: block' },
      pricing: PRICING_OPTION,
      'otel-endpoint': { type: 'string', value: 'URL', help: 'stream each unit as OpenTelemetry traces (OTLP/HTTP) while the run goes; a collector that is down never slows or fails it', fallback: '$ISOBUDGET_OTEL_ENDPOINT, else off', example: 'http://127.0.0.1:4318' },
      strict: { type: 'boolean', help: 'stop (exit 2) before any call when baseline and candidate are the same agent (same prompt, model and settings, or a command agent the skill never reaches)' },
      db: DB_OPTION,
      distributed: { type: 'boolean', help: 'one job per unit in the team database (--db), executed by `isobudget worker` processes' },
      detach: { type: 'boolean', help: 'with --distributed: print the run id and return at once (later: isobudget runs wait ID --db URL)' },
      ...CASE_FLAGS,
      ...SIZE_FLAGS,
      models: MODELS_FLAG,
      lease: { type: 'string', value: 'SECONDS', help: 'with --distributed: a unit whose worker is silent this long is presumed dead and retried elsewhere (longer than the slowest unit)', fallback: '900', example: '3600' },
      'max-worker-deaths': { type: 'string', value: 'N', help: 'with --distributed: a unit whose worker dies (kill -9, out of memory, a crash) N times while running it is failed, not re-queued to take down the next one', fallback: '3', example: '5' },
    }, USAGE);
    if (values.distributed === true || values.detach === true || values.lease !== undefined || values['max-worker-deaths'] !== undefined) return runDistributedCommand(values, positionals, io);
    if (values.db !== undefined) throw new IsobudgetError('usage', 'run: --db goes with --distributed (an embedded run keeps its ledger in runs/<id>/)', { hint: USAGE });
    if (values.resume !== undefined && values.pricing !== undefined) {
      throw new IsobudgetError('usage', 'run: --pricing cannot change a run being resumed: it keeps the prices it started with (see its manifest.json)', { hint: 'start a new run to use other prices' });
    }
    const resumeDir = values.resume === undefined ? undefined : findRunDir(values.resume, { cwd: io.cwd, ...(values.out === undefined ? {} : { runsDir: values.out }) });
    const manifest = resumeDir ? readJsonFile<Manifest>(runPaths(resumeDir).manifest, 'manifest.json') : undefined;
    if (values.sequential === true && manifest && !manifest.sequential) {
      throw new IsobudgetError('usage', 'run: --sequential cannot switch a fixed-size run to sequential on --resume', { location: { file: runPaths(resumeDir as string).manifest }, hint: 'resume without --sequential, or start a new run with it' });
    }
    if (resumeDir && manifest?.status === 'complete') return printFinished(resumeDir, manifest, values, io);
    const configArg = positionals[0] ?? manifest?.config_path;
    if (!configArg) throw new IsobudgetError('usage', 'missing EXPERIMENT.yaml', { hint: USAGE });
    if (values.strict === true && !resumeDir) {
      const problems = comparisonErrors(await loadConfig(resolve(io.cwd, configArg)));
      if (problems.length > 0) throw problems.length === 1 ? problems[0] : new IsobudgetErrors(problems);
    }
    const quiet = values.quiet === true || values.json === true;
    const concurrency = configNumberFlag('concurrency', values.concurrency, ['concurrency']);
    const simLatencyScale = scaleOption('sim-latency-scale', values['sim-latency-scale']);
    const maxTotalTokens = maxTotalTokensFlag(values['max-total-tokens']);
    const cases = caseSelection(values);
    const models = modelsFlag(values.models);
    if (resumeDir && (cases !== undefined || models !== undefined)) throw new IsobudgetError('usage', 'run --resume keeps the cases and models the run started with: --limit, --cases, --sample and --models go with a new run');
    if (!resumeDir) {
      const sized = await sizeExperiment({
        configPath: resolve(io.cwd, configArg),
        outDir: resolve(io.cwd, values.out ?? 'runs'),
        ...(values.split === undefined ? {} : { split: parseSplit(values.split) }),
        ...(values['allow-overlap'] ? { allowOverlap: true } : {}),
        ...(values.pricing === undefined ? {} : { pricingFile: resolve(io.cwd, values.pricing) }),
        ...(cases === undefined ? {} : { cases }),
        ...(models === undefined ? {} : { models }),
      });
      const line = sizeLine(sized, maxTotalTokens);
      if (values['dry-run'] === true) {
        io.stdout.write(wrapToWidth(`${line}\ndry run: nothing started; next: the same command with --limit 5, then without it\n`, terminalColumns(io.stdout)));
        return EXIT.ok;
      }
      if (!quiet) io.stderr.write(wrapToWidth(`${line}\n`, terminalColumns(io.stderr)));
      const why = needsConfirmation(sized, maxTotalTokens);
      if (why !== undefined && values.yes !== true) {
        const interactive = process.stdin.isTTY === true && io.stderr.isTTY === true;
        if (!interactive) throw new IsobudgetError('usage', `run: not started: ${why}, and there is no terminal to confirm on`, { hint: 'pass --yes to start it anyway, cap it with --max-total-tokens N, or try --dry-run and --limit 5 first' });
        if (!(await confirmOnTerminal(`${why}: start it? [y/N] `, io.signal))) {
          io.stderr.write('not started\n');
          return EXIT.usage;
        }
      }
    }
    applyRunHeapPolicy(io.env);
    const otel = await startRunOtel(otelEndpoint(values['otel-endpoint'], io.env), io);
    // The verdict is written before the manifest says `complete` (a kill between them stays resumable).
    let decided: { run: LoadedRun; verdict: VerdictRecord } | undefined;
    const result = await runExperiment({
      beforeComplete: (dir) => {
        const run = loadRun(dir);
        decided = { run, verdict: verdictForRun(dir, undefined, true, {}, run) };
      },
      configPath: resolve(io.cwd, configArg),
      outDir: resolve(io.cwd, values.out ?? 'runs'),
      env: io.env,
      signal: io.signal,
      // finishRun reads results.jsonl; holding them too would only grow the heap.
      keepResults: false,
      ...(values.split === undefined ? {} : { split: parseSplit(values.split) }),
      ...(resumeDir ? { resumeDir } : {}),
      ...(manifest ? { resumeManifest: manifest } : {}),
      ...(values['run-id'] === undefined ? {} : { runId: values['run-id'] }),
      ...(values['allow-overlap'] ? { allowOverlap: true } : {}),
      // With no flag the config decides (a `sequential:` block turns it on); a resume keeps its manifest's mode.
      ...(values.sequential === true ? { sequential: true } : {}),
      ...(concurrency === undefined ? {} : { concurrency }),
      ...(simLatencyScale === undefined ? {} : { simLatencyScale }),
      ...(values.pricing === undefined ? {} : { pricingFile: resolve(io.cwd, values.pricing) }),
      ...(maxTotalTokens === undefined ? {} : { maxTotalTokens }),
      ...(cases === undefined ? {} : { cases }),
      ...(models === undefined ? {} : { models }),
      ...(quiet ? {} : { progress: { write: (t: string) => io.stderr.write(t), isTTY: io.stderr.isTTY === true, ...(io.stderr.redraw ? { redraw: io.stderr.redraw } : {}), get columns() { return io.stderr.columns; } } }),
      ...(otel ? { onUnitCommitted: otel.onUnitCommitted } : {}),
      onStart: (started) => {
        otel?.onStart(started);
        if (quiet) return;
        const fit = (text: string): string => wrapToWidth(text, terminalColumns(io.stderr));
        // An agent path is many calls: each turn gets what is left of the path's share ⌊B/n⌋, at most the cap.
        const agent = started.config.executor.type === 'agent';
        const cap = (a: Manifest['arms'][number]): string => (a.minMaxTokensPerPath === a.maxMaxTokensPerPath ? String(a.minMaxTokensPerPath) : `${a.minMaxTokensPerPath}–${a.maxMaxTokensPerPath}`);
        const describe = (a: Manifest['arms'][number]): string => (agent
          ? `${a.arm} (max_tokens/turn ≤ ${started.config.budget.perCaseMaxTokens} of a ${Math.floor(started.config.budget.totalTokensPerCase / a.n)}-token share per path, ${a.binding ? 'B binds' : 'B not binding'})`
          : `${a.arm} (max_tokens/path ${cap(a)}, ${a.nMode})`);
        if (resumeDir) {
          const recovered = [...started.events].reverse().find((event) => event.message.startsWith('resumed: '));
          io.stderr.write(fit(`resumed run ${started.run_id}: ${recovered?.message.slice('resumed: '.length) ?? 'recovered'}\n`));
          const kept = keptOptions(started.run_options, values);
          if (kept.length > 0) io.stderr.write(fit(`kept the run's options: ${kept.join(', ')}\n`));
        } else {
          io.stderr.write(fit(`run ${started.run_id}: ${started.units_planned} units, arms ${started.arms.map(describe).join(', ')}\n`));
        }
        for (const warning of started.warnings) io.stderr.write(fit(`warning: ${warning}\n`));
        const plan = started.sequential?.plan;
        if (plan) io.stderr.write(fit(`sequential screening: ${plan.order.length} cases in a seeded order, a look every ${plan.lookEvery} from ${plan.minCases}; no new case once the anytime-valid test decides\n`));
      },
    }).finally(() => otel?.finish());
    if (result.interrupted && result.stopReason !== undefined) {
      io.stderr.write(wrapToWidth(`run stopped: ${result.stopReason}\n${result.unitsCommitted} units committed in ${result.runDir}\nresume with a higher cap: isobudget run --resume ${result.runDir} --max-total-tokens N\n`, terminalColumns(io.stderr)));
      return EXIT.interrupted;
    }
    if (result.interrupted) {
      io.stderr.write(wrapToWidth(`run interrupted: ${result.unitsCommitted} units committed in ${result.runDir}\nresume with: isobudget run --resume ${result.runDir}\n`, terminalColumns(io.stderr)));
      return EXIT.interrupted;
    }
    if (decided) decided.run.manifest = result.manifest;
    return finishRun(result.runDir, io, finishOptions(values, io), decided);
  },
};

function finishOptions(values: { gate?: boolean | undefined; json?: boolean | undefined; markdown?: boolean | undefined; junit?: string | undefined; 'no-report'?: boolean | undefined }, io: CliIO): FinishOptions {
  return { gate: values.gate === true, json: values.json === true, markdown: values.markdown === true, report: values['no-report'] !== true, ...(values.junit === undefined ? {} : { junit: resolve(io.cwd, values.junit) }) };
}

/**
 * `--resume` of a finished run: nothing to run, so print its verdict and exit with it (`--gate`
 * its exit code, `--json` the record). verdict.json is decided now if missing (a run killed
 * between its last unit and its verdict, made before the manifest waited for the verdict);
 * otherwise the ledger, manifest and report stay as they are.
 */
function printFinished(dir: string, manifest: Manifest, values: Parameters<typeof finishOptions>[0], io: CliIO): Promise<number> | number {
  const stream = values.json === true ? io.stderr : io.stdout;
  const missing = !existsSync(runPaths(dir).verdict);
  stream.write(wrapToWidth(`run ${manifest.run_id} is already complete (${manifest.units_planned} units planned, finished ${manifest.updated_at}): nothing to resume${missing ? '; its verdict was missing and is decided now' : '; its ledger and report are unchanged'} — ${dir}\n`, terminalColumns(stream)));
  const run = loadRun(dir);
  if (missing) return finishRun(dir, io, finishOptions(values, io), { run, verdict: verdictForRun(dir, undefined, true, {}, run) });
  const verdict = applyLedgerIntegrity(readJsonFile<VerdictRecord>(runPaths(dir).verdict, 'verdict.json'), run.integrity);
  return printVerdict(verdict, io, { ...finishOptions(values, io), report: false }, dir, manifest.config_path);
}

async function runDistributedCommand(values: Record<string, string | boolean | undefined>, positionals: string[], io: CliIO): Promise<number> {
  const flag = (name: string): string | undefined => (typeof values[name] === 'string' ? (values[name] as string) : undefined);
  if (values.distributed !== true) throw new IsobudgetError('usage', 'run: --detach, --lease and --max-worker-deaths go with --distributed', { hint: USAGE });
  if (values['otel-endpoint'] !== undefined) throw new IsobudgetError('usage', 'run: --otel-endpoint streams an embedded run; export a distributed one once it is done: isobudget export otel RUN --endpoint URL', { hint: USAGE });
  if (values.sequential === true) throw new IsobudgetError('usage', 'run: --sequential does not run distributed (it decides case by case in one process)', { hint: USAGE });
  const resume = flag('resume');
  const configArg = positionals[0];
  if (!configArg) throw new IsobudgetError('usage', 'run --distributed: missing EXPERIMENT.yaml', { hint: USAGE });
  const leaseSeconds = values.lease === undefined ? 900 : numberOption('lease', flag('lease'));
  if (leaseSeconds === undefined || !Number.isInteger(leaseSeconds) || leaseSeconds < 1) throw new IsobudgetError('usage', `--lease must be a whole number of seconds ≥ 1, got '${flag('lease')}'`, { hint: USAGE });
  const maxWorkerDeaths = numberOption('max-worker-deaths', flag('max-worker-deaths'));
  if (maxWorkerDeaths !== undefined && (!Number.isInteger(maxWorkerDeaths) || maxWorkerDeaths < 1)) {
    throw new IsobudgetError('usage', `--max-worker-deaths must be a whole number ≥ 1, got '${flag('max-worker-deaths')}'`, { hint: USAGE });
  }
  const db = await requireTeamDatabase(flag('db'), io, 'run --distributed');
  try {
    const split = flag('split');
    const junit = flag('junit');
    const runId = flag('run-id') ?? resume;
    const pricing = flag('pricing');
    return await runDistributed(db, io, {
      configPath: resolve(io.cwd, configArg),
      outDir: resolve(io.cwd, flag('out') ?? 'runs'),
      leaseSeconds,
      ...(maxWorkerDeaths === undefined ? {} : { maxWorkerDeaths }),
      detach: values.detach === true,
      quiet: values.quiet === true || values.json === true,
      ...(split === undefined ? {} : { split: parseSplit(split) }),
      ...(runId === undefined ? {} : { runId }),
      ...(values['allow-overlap'] === true ? { allowOverlap: true } : {}),
      ...(pricing === undefined ? {} : { pricingFile: resolve(io.cwd, pricing) }),
      finish: { gate: values.gate === true, json: values.json === true, markdown: values.markdown === true, report: values['no-report'] !== true, ...(junit === undefined ? {} : { junit: resolve(io.cwd, junit) }) },
    });
  } finally {
    await db.end().catch(() => undefined);
  }
}

function parseSplit(value: string): SplitName {
  if (value === 'train' || value === 'val' || value === 'test') return value;
  throw new IsobudgetError('usage', `--split must be train, val or test, got '${value}'`);
}

/** The recorded options a resume reuses (those not given again on its command line), as flags. */
function keptOptions(recorded: Manifest['run_options'], flags: { 'sim-latency-scale'?: string | undefined; concurrency?: string | undefined }): string[] {
  const kept: string[] = [];
  if (recorded?.sim_latency_scale !== undefined && flags['sim-latency-scale'] === undefined) kept.push(`--sim-latency-scale ${recorded.sim_latency_scale}`);
  if (recorded?.concurrency !== undefined && flags.concurrency === undefined) kept.push(`--concurrency ${recorded.concurrency}`);
  return kept;
}
