/**
 * Loud non-comparisons (issue 24 item 5): a config whose two variants are the same agent, or a
 * command agent the skill never reaches, is a warning in `validate` and `run`, an error under
 * `--strict`.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import type { Manifest } from '../src/ledger/manifest.js';
import { arithmeticCases } from './support/experiment.js';
import { runCli } from './support/cli.js';

/** The seed's YAML shape: a model, a budget, datasets — and no `variants:`. */
function seedShaped(extra = ''): string {
  const dir = mkdtempSync(join(tmpdir(), 'isobudget-same-'));
  mkdirSync(join(dir, 'data'));
  writeFileSync(join(dir, 'data', 'val.jsonl'), arithmeticCases(6));
  writeFileSync(join(dir, 'experiment.yaml'), `experiment: budget_fairness_best_of_n\nprovider: { preset: sim }\nmodels: { candidate: sim-small }\nbudget: { total_tokens_per_case: 2000, per_case_max_tokens: 256, best_of_n: [1, 4] }\ndatasets: { val: data/val.jsonl }\nscorer: numeric\n${extra}`);
  return dir;
}

test('no variants: validate warns that the run compares the agent with itself; --strict is exit 2', async () => {
  const dir = seedShaped();
  const warned = await runCli(['validate', 'experiment.yaml'], { cwd: dir });
  expect(warned.code, warned.stderr).toBe(0);
  expect(warned.stderr).toContain('resolve to the same prompt, model (sim-small) and temperature');
  expect(warned.stderr).toContain('the run compares the agent with itself');
  const strict = await runCli(['validate', 'experiment.yaml', '--strict'], { cwd: dir });
  expect(strict.code).toBe(2);
  expect(strict.stderr).toContain('variants: baseline (');
});

test('run says so before the first call and records it in the manifest; run --strict stops before any call', async () => {
  const dir = seedShaped();
  const strict = await runCli(['run', 'experiment.yaml', '--strict', '--sim-latency-scale', '0'], { cwd: dir });
  expect(strict.code).toBe(2);
  expect(strict.stderr).toContain('the run compares the agent with itself');
  expect(existsSync(join(dir, 'runs'))).toBe(false);
  const run = await runCli(['run', 'experiment.yaml', '--sim-latency-scale', '0', '--no-report'], { cwd: dir });
  expect(run.code, run.stderr).toBe(0);
  expect(run.stderr).toMatch(/warning: baseline \(\S+\) and candidate \(\S+\) resolve to the same prompt/);
  const [id] = readdirSync(join(dir, 'runs'));
  const manifest = JSON.parse(readFileSync(join(dir, 'runs', id ?? '', 'manifest.json'), 'utf8')) as Manifest;
  expect(manifest.warnings.some((w) => w.includes('compares the agent with itself'))).toBe(true);
}, 30_000);

test('a command agent the skill never reaches: validate warns; {{system_prompt}} or {{system_prompt_file}} in argv or env silences it', async () => {
  const dir = seedShaped();
  mkdirSync(join(dir, 'skills'));
  writeFileSync(join(dir, 'skills', 'a.md'), '---\nname: arith\ndescription: d\nversion: 1\n---\nAnswer.\n');
  writeFileSync(join(dir, 'skills', 'b.md'), '---\nname: arith\ndescription: d\nversion: 2\n---\nAnswer with the sum only.\n');
  const config = (executor: string): string => {
    const yaml = readFileSync(join(dir, 'experiment.yaml'), 'utf8').replace('models: { candidate: sim-small }', 'variants:\n  baseline: { id: a, model: sim-small, skill: skills/a.md }\n  candidate: { id: b, model: sim-small, skill: skills/b.md }');
    const file = join(dir, `exp-${Math.random().toString(36).slice(2)}.yaml`);
    writeFileSync(file, `${yaml}executor: ${executor}\n`);
    return file;
  };
  const bare = await runCli(['validate', config('{ type: command, argv: [sh, -c, \'echo "$1"\', agent, "{{input}}"] }'), '--config-only']);
  expect(bare.code, bare.stderr).toBe(0);
  expect(bare.stderr).toContain('executor.argv: the variants differ only in their skill, but the command agent\'s argv and env carry no {{system_prompt}} or {{system_prompt_file}}');
  for (const executor of ['{ type: command, argv: [sh, -c, \'echo "$1"\', agent, "{{system_prompt}}\\n\\n{{input}}"] }', '{ type: command, argv: [sh, -c, \'echo "$1"\', agent, "{{input}}"], env: { SKILL_FILE: "{{system_prompt_file}}" } }']) {
    const ok = await runCli(['validate', config(executor), '--config-only']);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stderr).not.toContain('system_prompt');
  }
});

test('a run whose cases the simulator recognized none of is invalid (exit 12), with the hint — not a clean no_gain', async () => {
  const dir = seedShaped();
  const own = Array.from({ length: 12 }, (_, i) => JSON.stringify({ id: `t${i}`, input: `Translate the word number ${i} into French.`, expected: 'x' })).join('\n');
  writeFileSync(join(dir, 'data', 'val.jsonl'), `${own}\n`);
  mkdirSync(join(dir, 'skills'));
  writeFileSync(join(dir, 'skills', 'a.md'), 'Translate.\n');
  writeFileSync(join(dir, 'skills', 'b.md'), 'Translate carefully.\n');
  const yaml = readFileSync(join(dir, 'experiment.yaml'), 'utf8').replace('models: { candidate: sim-small }', 'variants:\n  baseline: { id: a, model: sim-small, skill: skills/a.md }\n  candidate: { id: b, model: sim-small, skill: skills/b.md }').replace('scorer: numeric', 'scorer: normalized');
  writeFileSync(join(dir, 'experiment.yaml'), yaml);
  const run = await runCli(['run', 'experiment.yaml', '--sim-latency-scale', '0', '--no-report', '--gate'], { cwd: dir });
  expect(run.code, run.stderr).toBe(12);
  expect(run.stdout).toContain('verdict: INVALID');
  expect(run.stdout).toContain('sim_recognized_cases: the simulator recognized none of the cases');
  expect(run.stdout).toContain('run it against a real endpoint');
}, 30_000);
