/**
 * `isobudget analyze RUN_DIR` re-analyses a run (other gates via flags);
 * `isobudget analyze --ledger FILE.jsonl` analyses a ledger in the seed's record format.
 */
import { resolve } from 'node:path';
import { analyzeResults } from '../../analysis/analyze-run.js';
import { loadRun } from '../../analysis/load-run.js';
import { findRunDir } from '../../ledger/find-run.js';
import { readSeedLedger } from '../../analysis/seed-ledger.js';
import { loadPricingFile } from '../../config/load-pricing-file.js';
import { buildPriceTable } from '../../pricing/build-table.js';
import { DEFAULTS } from '../../config/index.js';
import type { GatesConfig } from '../../config/types.js';
import { IsobudgetError } from '../../core/errors.js';
import { decideVerdict } from '../../verdict/decide.js';
import { verdictForRun } from '../../verdict/verdict-for-run.js';
import { configNumberFlag } from '../../config/flag-value.js';
import { intOption, parseCommandArgs } from '../args.js';
import { DB_READ_OPTION, GATE_OPTION, JSON_OPTION, JUNIT_OPTION, MARKDOWN_OPTION, NO_REPORT_OPTION, PRICING_OPTION, SEED_OPTION } from '../common-options.js';
import { printVerdict, writeReport } from './finish-run.js';
import type { CommandSpec } from './spec.js';
import { requireTeamDatabase } from './team-db.js';
import { renderResultsCsv } from '../../export/csv/results-csv.js';
import type { ResultRecord } from '../../ledger/records.js';
import { EXIT } from '../exit-codes.js';
import type { CliIO } from '../io.js';

const USAGE = `isobudget analyze RUN_DIR|ID|latest --csv   the per-case results as CSV (also with --ledger FILE or --db URL)
isobudget analyze RUN_DIR|ID|latest [--gate] [--json] [--markdown] [--junit FILE] [--no-report] [gate flags]
isobudget analyze RUN_ID --db URL [--gate] [--json] [--markdown] [--junit FILE] [gate flags]   a run in the team database
isobudget analyze --ledger FILE.jsonl [--budget B (default: the rows' \`budget\`, else unknown)] [--baseline-id ID] [--candidate-id ID] [--seed S] [--pricing FILE] [--gate] [--json] [--markdown] [--junit FILE] [gate flags]
gate flags: --min-gain X --max-token-growth X --max-latency-growth X --rounds N --confidence X
exit codes with --gate: 0 real_evolution, 10 not promotable, 11 regression, 12 invalid, 2 bad input`;

export const analyzeCommand: CommandSpec = {
  summary: 'paired statistics and the verdict for a run directory, or for a seed-format ledger (--ledger)',
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs('analyze', argv, {
      ledger: { type: 'string', value: 'FILE', help: 'analyse a ledger in the seed\'s record format (JSONL written by your own script) instead of a run', example: 'my-ledger.jsonl' },
      budget: { type: 'string', value: 'B', help: '--ledger: the budget B per case (tokens)', fallback: 'the rows\' budget, else unknown', example: '200000' },
      'baseline-id': { type: 'string', value: 'ID', help: '--ledger: which variant id is the baseline', fallback: 'inferred from the rows', example: 'skill-v2' },
      'candidate-id': { type: 'string', value: 'ID', help: '--ledger: which variant id is the candidate', fallback: 'inferred from the rows', example: 'skill-v3' },
      seed: { ...SEED_OPTION, help: '--ledger: seed of the bootstrap', fallback: `${DEFAULTS.seed}` },
      'min-gain': { type: 'string', value: 'X', help: 'gate: minimum n=1 pass-rate gain (0–1)', fallback: `the run's config, else ${DEFAULTS.minSameBudgetGain}`, example: '0.05' },
      'max-token-growth': { type: 'string', value: 'X', help: 'gate: maximum tokens-per-success ratio candidate/baseline', fallback: `the run's config, else ${DEFAULTS.maxTokenGrowthRatio}`, example: '1.3' },
      'max-latency-growth': { type: 'string', value: 'X', help: 'gate: maximum p95 latency ratio candidate/baseline', fallback: `the run's config, else ${DEFAULTS.maxLatencyGrowthRatio}`, example: '1.5' },
      rounds: { type: 'string', value: 'N', help: 'bootstrap resamples (at least 100)', fallback: `the run's config, else ${DEFAULTS.bootstrapRounds}`, example: '5000' },
      confidence: { type: 'string', value: 'X', help: 'two-sided confidence of every interval (0–1)', fallback: `the run's config, else ${DEFAULTS.confidence}`, example: '0.9' },
      gate: GATE_OPTION,
      json: JSON_OPTION,
      markdown: MARKDOWN_OPTION,
      junit: JUNIT_OPTION,
      csv: { type: 'boolean', help: 'print the per-case results as CSV instead of the verdict: one row per case × arm × epoch (passed, tokens, cost, latency, finish reason, error); writes nothing' },
      'no-report': { ...NO_REPORT_OPTION, help: 'do not rewrite the run\'s report.html' },
      pricing: { ...PRICING_OPTION, help: '--ledger: model → USD per million tokens, over the dated defaults (a run keeps its own prices)' },
      db: DB_READ_OPTION,
    }, USAGE);
    if (values.pricing !== undefined && values.ledger === undefined) throw new IsobudgetError('usage', 'analyze: --pricing applies to --ledger FILE; a run directory keeps the prices it ran with', { hint: USAGE });
    const gates: Partial<GatesConfig> = {};
    const set = <K extends keyof GatesConfig>(key: K, value: GatesConfig[K] | undefined): void => {
      if (value !== undefined) gates[key] = value;
    };
    set('minSameBudgetGain', configNumberFlag('min-gain', values['min-gain'], ['gates', 'min_same_budget_gain']));
    set('maxTokenGrowthRatio', configNumberFlag('max-token-growth', values['max-token-growth'], ['gates', 'max_token_growth_ratio']));
    set('maxLatencyGrowthRatio', configNumberFlag('max-latency-growth', values['max-latency-growth'], ['gates', 'max_latency_growth_ratio']));
    set('bootstrapRounds', configNumberFlag('rounds', values.rounds, ['gates', 'bootstrap_rounds']));
    set('confidence', configNumberFlag('confidence', values.confidence, ['gates', 'confidence']));
    if (gates.confidence !== undefined && !(gates.confidence > 0 && gates.confidence < 1)) throw new IsobudgetError('usage', '--confidence must be between 0 and 1 (e.g. 0.95)');
    if (gates.bootstrapRounds !== undefined && gates.bootstrapRounds < 100) throw new IsobudgetError('usage', '--rounds must be at least 100');
    const options = { gate: values.gate === true, json: values.json === true, markdown: values.markdown === true, ...(values.junit === undefined ? {} : { junit: resolve(io.cwd, values.junit) }) };

    if (values.ledger !== undefined) {
      const file = resolve(io.cwd, values.ledger);
      const flagBudget = intOption('budget', values.budget);
      if (flagBudget === 0) throw new IsobudgetError('usage', '--budget must be a positive number of tokens per case, got 0');
      const pricingFile = values.pricing === undefined ? undefined : resolve(io.cwd, values.pricing);
      const results = await readSeedLedger(file, buildPriceTable({ file: pricingFile === undefined ? undefined : { path: pricingFile, prices: loadPricingFile(pricingFile) } }), flagBudget);
      if (values.csv === true) return printCsv(results, io);
      const bestOfN = [...new Set(results.map((r) => r.n))].sort((a, b) => a - b);
      // B: --budget, else what the ledger's rows say (`budget`), else unknown — never a default
      // that the ledger's units were not run under.
      const ledgerBudget = results.find((r) => Number.isFinite(r.budget))?.budget;
      const budget = flagBudget ?? ledgerBudget;
      const verdict = decideVerdict(
        analyzeResults(results, {
          runId: results[0]?.run_id ?? 'external',
          experiment: file,
          split: 'val',
          budget,
          budgetSource: flagBudget !== undefined ? 'flag' : ledgerBudget !== undefined ? 'ledger' : 'unknown',
          bestOfN,
          baselineId: values['baseline-id'] ?? 'baseline',
          candidateId: values['candidate-id'] ?? 'candidate',
          gates: {
            minSameBudgetGain: DEFAULTS.minSameBudgetGain,
            maxTokenGrowthRatio: DEFAULTS.maxTokenGrowthRatio,
            maxLatencyGrowthRatio: DEFAULTS.maxLatencyGrowthRatio,
            bootstrapRounds: DEFAULTS.bootstrapRounds,
            confidence: DEFAULTS.confidence,
            ...gates,
          },
          seed: intOption('seed', values.seed) ?? DEFAULTS.seed,
          nonBindingArms: [],
        }),
      );
      return printVerdict(verdict, io, options);
    }
    const dir = positionals[0];
    if (!dir) throw new IsobudgetError('usage', 'analyze: pass a RUN_DIR or --ledger FILE.jsonl', { hint: USAGE });
    if (values.db !== undefined) {
      const db = await requireTeamDatabase(values.db, io, 'analyze', 4);
      try {
        const { loadRunFromDatabase } = await import('../../distributed/team-reads.js');
        const run = await loadRunFromDatabase(db, dir, resolve(io.cwd, 'runs'));
        if (values.csv === true) return printCsv(run.results, io);
        // A read: nothing is written (the run's files, if any, are the submitter's).
        return printVerdict(verdictForRun(run.dir, gates, false, {}, run), io, options, undefined, run.manifest.config_path);
      } finally {
        await db.end().catch(() => undefined);
      }
    }
    const runDir = findRunDir(dir, { cwd: io.cwd });
    // Other gates are a what-if: keep the run's own verdict.json (and report.html) as decided.
    const decided = Object.keys(gates).length === 0;
    const run = loadRun(runDir);
    if (values.csv === true) return printCsv(run.results, io);
    const verdict = verdictForRun(runDir, gates, decided, {}, run);
    const code = printVerdict(verdict, io, options, runDir, run.manifest.config_path);
    if (decided && values['no-report'] !== true) await writeReport(runDir, verdict, io, options, run);
    return code;
  },
};

/**
 * Stdout passes through the terminal sanitizer, which writes the CSV's CRLF record ends as LF
 * (what Unix CSV tools write; every reader accepts both).
 */
function printCsv(results: readonly ResultRecord[], io: CliIO): number {
  io.stdout.write(renderResultsCsv(results));
  return EXIT.ok;
}
