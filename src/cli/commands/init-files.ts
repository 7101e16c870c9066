/**
 * What `isobudget init` writes, as relative path → text: the experiment, its JSON Schema,
 * two skills and the three splits. Pure: the command does the file system.
 */
import type { EvalCase } from '../../core/case.js';
import type { PresetName } from '../../config/presets.js';
import type { SplitName } from '../../config/types.js';
import { INIT_SHARES, splitByHash } from '../../datasets/split-by-hash.js';
import { sampleRows } from './init-sample.js';
import { experimentYaml, SCHEMA_FILE, skillFiles, type TemplateOptions } from './init-template.js';

export const SPLITS: readonly SplitName[] = ['train', 'val', 'test'];

export interface InitPlan {
  /** Relative path (forward slashes) → file text, in the order they are written. */
  files: Array<{ path: string; text: string }>;
  /** Cases per split. */
  counts: Record<SplitName, number>;
}

export interface InitSource {
  /** The cases of `--from-dataset`, and its name for the comment; undefined: the starter set. */
  cases: readonly EvalCase[];
  file: string;
  scorer: TemplateOptions['scorer'];
}

/** One dataset row as JSONL: the loaded case in the canonical keys (what any scorer reads). */
function caseRow(c: EvalCase): Record<string, unknown> & { id: string } {
  return {
    id: c.id,
    ...(c.messages ? { messages: c.messages } : { input: c.input }),
    ...(c.expected === undefined ? {} : { expected: c.expected }),
    ...(c.reference === undefined || c.reference === c.expected ? {} : { reference: c.reference }),
    ...(c.category === undefined ? {} : { category: c.category }),
    ...(c.tags.length === 0 ? {} : { tags: c.tags }),
    ...(c.cluster === undefined ? {} : { cluster: c.cluster }),
    ...(Object.keys(c.metadata).length === 0 ? {} : { metadata: c.metadata }),
  };
}

const jsonl = (rows: readonly unknown[]): string => rows.map((row) => `${JSON.stringify(row)}\n`).join('');

export function planInit(options: { name: string; preset: PresetName; schema: Record<string, unknown>; source?: InitSource }): InitPlan {
  const { source } = options;
  const rows: ReadonlyArray<{ id: unknown }> = source ? source.cases.map(caseRow) : sampleRows();
  const splits = splitByHash(rows, (row) => String(row.id), INIT_SHARES);
  const template: TemplateOptions = {
    name: options.name,
    preset: options.preset,
    scorer: source?.scorer ?? { yaml: '{ type: numeric, tolerance: 1e-6 }', comment: 'Here: the last number of the answer must equal the expected number (within 1e-6).' },
    dataNote: source ? `Split by hash of each id from ${source.file}.` : `A starter set of ${rows.length} arithmetic cases, split by hash of id.`,
  };
  const skills = skillFiles(options.name, source ? 'dataset' : 'arithmetic');
  return {
    files: [
      { path: 'experiment.yaml', text: experimentYaml(template) },
      { path: SCHEMA_FILE, text: `${JSON.stringify(options.schema, null, 2)}\n` },
      { path: 'skills/baseline.md', text: skills.baseline },
      { path: 'skills/candidate.md', text: skills.candidate },
      ...SPLITS.map((split) => ({ path: `data/${split}.jsonl`, text: jsonl(splits[split]) })),
    ],
    counts: { train: splits.train.length, val: splits.val.length, test: splits.test.length },
  };
}
