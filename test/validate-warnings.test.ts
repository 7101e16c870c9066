/**
 * `validate` said "ok" to an experiment that `run` then stopped on (an unset key variable)
 * and to a candidate skill without front matter that `gate` then failed (issue 15, item 8).
 * Now both are warnings (exit 0), and `--strict` makes them errors (exit 2).
 */
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { main } from '../src/cli/main.js';
import { formatLayer } from '../src/gates/format-layer.js';
import { runCli, type CliResult } from './support/cli.js';

/** The CLI's own entry point in this process (one real process per test is enough to show the exit code). */
async function inProcess(args: string[], env: NodeJS.ProcessEnv): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const code = await main(args, { stdout: { write: (t) => void (stdout += t) }, stderr: { write: (t) => void (stderr += t) }, env, cwd: process.cwd(), signal: new AbortController().signal });
  return { code, signal: null, stdout, stderr };
}

const DATE_PARSER = join(import.meta.dirname, '..', 'examples', 'date-parser');

/** A copy of the date-parser example, its provider and candidate skill edited. */
function experiment(edit: { provider?: string; skill?: (text: string) => string }): string {
  const dir = mkdtempSync(join(tmpdir(), 'isobudget-validate-'));
  cpSync(DATE_PARSER, dir, { recursive: true });
  const config = join(dir, 'experiment.yaml');
  if (edit.provider) writeFileSync(config, readFileSync(config, 'utf8').replace(/^provider: .*$/m, `provider: ${edit.provider}`));
  if (edit.skill) writeFileSync(join(dir, 'skills', 'v3.md'), edit.skill(readFileSync(join(dir, 'skills', 'v3.md'), 'utf8')));
  return config;
}

test('an unset key variable: a warning naming it, exit 0; --strict: exit 2; set: no warning', async () => {
  const config = experiment({ provider: '{ preset: openai }' });
  const plain = await inProcess(['validate', config, '--config-only'], {});
  expect(plain.code, plain.stderr).toBe(0);
  expect(plain.stderr).toMatch(/^warning: .*experiment\.yaml: provider\.api_key_env: environment variable OPENAI_API_KEY is not set \(named by preset `openai`\): `run` and `doctor` stop on it\n {2}hint: export OPENAI_API_KEY=/m);
  const strict = await runCli(['validate', config, '--config-only', '--strict'], { env: {} });
  expect(strict.code).toBe(2);
  expect(strict.stderr).toContain('OPENAI_API_KEY is not set');
  const set = await inProcess(['validate', config, '--config-only', '--strict'], { OPENAI_API_KEY: 'sk-test-not-a-real-key-0000' });
  expect(set.code, set.stderr).toBe(0);
  expect(set.stderr).toBe('');
  for (const output of [plain, strict, set]) expect(output.stdout + output.stderr).not.toContain('sk-test-not-a-real-key');
});

test('a candidate skill without front matter: the warning gate layer 1 will fail on; --strict: exit 2', async () => {
  const config = experiment({ skill: (text) => text.replace(/^---\n[\s\S]*?\n---\n/, '') });
  const plain = await inProcess(['validate', config], {});
  expect(plain.code, plain.stderr).toBe(0);
  expect(plain.stdout).toContain('dataset ok: val 200 cases');
  expect(plain.stderr).toMatch(/^warning: .*skills\/v3\.md:1: no front matter: start the file with a `---` block holding name, description and version\n {2}hint: `isobudget gate` fails on this \(layer 1/m);
  const strict = await inProcess(['validate', config, '--strict'], {});
  expect(strict.code).toBe(2);
  expect(strict.stderr).toContain('v3.md:1: no front matter');
  // What the gate's layer 1 then does with the same file: fails, with the same problem.
  const skillFile = join(config, '..', 'skills', 'v3.md');
  const layer = formatLayer({ configProblems: [], skill: { text: readFileSync(skillFile, 'utf8'), file: skillFile }, testCases: [], regressionCases: [], minChars: 8 });
  expect(layer.outcome.status).toBe('failed');
  expect(layer.outcome.summary).toContain('v3.md:1: no front matter');
  // The shipped example is clean: no warning at all.
  const clean = await inProcess(['validate', join(DATE_PARSER, 'experiment.yaml'), '--strict'], {});
  expect(clean.code, clean.stderr).toBe(0);
  expect(clean.stderr).toBe('');
});
