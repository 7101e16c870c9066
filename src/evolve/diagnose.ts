/**
 * Step 1 of a round: run the incumbent on the train split at n=1 under B, group its failures
 * into modes and pick the examples the proposer will see — train cases, and production
 * failures (`--failures`) that belong to train. Writes `diagnosis.json` and `diagnosis.md`;
 * a resumed loop reads them back instead of running again.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { loadRun } from '../analysis/load-run.js';
import { writeJsonAtomic } from '../ledger/run-dir.js';
import type { RunInputs } from '../runner/inputs.js';
import type { LoopContext } from './context.js';
import type { SkillFileVersion } from './derive-config.js';
import { diagnoseInputs } from './derive-config.js';
import { failureExamples, failureModes } from './failure-modes.js';
import { diagnoseRunId } from './layout.js';
import { runStep } from './run-step.js';
import { EVOLVE_SCHEMA_VERSION, type Diagnosis, type FailureExample } from './types.js';

export async function diagnoseRound(context: LoopContext, round: number, incumbent: SkillFileVersion, train: RunInputs): Promise<Diagnosis> {
  const paths = context.paths.round(round);
  if (existsSync(paths.diagnosisJson)) return JSON.parse(readFileSync(paths.diagnosisJson, 'utf8')) as Diagnosis;
  mkdirSync(paths.dir, { recursive: true });
  const runDir = await runStep(context, { inputs: diagnoseInputs(train, incumbent, context.concurrency), runId: diagnoseRunId(context.evolveId, round), outDir: paths.dir, what: `the round-${round} diagnosis on train` });
  const results = loadRun(runDir).results.filter((r) => r.arm === 'baseline_single' && r.split === 'train');
  const input = { results, cases: train.cases };
  const modes = failureModes(input);
  const limit = context.settings.failuresPerPrompt;
  const production = productionExamples(context, Math.floor(limit / 2));
  const diagnosis: Diagnosis = {
    schema_version: EVOLVE_SCHEMA_VERSION,
    round,
    incumbent_version: incumbent.version,
    run_dir: relative(context.paths.dir, runDir),
    cases: results.length,
    passed: results.filter((r) => r.passed).length,
    pass_rate: results.length === 0 ? 0 : results.filter((r) => r.passed).length / results.length,
    modes,
    examples: [...failureExamples(modes, input, limit - production.length), ...production],
    production: context.production ? { shown: production.length, not_train: context.production.notTrain, duplicates: context.production.duplicates } : null,
  };
  writeFileSync(paths.diagnosisMd, renderDiagnosis(diagnosis));
  writeJsonAtomic(paths.diagnosisJson, diagnosis);
  return diagnosis;
}

function productionExamples(context: LoopContext, limit: number): FailureExample[] {
  return (context.production?.examples ?? []).slice(0, limit).map((e) => ({
    case_id: e.id, source: 'production', category: e.category, input: e.input, expected: e.expected, output: '', reason: 'wrong_answer', finish_reason: 'stop', budget: e.budget, n: e.n,
  }));
}

export function renderDiagnosis(diagnosis: Diagnosis): string {
  const lines = [
    `# Round ${diagnosis.round} diagnosis — incumbent version ${diagnosis.incumbent_version} on train`,
    '',
    `Passed ${diagnosis.passed} of ${diagnosis.cases} train cases (${(diagnosis.pass_rate * 100).toFixed(1)}%) at n=1 under B; run \`${diagnosis.run_dir}\`.`,
    '',
    '## Failure modes',
    '',
    '| category | failure | failed | of cases | cases |',
    '|---|---|---|---|---|',
    ...diagnosis.modes.map((m) => `| ${m.category} | ${m.reason} | ${m.failures} | ${m.cases} | ${m.caseIds.slice(0, 6).join(', ')}${m.caseIds.length > 6 ? ', …' : ''} |`),
    '',
    `## Shown to the proposer (${diagnosis.examples.length})`,
    '',
    ...diagnosis.examples.map((e) => `- \`${e.case_id}\` (${e.source}, ${e.category}, ${e.reason}${e.budget === undefined ? '' : `, failed at B=${e.budget} n=${e.n}`}): ${JSON.stringify(e.input)} → expected ${JSON.stringify(e.expected)}${e.output === '' ? '' : `, got ${JSON.stringify(e.output)}`}`),
    '',
  ];
  if (diagnosis.production) lines.push(`Production failures (--failures): ${diagnosis.production.shown} shown; ${diagnosis.production.not_train} belong to val/test and are never shown; ${diagnosis.production.duplicates} duplicated an existing case.`, '');
  return lines.join('\n');
}
