/**
 * `isobudget import promptfoo results.json` / `isobudget import inspect BASELINE CANDIDATE`:
 * another tool's eval results as a run directory that `analyze`, `report`, `compare` and
 * `export otel` read like any run (src/import); `memory ingest` refuses it by name (no B).
 */
import { basename, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { IsobudgetError } from '../../core/errors.js';
import { writeImportedRun } from '../../import/write-run.js';
import type { ImportedRun } from '../../import/imported-run.js';
import { parseCommandArgs, unknownSubcommand } from '../args.js';
import { EXIT } from '../exit-codes.js';
import type { CommandSpec } from './spec.js';

const USAGE = `isobudget import promptfoo RESULTS.json [--baseline ID --candidate ID] [--out runs/<id>]
isobudget import inspect BASELINE_LOG CANDIDATE_LOG [--scorer NAME] [--out runs/<id>]   each LOG.eval or LOG.json (one log per model)
then: isobudget analyze runs/<id> (also --csv) | report | compare | export otel — with B unknown (neither tool runs under a token budget) and n=1 only;
  memory ingest refuses an import (a memory record needs its B)`;

export const importCommand: CommandSpec = {
  summary: 'import promptfoo results or inspect logs as a run (analyze, report, compare, export read it; B unknown, n=1)',
  subcommands: ['promptfoo', 'inspect'],
  async run(argv, io) {
    const { positionals, values } = parseCommandArgs('import', argv, {
      out: { type: 'string', value: 'DIR', help: 'the run directory to create (its name is the run id; never overwritten)', fallback: 'runs/<tool>-<date>-<time>-<hex>', example: 'runs/pf-2026-06-01' },
      baseline: { type: 'string', value: 'ID', help: 'promptfoo: the baseline column, by prompt label, provider id/label, provider/label or prompt id', fallback: 'the first of exactly two columns', example: 'skill-v2' },
      candidate: { type: 'string', value: 'ID', help: 'promptfoo: the candidate column (as --baseline)', fallback: 'the second of exactly two columns', example: 'skill-v3' },
      scorer: { type: 'string', value: 'NAME', help: 'inspect: the scorer whose value decides `passed` (full credit: C, 1, true, yes)', fallback: 'the first scorer of each sample', example: 'match' },
    }, USAGE);
    const [tool, ...files] = positionals;
    if (tool !== 'promptfoo' && tool !== 'inspect') throw unknownSubcommand('import', tool, ['promptfoo', 'inspect'], USAGE);
    const now = new Date();
    const out = resolve(io.cwd, values.out ?? `runs/${tool === 'promptfoo' ? 'pf' : 'inspect'}-${stamp(now)}-${randomBytes(2).toString('hex')}`);
    const runId = basename(out);
    let run: ImportedRun;
    if (tool === 'promptfoo') {
      if (files.length !== 1) throw new IsobudgetError('usage', `import promptfoo: pass one results file, got ${files.length}`, { hint: USAGE });
      if (values.scorer !== undefined) throw new IsobudgetError('usage', 'import promptfoo: --scorer applies to inspect logs; promptfoo\'s `success` decides passed', { hint: USAGE });
      const { importPromptfoo } = await import('../../import/promptfoo/import-promptfoo.js');
      run = importPromptfoo(resolve(io.cwd, files[0] as string), runId, { baseline: values.baseline, candidate: values.candidate }, now);
    } else {
      if (files.length !== 2) throw new IsobudgetError('usage', `import inspect: pass two logs, the baseline's and the candidate's (an inspect log holds one model), got ${files.length}`, { hint: USAGE });
      if (values.baseline !== undefined || values.candidate !== undefined) throw new IsobudgetError('usage', 'import inspect: the first log is the baseline, the second the candidate (--baseline/--candidate pick promptfoo columns)', { hint: USAGE });
      const { importInspect } = await import('../../import/inspect/import-inspect.js');
      run = await importInspect(resolve(io.cwd, files[0] as string), resolve(io.cwd, files[1] as string), runId, { scorer: values.scorer }, now);
    }
    writeImportedRun(out, run);
    const cases = new Set(run.results.map((r) => r.case_id)).size;
    const epochs = run.manifest.config.epochs;
    io.stdout.write(`imported ${tool}: ${cases} cases × ${epochs} epoch(s), ${run.manifest.config.variants.baseline.id} (baseline) vs ${run.manifest.config.variants.candidate.id} (candidate), ${run.calls.length} calls (${run.calls.filter((c) => c.usage_missing).length} without usage)\n`);
    io.stdout.write(`  B unknown (${tool} runs under no token budget): not a same-budget comparison; n=1 only\nrun: ${out}\nnext: isobudget analyze ${out}\n`);
    return EXIT.ok;
  },
};

function stamp(now: Date): string {
  return now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
}
