/**
 * `isobudget evolve`: the self-evolution loop (DESIGN §12). Round after round it diagnoses
 * the incumbent on train, recalls memory (negative patterns first), asks for K diffs, screens
 * each on val with the four-arm run at the same B, accepts only `real_evolution` at the
 * Bonferroni-corrected level (decide.ts), remembers every verdict, and stops on rounds,
 * `budget_tokens`, `stop_after_no_gain` or the three-round n=N-only streak. It then writes the
 * final incumbent beside the original skill and the config `isobudget gate` takes to the test
 * split — which the loop itself never touches.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { loadConfig, readApiKey } from '../config/index.js';
import type { ExperimentConfig } from '../config/types.js';
import { countTokens } from '../core/tokens.js';
import { IsobudgetError } from '../core/errors.js';
import { fieldsOf, loadDataset } from '../datasets/index.js';
import { checkSkillFile } from '../gates/skill-file.js';
import { checkRunId, writeJsonAtomic } from '../ledger/run-dir.js';
import { openMemoryStore } from '../memory/store/open.js';
import { createProvider } from '../providers/create-provider.js';
import { loadRunInputs } from '../runner/inputs.js';
import { type CaseSelection, withCaseSelection } from '../runner/case-selection.js';
import { LoopStopped, type LoopContext } from './context.js';
import { stopAfterRound, type RoundOutcome, type Stop } from './decide.js';
import type { SkillFileVersion } from './derive-config.js';
import { writeFinalSkill, type FinalSkill } from './final-skill.js';
import { finalVsStart } from './final-vs-start.js';
import { loopPaths, newEvolveId } from './layout.js';
import { loopTokens } from './ledger-tokens.js';
import { productionFailures } from './production.js';
import { writeEvolveReport } from './report/write-report.js';
import { runRound } from './round.js';
import { screenCandidate, type ScreenCandidate } from './screen.js';
import { evolveSettings, type EvolveFlags } from './settings.js';
import { checkUnchanged, experimentHash, readState, writeState, type LoopState } from './state.js';
import { buildSummary, type EvolveSummary, type LoopStatus } from './summary.js';
import type { LineageEntry } from './types.js';

export interface EvolveOptions {
  /** A new loop on this experiment … */
  configPath?: string;
  /** … or continue this loop directory. */
  resumeDir?: string;
  /** Parent of loop directories (default `evolve`). */
  outDir?: string;
  evolveId?: string;
  flags?: EvolveFlags;
  /** Memory store file (relative to cwd). */
  storePath: string;
  /** Production failures (EVENTS.jsonl) for the diagnosis. */
  failuresFile?: string;
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  signal?: AbortSignal;
  concurrency?: number;
  simLatencyScale?: number;
  log?: (line: string) => void;
  now?: () => Date;
  /** The screening boundary (default: the fixed-sample four-arm screen). */
  screen?: ScreenCandidate;
  /** `--limit/--cases/--sample`: screen on these val cases only (a new loop; a resume keeps its own). */
  cases?: CaseSelection;
}

export interface EvolveResult {
  dir: string;
  summary: EvolveSummary;
  lineage: LineageEntry[];
}

export async function runEvolve(options: EvolveOptions): Promise<EvolveResult> {
  const cwd = options.cwd ?? process.cwd();
  const now = options.now ?? (() => new Date());
  const { state, dir, config } = await openLoop(options, cwd, now);
  const paths = loopPaths(dir);
  const store = openMemoryStore(state.store_path, cwd);
  try {
    const context = await loopContext(options, state, config, paths, store, now);
    // A partial screen (--limit) is a cheap trial: its runs are marked partial like `run --limit`.
    const val = withCaseSelection(await loadRunInputs(config, 'val', false), state.cases);
    const train = await loadRunInputs(config, 'train', false);
    checkUnchanged(state, config, Object.fromEntries(Object.entries(val.datasets).map(([name, info]) => [name, info.sha256])));
    const start: SkillFileVersion = { version: context.start.version, text: context.start.text, variantId: context.start.variantId, file: context.start.file };
    let incumbent = start;
    const lineage: LineageEntry[] = [];
    const history: RoundOutcome[] = [];
    let stop: Stop | undefined;
    for (let round = 1; round <= state.settings.rounds && !stop; round += 1) {
      try {
        const result = await runRound(context, round, incumbent, lineage, { train, val }, options.screen ?? screenCandidate);
        lineage.push(...result.entries);
        writeJsonAtomic(paths.lineage, lineage);
        if (result.accepted) incumbent = result.accepted;
        history.push(result.outcome);
        stop = result.stop ?? stopAfterRound(history, state.settings);
      } catch (error) {
        if (!(error instanceof LoopStopped)) throw error;
        stop = error.stop;
      }
    }
    writeJsonAtomic(paths.lineage, lineage);
    const final = stop ?? { reason: 'rounds', message: `all ${state.settings.rounds} rounds run` };
    const status: LoopStatus = final.reason === 'interrupted' ? 'interrupted' : final.reason === 'rounds' || final.reason === 'no_gain' || final.reason === 'bestofn_streak' ? 'complete' : 'stopped';
    const finalSkill = incumbent === start || status === 'interrupted' ? null : writeFinalSkill({ config, evolveId: state.evolve_id, start: context.start, final: incumbent, lineage, loopDir: relative(cwd, dir) || dir, configText: readFileSync(config.configPath, 'utf8') });
    const summary = buildSummary({
      evolveId: state.evolve_id, experiment: config.experiment, configPath: config.configPath, status, stop: final, settings: state.settings,
      roundsRun: history.length, lineage, tokens: loopTokens(dir), start: { version: start.version, file: start.file }, finalSkill,
      finalVsStart: incumbent === start ? null : finalVsStart({ loopDir: dir, config, lineage, start, final: incumbent, confidence: state.settings.screenConfidence, bootstrapRounds: state.settings.screenBootstrapRounds, now: now() }),
      gateCommand: finalSkill ? gateCommand(finalSkill, state, cwd) : null,
      now: now(),
    });
    writeJsonAtomic(paths.summary, summary);
    await writeEvolveReport(paths.report, { summary, lineage });
    writeState(paths.state, { ...state, status: status === 'complete' ? 'complete' : status, stop: final, updated_at: now().toISOString() });
    return { dir, summary, lineage };
  } finally {
    store.close();
  }
}

function gateCommand(finalSkill: FinalSkill, state: LoopState, cwd: string): string {
  return `isobudget gate ${relative(cwd, finalSkill.gateConfig) || finalSkill.gateConfig} --store ${relative(cwd, state.store_path) || state.store_path}`;
}

async function openLoop(options: EvolveOptions, cwd: string, now: () => Date): Promise<{ state: LoopState; dir: string; config: ExperimentConfig }> {
  if (options.resumeDir !== undefined) {
    const dir = resolve(cwd, options.resumeDir);
    const state = readState(loopPaths(dir).state);
    const config = await loadConfig(state.config_path);
    const budgetTokens = options.flags?.budgetTokens;
    const resumed: LoopState = { ...state, status: 'running', stop: null, resumed: state.resumed + 1, updated_at: now().toISOString(), settings: budgetTokens === undefined ? state.settings : { ...state.settings, budgetTokens } };
    writeState(loopPaths(dir).state, resumed);
    return { state: resumed, dir, config };
  }
  if (options.configPath === undefined) throw new IsobudgetError('usage', 'evolve: pass EXPERIMENT.yaml, or --resume LOOP_DIR');
  const config = await loadConfig(resolve(cwd, options.configPath));
  const settings = evolveSettings(config, options.flags ?? {});
  const evolveId = options.evolveId ?? newEvolveId(now());
  // A plain name, checked before anything is created: `--id ../x` must not leave `--out`.
  checkRunId(evolveId, '--id');
  const dir = resolve(cwd, options.outDir ?? 'evolve', evolveId);
  if (existsSync(dir)) throw new IsobudgetError('loop_exists', 'loop directory already exists', { location: { file: dir }, hint: `continue it with: isobudget evolve --resume ${dir}` });
  mkdirSync(dir, { recursive: true });
  const val = await loadRunInputs(config, 'val', false);
  const at = now().toISOString();
  const state: LoopState = {
    schema_version: 1, evolve_id: evolveId, config_path: config.configPath, config_hash: experimentHash(config),
    datasets: Object.fromEntries(Object.entries(val.datasets).map(([name, info]) => [name, info.sha256])), settings,
    store_path: resolve(cwd, options.storePath), failures_file: options.failuresFile === undefined ? null : resolve(cwd, options.failuresFile),
    ...(options.cases === undefined ? {} : { cases: options.cases }),
    status: 'running', stop: null, resumed: 0, created_at: at, updated_at: at,
  };
  writeState(loopPaths(dir).state, state);
  return { state, dir, config };
}

async function loopContext(options: EvolveOptions, state: LoopState, config: ExperimentConfig, paths: ReturnType<typeof loopPaths>, store: ReturnType<typeof openMemoryStore>, now: () => Date): Promise<LoopContext> {
  const env = options.env ?? process.env;
  const skillFile = config.variants.baseline.skillFile ?? '';
  const text = config.variants.baseline.systemPrompt;
  const front = checkSkillFile(text, skillFile);
  if (front.problems.length > 0 || front.name === undefined || front.version === undefined) {
    throw new IsobudgetError('evolve_skill', `the starting skill is not a valid skill file: ${front.problems.join('; ')}`, { location: { file: skillFile }, hint: 'give it front matter with name, description and version (see examples/evolve-date-parser/skills/date-parser.md)' });
  }
  const apiKey = readApiKey(config, env);
  const proposerProviderConfig = config.evolve?.provider ?? config.provider;
  const proposerKey = readApiKey({ provider: proposerProviderConfig, configPath: config.configPath }, env);
  const providerOptions = { simSeed: config.seed, ...(options.simLatencyScale === undefined ? {} : { simLatencyScale: options.simLatencyScale }) };
  const providerConfig = (p: typeof proposerProviderConfig, key: string | undefined) => ({ protocol: p.protocol, baseUrl: p.baseUrl, apiKey: key, apiKeyEnv: p.apiKeyEnv, timeoutMs: p.timeoutMs, headers: p.headers });
  const load = async (path: string | undefined, split: 'val' | 'test' | 'regression') => (path === undefined ? [] : loadDataset(path, { split, configKey: `datasets.${split}`, configFile: config.configPath }));
  const cases = {
    train: config.datasets.train === undefined ? [] : await loadDataset(config.datasets.train, { split: 'train', configKey: 'datasets.train', configFile: config.configPath, ...fieldsOf(config) }),
    val: await load(config.datasets.val, 'val'),
    test: await load(config.datasets.test, 'test'),
    regression: await load(config.datasets.regression, 'regression'),
  };
  return {
    evolveId: state.evolve_id,
    config,
    settings: state.settings,
    paths,
    store,
    env,
    signal: options.signal,
    runProvider: () => createProvider(providerConfig(config.provider, apiKey), providerOptions),
    proposerProvider: createProvider(providerConfig(proposerProviderConfig, proposerKey), providerOptions),
    secrets: [apiKey, proposerKey].filter((key): key is string => key !== undefined),
    concurrency: options.concurrency,
    skillName: front.name,
    start: { version: front.version, text, file: skillFile, variantId: config.variants.baseline.id, tokens: countTokens(text) },
    cases,
    production: state.failures_file === null ? undefined : await productionFailures(config, state.failures_file, cases),
    log: options.log ?? (() => undefined),
    now,
  };
}

