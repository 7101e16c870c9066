/**
 * The command table. Each command's module — and what it imports (SDKs, tokenizer, SQLite,
 * Vega) — loads only when that command runs, so `isobudget analyze` does not pay for `run`.
 */
import type { CommandSpec } from './spec.js';

function lazy(summary: string, load: () => Promise<CommandSpec>, subcommands?: readonly string[]): CommandSpec {
  return { summary, ...(subcommands ? { subcommands } : {}), run: async (argv, io) => (await load()).run(argv, io) };
}

export const commands: Record<string, CommandSpec> = {
  init: lazy('create a runnable experiment: commented experiment.yaml + its JSON Schema, two skills, train/val/test data', async () => (await import('./init.js')).initCommand),
  run: lazy('run baseline and candidate, n=1 and n=N, under one token budget; print the table and the verdict', async () => (await import('./run.js')).runCommand),
  rescore: lazy('score a recorded run again with another scorer: a new run from the same outputs and calls, 0 new tokens, a new verdict', async () => (await import('./rescore.js')).rescoreCommand),
  analyze: lazy('paired statistics and the verdict for a run directory, or for a seed-format ledger (--ledger)', async () => (await import('./analyze.js')).analyzeCommand),
  report: lazy('write the HTML report of a run (verdict, pass rate vs tokens, arms, categories, regressions, cases)', async () => (await import('./report.js')).reportCommand),
  compare: lazy('what moved between two runs on the same cases (per arm, paired by case), and which cases flipped', async () => (await import('./compare.js')).compareCommand),
  canary: lazy('canary: sticky assignment of users, and analysis of production events (continue / rollback / promote)', async () => (await import('./canary.js')).canaryCommand, ['assign', 'analyze']),
  audit: lazy('direction audit: is the system getting better, or only more expensive? (trends, cost drift)', async () => (await import('./audit.js')).auditCommand),
  attribute: lazy('name fake-evolution signals: length gaming, pass@N posing as pass@1, tool redundancy, eval drift, hidden regressions', async () => (await import('./attribute.js')).attributeCommand),
  validate: lazy('check an experiment: config keys, skill files, datasets, split overlap (no model calls)', async () => (await import('./validate.js')).validateCommand),
  schema: lazy('print the JSON Schema of experiment.yaml (for editor completion)', async () => (await import('./schema.js')).schemaCommand),
  doctor: lazy('check the provider config and key env var, make one hello-world call, record its tokens', async () => (await import('./doctor.js')).doctorCommand),
  runs: lazy('list the runs (id, experiment, status, verdict, cases, tokens, cost, age) or remove one (runs rm ID)', async () => (await import('./runs.js')).runsCommand),
  ledger: lazy('ledger index RUN_DIR (rebuild the SQLite index) | ledger show RUN_DIR (a quick look)', async () => (await import('./ledger.js')).ledgerCommand),
  sim: lazy('sim serve: the embedded simulator as an OpenAI chat/responses + Anthropic messages server', async () => (await import('./sim.js')).simCommand),
  calibrate: lazy('false-promotion rate, power and cases needed for 80% power, by simulating many experiments', async () => (await import('./calibrate.js')).calibrateCommand, ['--evolve']),
  gateway: lazy('a local gateway that records every call of Claude Code, Codex or any client and enforces per-key token budgets', async () => (await import('./gateway.js')).gatewayCommand),
  clients: lazy('write or lint Claude Code / Codex / CC Switch configs (and CC Switch import links) for a provider or the gateway', async () => (await import('./clients.js')).clientsCommand),
  memory: lazy('governed memory: ingest verdicts and .learnings/, search/export (negative patterns first), history, conflicts, decay, rollback', async () => (await import('./memory.js')).memoryCommand, ['ingest', 'import-learnings', 'search', 'export', 'show', 'conflicts', 'decay', 'rollback', 'retire', 'config']),
  gate: lazy('five-layer promotion gate for a candidate skill: format + contamination, regression, test-split significance, budget, human review', async () => (await import('./gate.js')).gateCommand),
  evolve: lazy('the self-evolution loop: diagnose on train, propose skill diffs, screen on val at the same budget, accept only corrected real_evolution, remember, repeat', async () => (await import('./evolve.js')).evolveCommand),
  datasets: lazy('datasets add-failures EVENTS.jsonl --experiment EXPERIMENT.yaml: production failures into train/val/test, with their budget and n', async () => (await import('./datasets.js')).datasetsCommand, ['add-failures']),
  worker: lazy('execute the units of distributed runs (isobudget run --distributed) from the team database', async () => (await import('./worker.js')).workerCommand),
  workers: lazy('list the worker processes of the team database (alive/dead, version, units, last heartbeat)', async () => (await import('./workers.js')).workersCommand),
  db: lazy('team database (PostgreSQL): db migrate applies the schema, db status shows it', async () => (await import('./db.js')).dbCommand),
  view: lazy('the local web viewer: runs, a run and its cases, compare, review (approve / reject), memory, evolve, spend', async () => (await import('./view.js')).viewCommand),
  export: lazy('export otel: runs and gateway calls as OpenTelemetry traces (OTLP/HTTP) for Langfuse, Phoenix or any collector', async () => (await import('./export.js')).exportCommand, ['otel']),
  import: lazy('import promptfoo results or inspect logs as a run (analyze, report, compare, export read it; B unknown, n=1)', async () => (await import('./import.js')).importCommand, ['promptfoo', 'inspect']),
  review: lazy('human review queue: cards for candidates that passed gate layers 1–4 (and other must-have-a-human changes); approve / reject / defer', async () => (await import('./review.js')).reviewCommand),
};
