/**
 * `isobudget evolve EXPERIMENT.yaml` — the self-evolution loop: diagnose on train, propose
 * diffs, screen each on val at the same budget, accept only corrected `real_evolution`,
 * remember, repeat. `--resume LOOP_DIR` continues a loop after a crash or Ctrl-C.
 */
import type { EvolveScreening } from '../../config/types.js';
import { DEFAULTS } from '../../config/defaults.js';
import { IsobudgetError } from '../../core/errors.js';
import { runEvolve } from '../../evolve/loop.js';
import type { EvolveSummary } from '../../evolve/summary.js';
import type { LineageEntry } from '../../evolve/types.js';
import { DEFAULT_STORE_PATH } from '../../memory/store/open.js';
import { intOption, parseCommandArgs, scaleOption } from '../args.js';
import { CASE_FLAGS, caseSelection } from './run-size-flags.js';
import { JSON_OPTION, QUIET_OPTION, STORE_OPTION } from '../common-options.js';
import { EXIT } from '../exit-codes.js';
import { applyRunHeapPolicy } from '../heap-policy.js';
import type { CommandSpec } from './spec.js';

const USAGE = `isobudget evolve EXPERIMENT.yaml [--rounds R] [--candidates K] [--budget-tokens T] [--failures EVENTS.jsonl]
       [--screening sequential|fixed] [--out evolve] [--id ID] [--store PATH] [--concurrency N] [--sim-latency-scale X] [--json] [--quiet]
       [--limit N | --cases ID,ID… | --sample N --seed S]   (screen on some val cases: a cheap trial; the runs are marked partial)
isobudget evolve --resume evolve/<id> [--budget-tokens T] [--json] [--quiet]
Settings come from the config's \`evolve:\` block (rounds 5, candidates_per_round 2, budget_tokens, failures_per_prompt 12,
max_skill_growth 1.25, stop_after_no_gain 3, proposer, screening sequential — the \`sequential:\` block's test, its CS at the
Bonferroni level); flags override it. A resumed loop keeps the settings it started with.
exit codes: 0 the loop ended (accepted or not), 130 interrupted (resume it), 2 bad input`;

export const evolveCommand: CommandSpec = {
  summary: 'the self-evolution loop: diagnose on train, propose skill diffs, screen on val at the same budget, accept only corrected real_evolution, remember, repeat',
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs('evolve', argv, {
      ...CASE_FLAGS,
      rounds: { type: 'string', value: 'R', help: 'rounds of diagnose → propose → screen → decide', fallback: `evolve.rounds, else ${DEFAULTS.evolveRounds}`, example: '3' },
      candidates: { type: 'string', value: 'K', help: 'skill edits proposed per round', fallback: `evolve.candidates_per_round, else ${DEFAULTS.evolveCandidates}`, example: '4' },
      'budget-tokens': { type: 'string', value: 'T', help: 'cap on every token the loop spends (raise it on --resume)', fallback: 'evolve.budget_tokens, else no cap', example: '5000000' },
      failures: { type: 'string', value: 'FILE', help: 'production failure events (JSONL) shown to the proposer beside the train failures', example: 'failures.jsonl' },
      out: { type: 'string', value: 'DIR', help: 'the loops folder', fallback: 'evolve', example: 'evolve-ci' },
      id: { type: 'string', value: 'ID', help: 'the loop\'s id (its directory name)', fallback: 'generated', example: 'date-parser-dec' },
      store: STORE_OPTION,
      resume: { type: 'string', value: 'DIR', help: 'continue an interrupted loop with the settings it started with', example: 'evolve/ev-20261201-1200-ab12' },
      concurrency: { type: 'string', value: 'N', help: 'model calls in flight', fallback: 'the config\'s, else 8', example: '4' },
      'sim-latency-scale': { type: 'string', value: 'X', help: 'multiply the simulator\'s latencies (0 answers at once)', fallback: '1', example: '0' },
      screening: { type: 'string', value: 'MODE', help: 'how candidates are screened on val: sequential or fixed', fallback: `evolve.screening, else ${DEFAULTS.evolveScreening}`, example: 'fixed' },
      json: { ...JSON_OPTION, help: 'print the loop\'s summary as JSON (no progress)' },
      quiet: QUIET_OPTION,
    }, USAGE);
    if (values.resume === undefined && positionals[0] === undefined) throw new IsobudgetError('usage', 'evolve: missing EXPERIMENT.yaml', { hint: USAGE });
    if (values.resume !== undefined && (positionals.length > 0 || values.rounds !== undefined || values.candidates !== undefined || values.failures !== undefined || values.screening !== undefined)) {
      throw new IsobudgetError('usage', 'evolve --resume continues a loop with the experiment and settings it started with: pass only the loop directory (and --budget-tokens to raise the cap)', { hint: USAGE });
    }
    const flags = {
      ...optional('rounds', positive('rounds', intOption('rounds', values.rounds))),
      ...optional('candidates', positive('candidates', intOption('candidates', values.candidates))),
      ...optional('budgetTokens', positive('budget-tokens', intOption('budget-tokens', values['budget-tokens']))),
      ...(values.screening === undefined ? {} : { screening: screeningOption(values.screening) }),
    };
    const quiet = values.quiet === true || values.json === true;
    const concurrency = intOption('concurrency', values.concurrency);
    const simLatencyScale = scaleOption('sim-latency-scale', values['sim-latency-scale']);
    applyRunHeapPolicy(io.env);
    const cases = caseSelection(values);
    if (cases !== undefined && values.resume !== undefined) throw new IsobudgetError('usage', 'evolve --resume keeps the cases the loop started with: --limit, --cases and --sample go with a new loop');
    const result = await runEvolve({
      ...(cases === undefined ? {} : { cases }),
      ...(values.resume === undefined ? { configPath: positionals[0] as string } : { resumeDir: values.resume }),
      ...(values.out === undefined ? {} : { outDir: values.out }),
      ...(values.id === undefined ? {} : { evolveId: values.id }),
      ...(values.failures === undefined ? {} : { failuresFile: values.failures }),
      ...(concurrency === undefined ? {} : { concurrency }),
      ...(simLatencyScale === undefined ? {} : { simLatencyScale }),
      flags,
      storePath: values.store ?? DEFAULT_STORE_PATH,
      cwd: io.cwd,
      env: io.env,
      signal: io.signal,
      log: quiet ? () => undefined : (line) => io.stderr.write(`${line}\n`),
    });
    if (values.json === true) io.stdout.write(`${JSON.stringify({ ...result.summary, lineage: result.lineage }, null, 2)}\n`);
    else io.stdout.write(renderText(result.summary, result.lineage, result.dir));
    if (result.summary.status === 'interrupted') {
      io.stderr.write(`evolve interrupted; resume with: isobudget evolve --resume ${result.dir}\n`);
      return EXIT.interrupted;
    }
    return EXIT.ok;
  },
};

function screeningOption(value: string): EvolveScreening {
  if (value === 'sequential' || value === 'fixed') return value;
  throw new IsobudgetError('usage', `--screening must be sequential or fixed, got '${value}'`, { hint: USAGE });
}

function positive(name: string, value: number | undefined): number | undefined {
  if (value !== undefined && value < 1) throw new IsobudgetError('usage', `--${name} must be at least 1, got ${value}`, { hint: USAGE });
  return value;
}

function optional<K extends string>(key: K, value: number | undefined): Partial<Record<K, number>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, number>);
}

function renderText(summary: EvolveSummary, lineage: readonly LineageEntry[], dir: string): string {
  const pct = (x: number | undefined): string => (x === undefined ? '—' : `${(x * 100).toFixed(1)}%`);
  const signed = (x: number | null): string => (x === null ? '' : `${x >= 0 ? '+' : '−'}${Math.abs(x * 100).toFixed(1)} pts`);
  const lines = [
    '',
    `evolve ${summary.evolve_id} — ${summary.experiment}: ${summary.status} (${summary.stop.message})`,
    screeningLine(summary),
    '',
    ...lineage.map((e) => `  r${e.round} v${(e.version ?? '?').padEnd(4)} ${e.status.padEnd(8)} ${(e.verdict ?? '').padEnd(15)} ${signed(e.n1_delta).padEnd(11)} ${(e.stopped_at === null ? '' : `${e.stopped_at} cases`).padEnd(10)} ${e.summary || e.reason}`),
    '',
    `n=1 pass on val: ${pct(summary.val.start?.pass)} (v${summary.start_skill.version}) → ${pct(summary.val.final?.pass)} (v${summary.val.final?.version ?? summary.start_skill.version})`,
    `tokens: ${summary.tokens.total} (diagnose ${summary.tokens.diagnose}, propose ${summary.tokens.propose}, screen ${summary.tokens.screen})${summary.tokens.budget_tokens === null ? '' : ` of budget_tokens ${summary.tokens.budget_tokens}`}`,
  ];
  const screening = summary.screening;
  if (screening.method === 'sequential' && screening.tokens_fraction !== null) lines.push(`screens: ${screening.tokens_spent} tokens, ~${Math.round(screening.tokens_fraction * 100)}% of ~${screening.tokens_full_split_estimate} for every screen on the whole split (${screening.stopped_early} of ${screening.screens} stopped early)`);
  if (summary.final_skill) lines.push(`final skill: ${summary.final_skill.file}`, `next: ${summary.gate_command ?? ''}   (test split + human review; evolve never promotes)`);
  lines.push(`loop: ${dir}  (lineage.json, summary.json, report.html)`, '');
  return lines.join('\n');
}

function screeningLine(summary: EvolveSummary): string {
  const level = `${Number((summary.correction.screen_confidence * 100).toFixed(2))}%`;
  const over = `Bonferroni over ${summary.correction.planned_screens} planned screens`;
  return summary.screening.method === 'sequential' ? `sequential screens, anytime-valid ${level} CS (${over})` : `fixed screens at ${level} (${over})`;
}
