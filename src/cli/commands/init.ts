/**
 * `isobudget init [DIR]` — a runnable experiment to start from: a commented experiment.yaml
 * (with the JSON Schema editors complete it from), two skills, train/val/test splits, and
 * the next three commands. Refuses to overwrite anything without `--force`.
 */
import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { experimentJsonSchema } from '../../config/index.js';
import { PRESET_NAMES, type PresetName } from '../../config/presets.js';
import { didYouMean } from '../../config/did-you-mean.js';
import { IsobudgetError } from '../../core/errors.js';
import { decodeUtf8, MAX_DATA_FILE_BYTES, readInputFile } from '../../core/input-file.js';
import { loadDatasetFile, type DatasetFields } from '../../datasets/index.js';
import { formatOf, readRecords, unpack } from '../../datasets/records.js';
import { parseCommandArgs } from '../args.js';
import { EXIT } from '../exit-codes.js';
import { planInit, SPLITS, type InitSource } from './init-files.js';
import { guessFields, guessScorer } from './init-scorer.js';
import type { CommandSpec } from './spec.js';
import { isobudgetInvocation } from '../invocation.js';

const USAGE = `isobudget init [DIR] [--provider PRESET] [--from-dataset FILE] [--force]
  writes DIR/experiment.yaml (every section, defaults shown), DIR/experiment.schema.json,
  DIR/skills/baseline.md and candidate.md, DIR/data/train|val|test.jsonl; DIR defaults to .`;

export const initCommand: CommandSpec = {
  summary: 'create a runnable experiment: commented experiment.yaml + its JSON Schema, two skills, train/val/test data',
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs('init', argv, {
      provider: { type: 'string', value: 'PRESET', help: `the provider preset: ${PRESET_NAMES.join(', ')}`, fallback: 'sim', example: 'openai' },
      'from-dataset': { type: 'string', value: 'FILE', help: 'split this dataset (JSONL, CSV, .gz) into train/val/test by hash of id, instead of the starter cases', example: 'gsm8k.jsonl' },
      force: { type: 'boolean', help: 'overwrite files that exist' },
    }, USAGE);
    if (positionals.length > 1) throw new IsobudgetError('usage', `one DIR at most, got ${positionals.length}`, { hint: USAGE });
    const preset = parsePreset(values.provider ?? 'sim');
    const dir = resolve(io.cwd, positionals[0] ?? '.');
    if (existsSync(dir) && !statSync(dir).isDirectory()) throw new IsobudgetError('usage', `${shownPath(io.cwd, dir)} is a file, not a directory; nothing was written`, { hint: 'name a new or existing directory: isobudget init my-experiment' });
    const source = values['from-dataset'] === undefined ? undefined : await readSource(resolve(io.cwd, values['from-dataset']), io.cwd);
    const plan = planInit({ name: experimentName(dir), preset, schema: experimentJsonSchema(), ...(source ? { source } : {}) });
    const empty = SPLITS.filter((split) => plan.counts[split] === 0);
    if (empty.length > 0 && source) {
      throw new IsobudgetError('usage', `${source.file} has ${source.cases.length} case(s): too few to split, ${empty.join(' and ')} would be empty`, { hint: 'give a dataset of at least 20 cases, or write the splits by hand' });
    }
    const targets = plan.files.map((file) => ({ ...file, absolute: join(dir, file.path) }));
    const existing = targets.filter((file) => existsSync(file.absolute));
    if (existing.length > 0 && values.force !== true) {
      const shown = existing.map((file) => shownPath(io.cwd, file.absolute));
      throw new IsobudgetError('usage', `${shown.length === 1 ? `${shown[0]} exists` : `${shown.length} files exist (${shown.join(', ')})`}; nothing was written`, { hint: 'pass --force to overwrite them, or choose another DIR: isobudget init my-experiment' });
    }
    for (const file of targets) {
      mkdirSync(dirname(file.absolute), { recursive: true });
      writeFileSync(file.absolute, file.text);
    }
    const config = shownPath(io.cwd, join(dir, 'experiment.yaml'));
    const where = shownPath(io.cwd, dir);
    io.stdout.write(`wrote ${where === '.' ? 'the current directory' : `${where}/`}: ${plan.files.map((f) => f.path).join(', ')}\n`);
    io.stdout.write(`data: ${SPLITS.map((split) => `${split} ${plan.counts[split]}`).join(', ')} cases${source ? ` from ${source.file}` : ''}${source?.fields ? ` (read ${Object.entries(source.fields).map(([role, key]) => `${role} from \`${key}\``).join(', ')})` : ''}\n`);
    // What works from here: isobudget on PATH, npx inside the clone, else node and the bin's path.
    const cli = isobudgetInvocation(io.env, io.cwd);
    io.stdout.write(`next:\n  ${cli} validate ${config}\n  ${cli} doctor ${config}\n  ${cli} run ${config}\n`);
    return EXIT.ok;
  },
};

function parsePreset(value: string): PresetName {
  const preset = PRESET_NAMES.find((name) => name === value);
  if (preset !== undefined) return preset;
  const guess = didYouMean(value, PRESET_NAMES);
  throw new IsobudgetError('usage', `unknown --provider '${value}'${guess ? `; did you mean '${guess}'?` : ''}`, { hint: `one of ${PRESET_NAMES.join(', ')}` });
}

/** The directory's name as an experiment id (letters, digits, . _ -). */
function experimentName(dir: string): string {
  const name = basename(dir).replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[^A-Za-z0-9]+/, '');
  return name === '' ? 'my-experiment' : name;
}

function shownPath(cwd: string, path: string): string {
  const rel = relative(cwd, path);
  if (rel === '') return '.';
  return rel.startsWith('..') ? path : rel;
}

async function readSource(file: string, cwd: string): Promise<InitSource & { fields: DatasetFields | undefined }> {
  const fields = guessFields(await firstRow(file));
  const { cases } = await loadDatasetFile(file, { configKey: '--from-dataset', ...(fields ? { fields } : {}) });
  return { cases, file: shownPath(cwd, file), scorer: guessScorer(cases), fields };
}

/** The first row of a dataset file that is an object (`{}` when none is): what guessFields looks at. */
async function firstRow(file: string): Promise<Record<string, unknown>> {
  const bytes = await readInputFile(file, { what: 'dataset file', code: 'dataset', maxBytes: MAX_DATA_FILE_BYTES, location: { key: '--from-dataset' } });
  const records = readRecords(decodeUtf8(unpack(bytes, file), file, { what: 'dataset file', code: 'dataset' }), file, formatOf(file).format);
  const row = records.find((entry): entry is { line: number; value: Record<string, unknown> } => 'value' in entry && entry.value !== null && typeof entry.value === 'object' && !Array.isArray(entry.value));
  return row?.value ?? {};
}
