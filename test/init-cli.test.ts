/**
 * `isobudget init` (issue 15, item 1): in an empty directory it writes an experiment that
 * `validate` accepts without a warning and `run` runs at once on the simulator; it refuses
 * to overwrite; `--from-dataset` splits a file deterministically by hash.
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { experimentJsonSchema } from '../src/config/index.js';
import { checkSkillFile } from '../src/gates/skill-file.js';
import { BIN, runCli } from './support/cli.js';

const emptyDir = (): string => mkdtempSync(join(tmpdir(), 'isobudget-init-'));
const FILES = ['experiment.yaml', 'experiment.schema.json', 'skills/baseline.md', 'skills/candidate.md', 'data/train.jsonl', 'data/val.jsonl', 'data/test.jsonl'];
const snapshot = (dir: string): Record<string, string> => Object.fromEntries(FILES.filter((f) => existsSync(join(dir, f))).map((f) => [f, readFileSync(join(dir, f), 'utf8')]));
const lines = (text: string): string[] => text.split('\n').filter((line) => line.trim() !== '');

test('init in an empty directory, then validate and run on what it wrote (the built CLI, the simulator)', async () => {
  const cwd = emptyDir();
  const init = await runCli(['init', 'first'], { cwd });
  expect(init.code, init.stderr).toBe(0);
  for (const file of FILES) expect(existsSync(join(cwd, 'first', file)), file).toBe(true);
  // The next three commands, runnable from where init was run: outside the clone, without
  // isobudget on PATH, that is node and the bin's path (a bare `npx isobudget` would ask the registry).
  expect(init.stdout).toContain(`next:\n  node ${BIN} validate first/experiment.yaml\n  node ${BIN} doctor first/experiment.yaml\n  node ${BIN} run first/experiment.yaml\n`);

  const validate = await runCli(['validate', 'first/experiment.yaml', '--strict'], { cwd });
  expect(validate.code, validate.stderr).toBe(0);
  expect(validate.stderr).toBe('');
  const counts = [...validate.stdout.matchAll(/dataset ok: (\w+) (\d+) cases/g)].map((m) => [m[1], Number(m[2])]);
  expect(counts.map(([split]) => split)).toEqual(['train', 'val', 'test']);
  expect(counts.reduce((sum, [, n]) => sum + Number(n), 0)).toBe(80);

  const run = await runCli(['run', 'first/experiment.yaml', '--quiet'], { cwd });
  expect(run.code, run.stderr).toBe(0);
  expect(run.stdout).toMatch(/verdict: [A-Z_]+/);
  const runs = readdirSync(join(cwd, 'runs'));
  expect(runs).toHaveLength(1);
  const manifest = JSON.parse(readFileSync(join(cwd, 'runs', runs[0] as string, 'manifest.json'), 'utf8')) as { status: string; experiment: string };
  expect(manifest).toMatchObject({ status: 'complete', experiment: 'first' });
}, 30_000);

describe('what init writes', () => {
  const cwd = emptyDir();
  const written = runCli(['init'], { cwd }).then((result) => ({ result, files: snapshot(cwd) }));

  test('experiment.yaml: the schema line first, pointing at the schema file it wrote (the `schema` command\'s output)', async () => {
    const { result, files } = await written;
    expect(result.code, result.stderr).toBe(0);
    expect(files['experiment.yaml']?.split('\n')[0]).toBe('# yaml-language-server: $schema=./experiment.schema.json');
    const schema = await runCli(['schema'], { cwd });
    expect(files['experiment.schema.json']).toBe(schema.stdout);
    expect(result.stdout).toContain(`node ${BIN} validate experiment.yaml`);
  });

  test('every section of the schema is in experiment.yaml, set or commented with its default', async () => {
    const { files } = await written;
    const yaml = files['experiment.yaml'] ?? '';
    const schema = experimentJsonSchema() as { properties: Record<string, { properties?: Record<string, unknown>; anyOf?: unknown }> };
    const keyed = (key: string): boolean => new RegExp(`^ *#? *${key}:`, 'm').test(yaml) || new RegExp(`[{,] ${key}:`).test(yaml);
    for (const key of Object.keys(schema.properties)) expect(keyed(key), key).toBe(true);
    for (const section of ['provider', 'budget', 'gates', 'datasets'] as const) {
      const inner = Object.keys(schema.properties[section]?.properties ?? {});
      expect(inner.length, section).toBeGreaterThan(1);
      for (const key of inner) expect(keyed(key), `${section}.${key}`).toBe(true);
    }
    // Defaults shown are the loader's defaults.
    expect(yaml).toMatch(/^ {2}# timeout_ms: 60000 /m);
    expect(yaml).toMatch(/min_same_budget_gain: 0\.08 /);
  });

  test('two skills with front matter gate layer 1 accepts, and different instructions', async () => {
    const { files } = await written;
    for (const skill of ['skills/baseline.md', 'skills/candidate.md']) expect(checkSkillFile(files[skill] ?? '', skill).problems).toEqual([]);
    expect(files['skills/baseline.md']).not.toBe(files['skills/candidate.md']);
  });

  test('a second init refuses (exit 2, one clear line, nothing touched); --force overwrites', async () => {
    const { files } = await written;
    writeFileSync(join(cwd, 'experiment.yaml'), 'experiment: mine\n');
    const again = await runCli(['init'], { cwd });
    expect(again.code).toBe(2);
    expect(lines(again.stderr)[0]).toBe('isobudget init: 7 files exist (experiment.yaml, experiment.schema.json, skills/baseline.md, skills/candidate.md, data/train.jsonl, data/val.jsonl, data/test.jsonl); nothing was written');
    expect(again.stderr).toContain('--force');
    expect(readFileSync(join(cwd, 'experiment.yaml'), 'utf8')).toBe('experiment: mine\n');
    const forced = await runCli(['init', '--force'], { cwd });
    expect(forced.code, forced.stderr).toBe(0);
    expect(snapshot(cwd)).toEqual(files);
  });
});

test('one existing file is enough to refuse, and nothing else is written', async () => {
  const cwd = emptyDir();
  writeFileSync(join(cwd, 'experiment.schema.json'), '{}');
  const result = await runCli(['init'], { cwd });
  expect(result.code).toBe(2);
  expect(lines(result.stderr)[0]).toBe('isobudget init: experiment.schema.json exists; nothing was written');
  expect(readdirSync(cwd)).toEqual(['experiment.schema.json']);
});

test('--from-dataset: a partition of the file by hash of id, the same every time; --provider sets the preset', async () => {
  const cwd = emptyDir();
  const rows = Array.from({ length: 60 }, (_, i) => JSON.stringify({ id: `q${i}`, input: `Question ${i}?`, expected: `answer ${i}` }));
  writeFileSync(join(cwd, 'mine.jsonl'), `${rows.join('\n')}\n`);
  const first = await runCli(['init', 'a', '--from-dataset', 'mine.jsonl', '--provider', 'openai'], { cwd });
  const second = await runCli(['init', 'b', '--from-dataset', 'mine.jsonl', '--provider', 'openai'], { cwd });
  expect(first.code, first.stderr).toBe(0);
  expect(second.code, second.stderr).toBe(0);
  const ids = (dir: string, split: string): string[] => lines(readFileSync(join(cwd, dir, 'data', `${split}.jsonl`), 'utf8')).map((line) => (JSON.parse(line) as { id: string }).id);
  const all = ['train', 'val', 'test'].flatMap((split) => ids('a', split));
  expect(all.sort()).toEqual(Array.from({ length: 60 }, (_, i) => `q${i}`).sort());
  for (const split of ['train', 'val', 'test']) {
    expect(ids('a', split).length, split).toBeGreaterThan(0);
    expect(ids('b', split)).toEqual(ids('a', split));
  }
  const yaml = readFileSync(join(cwd, 'a', 'experiment.yaml'), 'utf8');
  expect(yaml).toMatch(/^ {2}preset: openai$/m);
  expect(yaml).toMatch(/^scorer: normalized$/m);
  // The key variable is unset here: validate says so (the one thing left to do).
  const validate = await runCli(['validate', 'a/experiment.yaml'], { cwd });
  expect(validate.code, validate.stderr).toBe(0);
  expect(validate.stderr).toMatch(/OPENAI_API_KEY is not set/);
});

test('DIR that is a file, a --from-dataset that does not exist: one line, exit 2, nothing written', async () => {
  const cwd = emptyDir();
  writeFileSync(join(cwd, 'notes.txt'), 'x');
  const file = await runCli(['init', 'notes.txt'], { cwd });
  expect(file.code).toBe(2);
  expect(lines(file.stderr)[0]).toBe('isobudget init: notes.txt is a file, not a directory; nothing was written');
  const missing = await runCli(['init', 'exp', '--from-dataset', 'nope.jsonl'], { cwd });
  expect(missing.code).toBe(2);
  expect(lines(missing.stderr)[0]).toBe(`isobudget init: --from-dataset: dataset file not found: ${join(cwd, 'nope.jsonl')}`);
  expect(readdirSync(cwd)).toEqual(['notes.txt']);
});

test('an unknown --provider gets a did-you-mean and exit 2', async () => {
  const result = await runCli(['init', '--provider', 'opneai'], { cwd: emptyDir() });
  expect(result.code).toBe(2);
  expect(result.stderr).toMatch(/^isobudget init: unknown --provider 'opneai'; did you mean 'openai'\?/);
});
