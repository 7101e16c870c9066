/**
 * `isobudget gate EXPERIMENT.yaml` — the five-layer promotion gate. CANDIDATE is an
 * experiment config: its candidate variant's skill file is the candidate, its baseline
 * variant what it must beat. `--show GATE_ID` / `--list` read recorded gates.
 */
import { resolve } from 'node:path';
import { IsobudgetError } from '../../core/errors.js';
import { runGate } from '../../gates/run-gate.js';
import type { GateTrial } from '../../gates/trial.js';
import { governanceStoreOpener } from './team-db.js';
import type { MemoryStore } from '../../memory/store/spec.js';
import type { GateLayerResult, GateRun } from '../../memory/store/records.js';
import { renderCard } from '../../review/card.js';
import type { VerdictName } from '../../verdict/record.js';
import { intOption, parseCommandArgs } from '../args.js';
import { DB_OPTION, JSON_OPTION, RUNS_OUT_OPTION, STORE_OPTION } from '../common-options.js';
import { EXIT } from '../exit-codes.js';
import type { CliIO } from '../io.js';
import { CASE_FLAGS, caseSelection } from './run-size-flags.js';
import type { CommandSpec } from './spec.js';

/** Layers 1–4 passed and a human decision is pending (`isobudget review`). Not in EXIT: specific to this command. */
export const AWAITING_REVIEW = EXIT.awaitingReview;

const USAGE = `isobudget gate EXPERIMENT.yaml [--baseline-config BASE.yaml] [--auto-confirm] [--max-test-uses N]
       [--contamination-min-chars N] [--limit N | --cases ID,ID… | --sample N --seed S]
       [--out runs] [--store PATH | --db URL] [--json]
isobudget gate --list | --show GATE_ID [--json] [--store PATH | --db URL]
CANDIDATE = EXPERIMENT.yaml: its candidate variant (a skill file) is the candidate; screen it on val
and \`isobudget memory ingest\` the run first — the gate runs the test split itself.
--limit/--cases/--sample make a trial on part of the test split: layers 1–4 run, it never promotes
(exit 10), and it counts as a use of the test split.
exit codes: 0 passed (promoted), 10 a layer failed, 11 regression, ${AWAITING_REVIEW} awaiting human review, 2 bad input`;

function renderLayers(gate: GateRun, layers: readonly GateLayerResult[], trial?: GateTrial): string {
  const lines = [`${trial ? `trial: ${trial.reason}\n` : ''}gate ${gate.gate_id}  ${gate.status}  candidate ${gate.candidate_id ?? '?'}${gate.memory_id ? ` (${gate.memory_id})` : ''}${gate.test_run_id ? `, test run ${gate.test_run_id}` : ''}`];
  for (const layer of layers) lines.push(`  ${layer.layer} ${layer.name.padEnd(12)} ${layer.status.padEnd(8)} ${layer.summary}`);
  return `${lines.join('\n')}\n`;
}

function exitCodeOf(gate: GateRun, verdict: VerdictName | undefined, trial: GateTrial | undefined): number {
  // A trial is not promotable whatever it saw: its exit code must not read as a decision.
  if (trial) return EXIT.notPromotable;
  if (gate.status === 'passed') return EXIT.ok;
  if (gate.status === 'awaiting_review') return AWAITING_REVIEW;
  return verdict === 'regression' ? EXIT.regression : EXIT.notPromotable;
}

async function showGates(store: MemoryStore, id: string | undefined, json: boolean, io: CliIO): Promise<number> {
  try {
    const gates = id === undefined ? await store.listGates() : [await store.getGate(id)].filter((g): g is GateRun => g !== undefined);
    if (id !== undefined && gates.length === 0) throw new IsobudgetError('not_found', `no gate ${id}`, { hint: 'isobudget gate --list' });
    const withLayers = await Promise.all(gates.map(async (gate) => ({ gate, layers: await store.listLayers(gate.gate_id) })));
    if (json) io.stdout.write(`${JSON.stringify(withLayers, null, 2)}\n`);
    else for (const { gate, layers } of withLayers) io.stdout.write(id === undefined ? `${gate.gate_id}  ${gate.status.padEnd(15)} ${gate.candidate_id ?? '?'}  ${gate.updated_at}\n` : renderLayers(gate, layers));
    if (id === undefined && !json) {
      // How often each test split has been looked at: the eval-drift count the seed asks for.
      const uses = new Map<string, { path: string | null; runs: number }>();
      for (const use of await store.listTestUses()) uses.set(use.dataset_sha256, { path: use.dataset_path, runs: (uses.get(use.dataset_sha256)?.runs ?? 0) + 1 });
      for (const [sha, use] of uses) io.stdout.write(`test split ${sha.slice(0, 12)} (${use.path ?? '?'}): used ${use.runs} time${use.runs === 1 ? '' : 's'}\n`);
    }
  } finally {
    store.close();
  }
  return EXIT.ok;
}

export const gateCommand: CommandSpec = {
  summary: 'five-layer promotion gate for a candidate skill: format + contamination, regression, test-split significance, budget, human review',
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs('gate', argv, {
      'baseline-config': { type: 'string', value: 'FILE', help: 'the experiment whose baseline the candidate must beat', fallback: 'EXPERIMENT.yaml\'s baseline variant', example: 'prod.yaml' },
      'auto-confirm': { type: 'boolean', help: 'layer 5 without a human when layers 1–4 pass and no change always needs one (recorded as auto-confirm)' },
      'max-test-uses': { type: 'string', value: 'N', help: 'refuse once the test split has been used N times (eval drift)', fallback: 'no limit', example: '5' },
      'contamination-min-chars': { type: 'string', value: 'N', help: 'shortest test/regression text that counts as leaked into the skill', fallback: '8', example: '20' },
      ...CASE_FLAGS,
      out: { ...RUNS_OUT_OPTION, help: 'the runs folder of the test-split run' },
      store: STORE_OPTION,
      db: { ...DB_OPTION, help: 'the memory store and review queue in the team database (PostgreSQL) instead of the SQLite file' },
      json: JSON_OPTION,
      list: { type: 'boolean', help: 'list the recorded gates and how often each test split was used' },
      show: { type: 'string', value: 'GATE_ID', help: 'show one recorded gate, layer by layer', example: 'gate-20261201-1' },
    }, USAGE);
    const open = await governanceStoreOpener(argv, io, 'gate');
    if (values.list || values.show !== undefined) return showGates(open(values.store), values.show, values.json === true, io);
    const configArg = positionals[0];
    if (!configArg) throw new IsobudgetError('usage', 'gate: pass the EXPERIMENT.yaml whose candidate variant is the candidate', { hint: USAGE });
    const maxTestUses = intOption('max-test-uses', values['max-test-uses']);
    const minChars = intOption('contamination-min-chars', values['contamination-min-chars']);
    const cases = caseSelection(values);
    const store = open(values.store);
    try {
      const outcome = await runGate({
        configPath: resolve(io.cwd, configArg),
        ...(values['baseline-config'] ? { baselineConfigPath: resolve(io.cwd, values['baseline-config']) } : {}),
        store,
        outDir: resolve(io.cwd, values.out ?? 'runs'),
        env: io.env,
        signal: io.signal,
        autoConfirm: values['auto-confirm'] === true,
        ...(maxTestUses === undefined ? {} : { maxTestUses }),
        ...(minChars === undefined ? {} : { contaminationMinChars: minChars }),
        ...(cases === undefined ? {} : { cases }),
      });
      if (values.json) io.stdout.write(`${JSON.stringify(outcome, null, 2)}\n`);
      else {
        for (const message of outcome.messages) io.stderr.write(`memory: ${message}\n`);
        io.stdout.write(renderLayers(outcome.gate, outcome.layers, outcome.trial));
        if (outcome.review) io.stdout.write(`\nqueued for review:\n${renderCard(outcome.review)}decide with: isobudget review   (or --decide ${outcome.review.review_id}=approve --reviewer NAME)\n`);
      }
      return exitCodeOf(outcome.gate, outcome.verdict, outcome.trial);
    } finally {
      store.close();
    }
  },
};
