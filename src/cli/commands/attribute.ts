/** `isobudget attribute RUN_DIR` — the fake-evolution detectors and where each finding routes. */
import { resolve } from 'node:path';
import { productionFailureCategories } from '../../analysis/attribution/feedback.js';
import { IsobudgetError } from '../../core/errors.js';
import { findRunDir } from '../../ledger/find-run.js';
import { renderAttribution } from '../../report/attribution-text.js';
import { verdictForRun } from '../../verdict/verdict-for-run.js';
import { intOption, parseCommandArgs } from '../args.js';
import { JSON_OPTION } from '../common-options.js';
import { EXIT } from '../exit-codes.js';
import type { CommandSpec } from './spec.js';

const USAGE = 'isobudget attribute RUN_DIR|ID|latest [--runs DIR] [--feedback FEEDBACK.jsonl] [--since-days 30] [--json]';

export const attributeCommand: CommandSpec = {
  summary: 'name fake-evolution signals: length gaming, pass@N posing as pass@1, tool redundancy, eval drift, hidden regressions',
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs('attribute', argv, {
      runs: { type: 'string', value: 'DIR', help: 'the runs folder whose history the eval-drift detector reads', fallback: 'the run\'s parent folder', example: 'runs' },
      feedback: { type: 'string', value: 'FILE', help: 'production feedback events (JSONL): their failure categories against the eval\'s', example: 'feedback.jsonl' },
      'since-days': { type: 'string', value: 'N', help: 'with --feedback: only events of the last N days', fallback: '30', example: '7' },
      json: JSON_OPTION,
    }, USAGE);
    const dir = positionals[0];
    if (!dir) throw new IsobudgetError('usage', 'attribute: missing RUN_DIR', { hint: USAGE });
    const now = new Date();
    const productionFailures = values.feedback === undefined ? undefined : productionFailureCategories(resolve(io.cwd, values.feedback), now, intOption('since-days', values['since-days']) ?? 30);
    const verdict = verdictForRun(findRunDir(dir, { cwd: io.cwd }), undefined, true, {
      now,
      ...(values.runs === undefined ? {} : { runsDir: resolve(io.cwd, values.runs) }),
      ...(productionFailures === undefined ? {} : { productionFailures }),
    });
    const attribution = verdict.attribution ?? { findings: [], flags: [] };
    if (values.json) io.stdout.write(`${JSON.stringify(attribution, null, 2)}\n`);
    else io.stdout.write(`${renderAttribution(attribution, true)}\nverdict: ${verdict.verdict} — ${verdict.reason}\n`);
    return EXIT.ok;
  },
};
