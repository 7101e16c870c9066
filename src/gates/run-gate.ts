/**
 * `isobudget gate EXPERIMENT.yaml`: the five-layer promotion gate (seed §6). CANDIDATE is an
 * experiment config whose candidate variant (a skill file) is the candidate and whose
 * baseline variant is what it must beat. Layer 1 checks format and contamination; then the
 * candidate must have been screened on val (an active skill_candidate with the same text);
 * only then is the test split run — here and nowhere else — and counted; layers 2–4 read
 * its verdict; layer 5 queues a human review (or, with --auto-confirm and nothing that
 * always needs a human, confirms it). Every layer's result is recorded.
 */
import { IsobudgetError } from '../core/errors.js';
import { ingestRun, loadRunForMemory, testUseOf, type LoadedRun } from '../memory/ingest-run.js';
import { nextId } from '../memory/ids.js';
import { promoteCandidate } from '../memory/promote.js';
import type { Approval } from '../memory/record.js';
import { cardFromFacts } from '../memory/review-card.js';
import { factsFromRun } from '../memory/run-facts.js';
import { LAYER_NAMES, type GateLayerResult, type GateRun, type GateStatus, type ReviewItem } from '../memory/store/records.js';
import { withConflictRetry, type MemoryStore } from '../memory/store/spec.js';
import { unifiedDiff } from '../memory/unified-diff.js';
import { humanLayer } from '../review/decide.js';
import type { CaseSelection } from '../runner/case-selection.js';
import { runExperiment } from '../runner/run-experiment.js';
import type { VerdictName } from '../verdict/record.js';
import { verdictForRun } from '../verdict/verdict-for-run.js';
import { describeChange, effectivePolicy, policyChanges } from './budget-policy.js';
import { formatLayer } from './format-layer.js';
import { loadGateInputs } from './gate-inputs.js';
import { alwaysHumanReasons, PROMOTION_REASON } from './needs-human.js';
import { declaredPolicyOf } from './skill-file.js';
import { priorOutcome } from './prior-outcome.js';
import { gateTrial, type GateTrial } from './trial.js';
import { budgetLayer, regressionLayer, significanceLayer, type LayerOutcome } from './verdict-layers.js';

export interface GateOptions {
  configPath: string;
  /** A production config the baseline's budget policy is read from (default: the candidate's own config). */
  baselineConfigPath?: string;
  store: MemoryStore;
  /** Parent directory of the test run (default `runs`). */
  outDir: string;
  env?: NodeJS.ProcessEnv;
  signal?: AbortSignal;
  now?: () => Date;
  /** Let the machine confirm layer 5 when nothing always needs a human (a stable domain). */
  autoConfirm?: boolean;
  /** Fail layer 3 once a test split has been used more than this many times. */
  maxTestUses?: number;
  contaminationMinChars?: number;
  /** `--limit` / `--cases` / `--sample`: run only these test cases — a trial, which never promotes. */
  cases?: CaseSelection;
  /** Runs the test split (default: runExperiment + verdictForRun). Tests inject verdicts here. */
  runTest?: (configPath: string, cases: CaseSelection | undefined) => Promise<LoadedRun>;
}

export interface GateOutcome {
  gate: GateRun;
  layers: GateLayerResult[];
  review: ReviewItem | undefined;
  messages: string[];
  /** The test run's verdict, when the test split was run. */
  verdict: VerdictName | undefined;
  /** Set when the gate ran on a subset of the test split: it cannot promote. */
  trial?: GateTrial;
}

type Entry = [1 | 2 | 3 | 4 | 5, LayerOutcome];
const skipped = (why: string): LayerOutcome => ({ status: 'skipped', summary: `not run: ${why}`, details: {} });
const failed = (summary: string): LayerOutcome => ({ status: 'failed', summary, details: {} });

export async function runGate(options: GateOptions): Promise<GateOutcome> {
  const clock = options.now ?? (() => new Date());
  const { store } = options;
  const inputs = await loadGateInputs(options.configPath, options.baselineConfigPath);
  const trial = gateTrial(options.cases, inputs.testCases);
  const candidateId = inputs.config?.variants.candidate.id ?? null;
  let gate = await openGate(store, options, candidateId, clock());
  const outcome: GateOutcome = { gate, layers: [], review: undefined, messages: [], verdict: undefined, ...(trial ? { trial } : {}) };
  const record = async (entries: Entry[], status?: GateStatus, extra: Partial<GateRun> = {}): Promise<void> => {
    const at = clock().toISOString();
    const layers = entries.map(([layer, result]): GateLayerResult => ({ gate_id: gate.gate_id, layer, name: LAYER_NAMES[layer - 1] ?? 'format', ...result, recorded_at: at }));
    const next: GateRun = { ...gate, ...extra, status: status ?? gate.status, updated_at: at };
    await store.commit({ layers, gates: [{ gate: next, expected: gate.status }] });
    gate = next;
    outcome.gate = next;
    outcome.layers.push(...layers);
  };

  const format = formatLayer({ configProblems: inputs.problems, skill: inputs.skill, testCases: inputs.testCases, regressionCases: inputs.regressionCases, minChars: options.contaminationMinChars ?? 8 });
  const config = inputs.config;
  if (format.outcome.status === 'failed' || !config || !format.skill?.name) {
    await record([[1, format.outcome], [2, skipped('layer 1 failed')], [3, skipped('layer 1 failed')], [4, skipped('layer 1 failed')], [5, skipped('layer 1 failed')]], 'failed');
    return outcome;
  }
  const candidateRecords = await store.listRecords({ candidateId: config.variants.candidate.id });
  const screened = candidateRecords.find((r) => r.type === 'skill_candidate' && r.status !== 'retired');
  const prior = screened ? undefined : priorOutcome(candidateRecords, config.variants.candidate.id, config.variants.candidate.systemPrompt);
  if (prior) {
    // Already decided: say so, and spend no test-split use on it.
    const why = prior.kind === 'already_promoted' ? 'already promoted' : 'remembered as a negative pattern';
    const layer3: LayerOutcome = { status: prior.kind === 'already_promoted' ? 'skipped' : 'failed', summary: prior.summary, details: { memory_id: prior.memory_id } };
    await record([[1, format.outcome], [2, skipped(why)], [3, layer3], [4, skipped(why)], [5, skipped(why)]], prior.kind === 'already_promoted' ? 'passed' : 'failed', { memory_id: prior.memory_id });
    outcome.messages.push(prior.summary);
    return outcome;
  }
  const priorUses = inputs.testSha256 === undefined ? 0 : (await store.listTestUses(inputs.testSha256)).length;
  const blocked = !screened
    ? `not screened: no skill_candidate for ${config.variants.candidate.id}; run the experiment on val and \`isobudget memory ingest RUN_DIR\` first (the test split is used only by the gate)`
    : screened.status !== 'active' ? `${screened.memory_id} is ${screened.status} (${screened.status_reason ?? 'no reason recorded'})`
    : screened.skill?.text !== config.variants.candidate.systemPrompt ? `the skill file changed since ${screened.memory_id} was screened on val: screen the new text on val first`
    : options.maxTestUses !== undefined && priorUses >= options.maxTestUses ? `the test split was already used ${priorUses} times (--max-test-uses ${options.maxTestUses}): refresh it before gating again`
    : undefined;
  if (blocked || !screened) {
    await record([[1, format.outcome], [2, skipped('the test split was not run')], [3, failed(`${blocked ?? ''}; the test split was not run`)], [4, skipped('the test split was not run')], [5, skipped('a layer of 1–4 failed')]], 'failed', { memory_id: screened?.memory_id ?? null });
    return outcome;
  }
  await record([[1, format.outcome]], undefined, { memory_id: screened.memory_id });

  let run: LoadedRun;
  try {
    run = await (options.runTest ?? defaultRunTest(options))(config.configPath, options.cases);
  } catch (error) {
    const why = `the test run failed: ${error instanceof Error ? error.message : String(error)}`;
    await record([[2, failed(why)], [3, failed(why)], [4, skipped(why)], [5, skipped(why)]], 'failed');
    throw error;
  }
  outcome.verdict = run.verdict.verdict;
  if (trial) {
    // Counted as a look at the test split, but not remembered as evidence on the candidate:
    // a few cases' verdict must not confirm (or refute) what only the whole split can.
    const use = testUseOf(run, gate.gate_id, clock());
    if (use) await store.commit({ testUses: [use] });
  } else {
    const ingest = await ingestRun(run, store, clock(), gate.gate_id);
    outcome.messages.push(...ingest.messages);
  }
  const uses = (await store.listTestUses(run.manifest.datasets['test']?.sha256 ?? inputs.testSha256)).length;
  const baseline = inputs.baselineConfig ?? config;
  const baselinePolicy = effectivePolicy(baseline, declaredPolicyOf(baseline.variants.baseline.systemPrompt));
  const candidatePolicy = effectivePolicy(config, format.skill.policy);
  const changes = policyChanges(baselinePolicy, candidatePolicy);
  const checks: Entry[] = [
    [2, regressionLayer(run.verdict)],
    [3, significanceLayer(run.verdict, { testUses: uses, maxTestUses: options.maxTestUses })],
    [4, budgetLayer(run.verdict, { baselinePolicy, candidatePolicy, changes })],
  ];
  const testRun = { test_run_id: run.verdict.run_id };
  if (trial || checks.some(([, result]) => result.status === 'failed')) {
    const layer5: LayerOutcome = trial ? { status: 'skipped', summary: `not run: ${trial.reason}`, details: { trial } } : skipped('a layer of 1–4 failed');
    await record([...checks, [5, layer5]], 'failed', testRun);
    return outcome;
  }
  await record(checks, undefined, testRun);

  await withConflictRetry(async () => {
    const records = await store.listRecords();
    const candidate = records.find((r) => r.memory_id === screened.memory_id) ?? screened;
    const reasons = alwaysHumanReasons({ changes, skillName: format.skill?.name ?? '', level: format.skill?.level ?? 'note', records });
    const now = clock();
    if (options.autoConfirm === true && reasons.length === 0) {
      const approval: Approval = { reviewer: 'auto-confirm', note: 'stable domain; no change that always needs a human', at: now.toISOString(), gate_id: gate.gate_id, review_id: null };
      const promotion = promoteCandidate(candidate, records, approval, now);
      const human = humanLayer(gate, 'approve', approval, [], now);
      await store.commit({ records: promotion.writes, ...human });
      outcome.messages.push(promotion.message);
      gate = human.gates?.[0]?.gate ?? gate;
      outcome.layers.push(...(human.layers ?? []));
      outcome.gate = gate;
      return;
    }
    const reviewId = nextId('rev-', (await store.listReviewItems()).map((item) => item.review_id), 4);
    const facts = factsFromRun(run.verdict, run.manifest);
    const same = run.verdict.same_budget;
    const at = now.toISOString();
    const item: ReviewItem = {
      review_id: reviewId, kind: 'promotion', status: 'pending', memory_id: candidate.memory_id, memory_version: candidate.version, gate_id: gate.gate_id,
      reasons: [PROMOTION_REASON, ...reasons],
      card: cardFromFacts(`promote ${candidate.candidate_id ?? candidate.memory_id} (${format.skill?.name} version ${format.skill?.version}) over ${run.verdict.baseline_id}`, facts, {
        diff: candidate.skill ? unifiedDiff(candidate.skill.baseline_text ?? '', candidate.skill.text, { from: candidate.skill.baseline_id ?? 'baseline', to: candidate.candidate_id ?? candidate.memory_id }) : '',
        policyChanges: changes.map(describeChange),
        tokensPerSuccess: { baseline: same?.baseline_tokens_per_success ?? null, candidate: same?.candidate_tokens_per_success ?? null },
        p95LatencyRatio: same?.p95_latency_ratio ?? null,
        totalTokensRatio: run.verdict.bestofn_on?.total_tokens_ratio ?? null,
        facts: [`screened on val in ${candidate.source_run}; tested in ${run.verdict.run_id} (test split used ${uses} time${uses === 1 ? '' : 's'})`, `gate ${gate.gate_id}: layers 1–4 passed`],
      }),
      created_at: at, updated_at: at,
    };
    const pending: GateLayerResult = { gate_id: gate.gate_id, layer: 5, name: 'human', status: 'pending', summary: `awaiting human review ${reviewId}: ${item.reasons.join('; ')}`, details: { review_id: reviewId, reasons: item.reasons }, recorded_at: at };
    const next: GateRun = { ...gate, status: 'awaiting_review', needs_human: item.reasons, review_id: reviewId, updated_at: at };
    await store.commit({ reviewItems: [{ item, expected: null }], layers: [pending], gates: [{ gate: next, expected: gate.status }] });
    gate = next;
    outcome.gate = next;
    outcome.layers.push(pending);
    outcome.review = item;
  });
  return outcome;
}

async function openGate(store: MemoryStore, options: GateOptions, candidateId: string | null, now: Date): Promise<GateRun> {
  return withConflictRetry(async () => {
    const at = now.toISOString();
    const gate: GateRun = {
      gate_id: nextId('gate-', (await store.listGates()).map((g) => g.gate_id), 4),
      config_path: options.configPath, baseline_config_path: options.baselineConfigPath ?? null, candidate_id: candidateId, memory_id: null,
      status: 'running', needs_human: [], test_run_id: null, review_id: null, created_at: at, updated_at: at,
    };
    await store.commit({ gates: [{ gate, expected: null }] });
    return gate;
  });
}

function defaultRunTest(options: GateOptions): (configPath: string, cases: CaseSelection | undefined) => Promise<LoadedRun> {
  return async (configPath, cases) => {
    // The final gate runs the whole test split even when the config screens sequentially on val.
    const result = await runExperiment({ configPath, split: 'test', outDir: options.outDir, sequential: false, ...(cases === undefined ? {} : { cases }), ...(options.env ? { env: options.env } : {}), ...(options.signal ? { signal: options.signal } : {}) });
    if (result.interrupted) throw new IsobudgetError('interrupted', `the test run was interrupted: ${result.runDir}`);
    verdictForRun(result.runDir);
    return loadRunForMemory(result.runDir);
  };
}
