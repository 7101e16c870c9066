/** `isobudget evolve` and `datasets` input errors: exit 2, one clear message naming file and key, no stack, nothing run. */
import { cpSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { main } from '../main.js';
import type { CliIO } from '../io.js';

const EXAMPLE = new URL('../../../examples/evolve-date-parser/', import.meta.url).pathname;

function setup(edit: (yaml: string) => string): { dir: string; config: string } {
  const dir = mkdtempSync(join(tmpdir(), 'isobudget-evolve-cli-'));
  cpSync(EXAMPLE, dir, { recursive: true });
  const config = join(dir, 'experiment.yaml');
  writeFileSync(config, edit(readFileSync(config, 'utf8')));
  return { dir, config };
}

async function run(argv: string[], cwd: string): Promise<{ code: number; err: string }> {
  let err = '';
  const io: CliIO = { stdout: { write: () => undefined }, stderr: { write: (text) => void (err += text) }, env: {}, cwd, signal: new AbortController().signal };
  return { code: await main(argv, io), err };
}

describe('isobudget evolve: bad input is exit 2 with file and key', () => {
  test.each([
    ['no proposer', (y: string) => y.replace(', proposer: sim-proposer', ''), 'evolve.proposer: no proposer model'],
    ['no train split', (y: string) => y.replace('  train: data/train.jsonl\n', ''), 'datasets.train: `isobudget evolve` diagnoses failures on the train split'],
    ['a judge outside B', (y: string) => y.replace('scorer: { type: normalized }', 'scorer: { type: judge, model: sim-judge }'), 'budget.include_judge: a judge scores or selects'],
    ['an unknown evolve key', (y: string) => y.replace('  rounds: 5', '  roundz: 5'), 'evolve.roundz'],
    ['an unknown screening', (y: string) => y.replace('  rounds: 5', '  rounds: 5\n  screening: adaptive'), 'evolve.screening'],
    ['refresh shares that do not add up', (y: string) => y.replace('  regression: data/regression.jsonl', '  regression: data/regression.jsonl\n  refresh: { train: 0.5, val: 0.5, test: 0.5 }'), 'the shares add up to 1.5, not 1'],
  ])('%s', async (_name, edit, message) => {
    const { dir, config } = setup(edit);
    const { code, err } = await run(['evolve', config, '--store', join(dir, 'm.sqlite')], dir);
    expect(code).toBe(2);
    expect(err).toContain(message);
    expect(err).toContain(config);
    expect(err).not.toMatch(/\n\s+at /);
    expect(existsSync(join(dir, 'evolve'))).toBe(false);
  });

  test('flags and --resume', async () => {
    const { dir, config } = setup((y) => y);
    expect((await run(['evolve', config, '--rounds', '0'], dir)).err).toContain('--rounds must be at least 1');
    const resume = await run(['evolve', '--resume', join(dir, 'data')], dir);
    expect(resume.code).toBe(2);
    expect(resume.err).toContain('state.json not found');
    expect((await run(['evolve', '--resume', join(dir, 'data'), '--rounds', '3'], dir)).err).toContain('pass only the loop directory');
    expect((await run(['evolve', '--resume', join(dir, 'data'), '--screening', 'fixed'], dir)).err).toContain('pass only the loop directory');
    const screening = await run(['evolve', config, '--screening', 'adaptive'], dir);
    expect(screening.code).toBe(2);
    expect(screening.err).toContain("--screening must be sequential or fixed, got 'adaptive'");
    expect((await run(['datasets', 'add-failures', 'x.jsonl'], dir)).err).toContain('--experiment EXPERIMENT.yaml is required');
    expect((await run(['datasets', 'nope'], dir)).err).toContain("unknown subcommand 'nope'");
  });
});
