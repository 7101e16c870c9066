/**
 * `isobudget rescore RUN [--scorer-file scorer.yaml | --config EXPERIMENT.yaml]` — a new run
 * directory from a recorded run's outputs and calls, scored again, with its own verdict and
 * report; no model call leaves the process. Judge scorers would call a model: without
 * `--allow-calls` they are refused; with it they run again, budgeted like a run.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { loadConfig, parseConfigText } from '../../config/index.js';
import type { ScorerConfig, SelectorConfig } from '../../config/types.js';
import { IsobudgetError } from '../../core/errors.js';
import { findRunDir } from '../../ledger/find-run.js';
import type { Manifest } from '../../ledger/manifest.js';
import { checkRunId, newRunId, readJsonFile, runPaths } from '../../ledger/run-dir.js';
import { needsModelCalls, rescoreRun } from '../../rescore/rescore-run.js';
import { wrapToWidth } from '../../report/text-wrap.js';
import { parseCommandArgs } from '../args.js';
import { GATE_OPTION, JSON_OPTION, MARKDOWN_OPTION, NO_REPORT_OPTION, RUNS_OUT_OPTION } from '../common-options.js';
import { terminalColumns } from '../io.js';
import { finishRun } from './finish-run.js';
import type { CommandSpec } from './spec.js';

const USAGE = `isobudget rescore RUN [--scorer-file scorer.yaml | --config EXPERIMENT.yaml] [--run-id ID] [--out runs]
       [--gate] [--json] [--markdown] [--no-report]
  RUN: a run directory, its id, its unique start, or latest. The new run reuses RUN's outputs and calls
  (0 new tokens; calls.jsonl copied, the source named in manifest.json's rescored_from) and gets its own verdict.
  --scorer-file: a YAML file with \`scorer:\` (and optionally \`selector:\`), as in an experiment;
  --config: the scorer and selector of that experiment; neither: the run's own scorer (a check of the recorded verdict).
  --allow-calls: a judge scorer (or a verifier selector's judge) calls a model again through the run's provider
  config, recorded in the new calls.jsonl with role judge and counted toward B only with budget.include_judge.`;

export const rescoreCommand: CommandSpec = {
  summary: 'score a recorded run again with another scorer: a new run from the same outputs and calls, 0 new tokens, a new verdict',
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs('rescore', argv, {
      'scorer-file': { type: 'string', value: 'FILE', help: 'a YAML file with `scorer:` (and optionally `selector:`), the keys of an experiment', example: 'scorer.yaml' },
      config: { type: 'string', value: 'EXPERIMENT.yaml', help: 'take the scorer and selector of this experiment', example: 'experiment.yaml' },
      'allow-calls': { type: 'boolean', help: 're-run judge scorers: model calls through the run\'s provider, recorded with role judge, toward B only with budget.include_judge; without it judge scorers are refused' },
      'run-id': { type: 'string', value: 'ID', help: 'the new run\'s id', fallback: 'bf-DATE-TIME-RANDOM', example: 'rescored-1' },
      out: RUNS_OUT_OPTION,
      gate: GATE_OPTION,
      json: JSON_OPTION,
      markdown: MARKDOWN_OPTION,
      'no-report': NO_REPORT_OPTION,
    }, USAGE);
    const run = positionals[0];
    if (run === undefined) throw new IsobudgetError('usage', 'rescore: missing RUN', { hint: USAGE });
    if (values['scorer-file'] !== undefined && values.config !== undefined) throw new IsobudgetError('usage', 'rescore: give --scorer-file or --config, not both');
    const sourceDir = findRunDir(run, { cwd: io.cwd, ...(values.out === undefined ? {} : { runsDir: values.out }) });
    const manifest = readJsonFile<Manifest>(runPaths(sourceDir).manifest, 'manifest.json');
    const chosen = await chooseScorer(values, manifest, io.cwd);
    const calls = needsModelCalls(chosen.scorer, chosen.selector);
    if (calls !== undefined && values['allow-calls'] !== true) {
      throw new IsobudgetError('usage', `rescore: ${calls}, which would call a model; rescore re-applies scorers that need none`, {
        hint: 'use a scorer that needs no model (exact, numeric, regex, json, module, command…), or pass --allow-calls to run the judge again (model calls, budgeted like a run)',
      });
    }
    const runId = values['run-id'] ?? newRunId();
    checkRunId(runId);
    const outDir = resolve(io.cwd, values.out ?? 'runs');
    const outcome = await rescoreRun({ sourceDir, outDir, runId, scorer: chosen.scorer, selector: chosen.selector, scorerSource: chosen.source, signal: io.signal, allowCalls: values['allow-calls'] === true, env: io.env });
    const spent = outcome.newCalls === 0 ? '0 new tokens' : `${outcome.newCalls} new judge calls, ${outcome.newTokens.toLocaleString('en-US')} tokens`;
    const note = `rescored run ${manifest.run_id} with ${chosen.source} (${chosen.scorer.type}): ${outcome.results} results, ${spent} → ${outcome.runDir}\n`;
    (values.json === true ? io.stderr : io.stdout).write(wrapToWidth(note, terminalColumns(io.stdout)));
    return finishRun(outcome.runDir, io, { gate: values.gate === true, json: values.json === true, markdown: values.markdown === true, report: values['no-report'] !== true });
  },
};

async function chooseScorer(values: { 'scorer-file'?: string | undefined; config?: string | undefined }, manifest: Manifest, cwd: string): Promise<{ scorer: ScorerConfig; selector: SelectorConfig; source: string }> {
  if (values.config !== undefined) {
    const config = await loadConfig(resolve(cwd, values.config));
    return { scorer: config.scorer, selector: config.selector, source: values.config };
  }
  if (values['scorer-file'] !== undefined) {
    const file = resolve(cwd, values['scorer-file']);
    const text = readScorerFile(file);
    const top = parseYaml(text) as unknown;
    const keys = top !== null && typeof top === 'object' && !Array.isArray(top) ? Object.keys(top) : [];
    const extra = keys.filter((key) => key !== 'scorer' && key !== 'selector');
    if (!keys.includes('scorer') || extra.length > 0) {
      throw new IsobudgetError('usage', `${file}: a scorer file holds \`scorer:\` and optionally \`selector:\`${extra.length > 0 ? `, not ${extra.map((k) => `\`${k}\``).join(', ')}` : ''}`, { hint: 'e.g. scorer: { type: regex, pattern: "^\\\\d+$" }' });
    }
    // The scorer keys checked by the experiment schema itself (same errors, same lines), in a
    // stand-in experiment whose other keys are never used.
    const config = parseConfigText(`${text}\nexperiment: rescore\nprovider: { preset: sim }\nmodels: { candidate: sim-small }\ndatasets: { val: unused.jsonl }\n`, file);
    return { scorer: config.scorer, selector: keys.includes('selector') ? config.selector : manifest.config.selector, source: values['scorer-file'] };
  }
  return { scorer: manifest.config.scorer, selector: manifest.config.selector, source: 'the run\'s own scorer' };
}

function readScorerFile(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    throw new IsobudgetError('usage', `rescore: cannot read ${file}`, { hint: 'check the path of --scorer-file' });
  }
}
